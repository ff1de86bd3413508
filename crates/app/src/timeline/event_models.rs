//! PIE `EVENT` models: while a game event runs (1 active, 2 firing, 3 dying) the game
//! draws another `.pie` instead of the model. The timeline's selector shows one of them
//! with its own animation in place of the base model, or the base model again.
//!
//! The event file was found (or not) by the loader through the model search path
//! ([`crate::model::ModelEvent::resolved`]); it is loaded by a job when selected. While it is
//! shown, [`Document::model`] *is* the event model (so the view, the side panel, framing
//! and screenshots all show what is drawn) and the base model waits in
//! [`ShownEvent::base`]. Also here: carrying the playback (and the event shown) over
//! when the same file is opened again.

use crate::document::{Document, ShownEvent, load_model};
use crate::model::Model;
use crate::state::AppState;
use crate::timeline::playback::Playback;

/// What the timeline's selector calls an event: `"firing (blderik_fire.pie)"`.
pub fn event_label(model: &Model, index: usize) -> String {
    model
        .events
        .get(index)
        .map(|e| format!("{} ({})", e.kind_name(), e.file))
        .unwrap_or_else(|| "base model".into())
}

/// Shows event model `index` of the base model in its place (`None`: the base model,
/// at once). The event model is loaded by a job ([`crate::loading::Work::event`]) and
/// shown when it arrives ([`event_loaded`]); a file that is missing or does not load
/// leaves the view as it is and says why.
pub fn show_event(state: &mut AppState, index: Option<usize>) {
    load_event(state, index, None);
}

/// An event model loaded by a job.
#[derive(Debug)]
pub struct EventLoaded {
    /// The document generation it was asked for (a newer document drops it).
    generation: u64,
    index: usize,
    label: String,
    /// Playback to carry over onto it (a reload kept the event shown): the old playback
    /// and the model it played.
    carry: Option<Box<(Playback, Model)>>,
    result: Result<Model, String>,
}

fn load_event(state: &mut AppState, index: Option<usize>, carry: Option<Box<(Playback, Model)>>) {
    let options = state.services.load_options();
    let Some(doc) = &state.document.open else {
        return;
    };
    if doc.shown_event() == index {
        return;
    }
    let Some(i) = index else {
        state.services.work.event.cancel();
        switch(state, None);
        return;
    };
    let Some(ev) = doc.base_model().events.get(i) else {
        return;
    };
    let label = event_label(doc.base_model(), i);
    let Some(path) = ev.resolved.clone() else {
        state.services.toasts.error(format!(
            "Event model {label} is missing: not found in the model search path"
        ));
        return;
    };
    let generation = doc.generation;
    let files = state.services.files.clone();
    state
        .services
        .work
        .event
        .start(format!("Loading event model {label}"), move |_| {
            EventLoaded {
                generation,
                index: i,
                label,
                carry,
                result: load_model(&files, &path, &options),
            }
        });
}

/// Shows an event model that arrived from its job, if its document is still open.
pub fn event_loaded(state: &mut AppState, loaded: EventLoaded) {
    if state.document.open.as_ref().map(|d| d.generation) != Some(loaded.generation) {
        return;
    }
    match loaded.result {
        Ok(model) => {
            switch(state, Some((loaded.index, model)));
            if let (Some(carry), Some(doc)) = (loaded.carry, &mut state.document.open) {
                let (playback, model) = *carry;
                doc.playback = playback.carried_to(&model, &doc.model);
                let team = state.services.settings.team;
                doc.resample(team);
            }
        }
        Err(e) => state.services.toasts.error(format!(
            "Event model {} could not be loaded: {e}",
            loaded.label
        )),
    }
}

/// Puts the base model back, then `loaded` (event index, model) in its place.
fn switch(state: &mut AppState, loaded: Option<(usize, Model)>) {
    let team = state.view_settings().team;
    let Some(doc) = &mut state.document.open else {
        return;
    };
    // Back to the base model first.
    if let Some(shown) = doc.event.take() {
        doc.model = shown.base;
        doc.playback = shown.base_playback;
    }
    if let Some((i, model)) = loaded {
        let base = std::mem::replace(&mut doc.model, model);
        let base_playback = std::mem::replace(&mut doc.playback, Playback::for_model(&doc.model));
        doc.event = Some(ShownEvent {
            index: i,
            base,
            base_playback,
        });
    }
    let generation = state.document.bump_generation();
    if let Some(doc) = &mut state.document.open {
        doc.generation = generation;
        doc.resample(team);
    }
    if !state.view.camera_moved {
        state.frame();
    }
}

/// After `state` opened the same file again (reload, reopen): the clip, motion, time,
/// speed and mode of `old` carry over by name, and the event model shown stays shown.
pub fn carry_over(state: &mut AppState, old: Document) {
    let Some(doc) = &mut state.document.open else {
        return;
    };
    match old.event {
        None => doc.playback = old.playback.carried_to(&old.model, &doc.model),
        Some(shown) => {
            doc.playback = shown.base_playback.carried_to(&shown.base, &doc.model);
            let carry = Box::new((old.playback, old.model));
            load_event(state, Some(shown.index), Some(carry));
        }
    }
}
