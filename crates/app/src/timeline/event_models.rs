//! PIE `EVENT` models: while a game event runs (1 active, 2 firing, 3 dying) the game
//! draws another `.pie` instead of the model. The timeline's selector shows one of them
//! with its own animation in place of the base model, or the base model again.
//!
//! The event file was found (or not) by the loader through the model search path
//! ([`crate::model::ModelEvent::resolved`]); it is loaded here when selected. While it is
//! shown, [`Document::model`] *is* the event model (so the view, the side panel, framing
//! and screenshots all show what is drawn) and the base model waits in
//! [`ShownEvent::base`]. Also here: carrying the playback (and the event shown) over
//! when the same file is opened again.

use crate::model::{Model, Pose};
use crate::state::{AppState, Document, load_model};
use crate::timeline::playback::Playback;

/// The event model being shown instead of the base model.
#[derive(Debug, Clone)]
pub struct ShownEvent {
    /// Index into the base model's `events`.
    pub index: usize,
    /// The base model, back in [`Document::model`] when the event is deselected.
    pub base: Model,
    /// The base model's playback, restored with it.
    pub base_playback: Playback,
}

impl Document {
    /// The model the file itself holds (not an event model shown in its place).
    pub fn base_model(&self) -> &Model {
        self.event.as_ref().map_or(&self.model, |e| &e.base)
    }

    /// Index of the event shown in place of the base model, if any.
    pub fn shown_event(&self) -> Option<usize> {
        self.event.as_ref().map(|e| e.index)
    }

    /// Samples [`Document::pose`] at the playback's time, with team colour `team` for
    /// legacy team-colour texture frames.
    pub fn resample(&mut self, team: usize) {
        let time = self.playback.sample_time(&self.model);
        self.pose = Pose::sample(&self.model, self.playback.clip, time, team);
    }
}

/// What the timeline's selector calls an event: `"firing (blderik_fire.pie)"`.
pub fn event_label(model: &Model, index: usize) -> String {
    model
        .events
        .get(index)
        .map(|e| format!("{} ({})", e.kind_name(), e.file))
        .unwrap_or_else(|| "base model".into())
}

/// Shows event model `index` of the base model in its place (`None`: the base model).
/// A file that is missing or does not load leaves the view as it is and says why.
pub fn show_event(state: &mut AppState, index: Option<usize>) {
    let team = state.view_settings().team;
    let options = state.load_options();
    let Some(doc) = &mut state.document else {
        return;
    };
    if doc.shown_event() == index {
        return;
    }
    let loaded = match index {
        None => None,
        Some(i) => {
            let Some(ev) = doc.base_model().events.get(i) else {
                return;
            };
            let label = event_label(doc.base_model(), i);
            let Some(path) = ev.resolved.clone() else {
                state.toasts.error(format!(
                    "Event model {label} is missing: not found in the model search path"
                ));
                return;
            };
            match load_model(&state.files, &path, &options) {
                Ok(model) => Some((i, model)),
                Err(e) => {
                    state
                        .toasts
                        .error(format!("Event model {label} could not be loaded: {e}"));
                    return;
                }
            }
        }
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
    let generation = state.bump_generation();
    if let Some(doc) = &mut state.document {
        doc.generation = generation;
        doc.resample(team);
    }
    if !state.camera_moved {
        state.frame();
    }
}

/// After `state` opened the same file again (reload, reopen): the clip, motion, time,
/// speed and mode of `old` carry over by name, and the event model shown stays shown.
pub fn carry_over(state: &mut AppState, old: Document) {
    let Some(doc) = &mut state.document else {
        return;
    };
    match old.event {
        None => doc.playback = old.playback.carried_to(&old.model, &doc.model),
        Some(shown) => {
            doc.playback = shown.base_playback.carried_to(&shown.base, &doc.model);
            let new_playback = |doc: &Document| old.playback.carried_to(&old.model, &doc.model);
            show_event(state, Some(shown.index));
            if let Some(doc) = &mut state.document
                && doc.shown_event() == Some(shown.index)
            {
                doc.playback = new_playback(doc);
            }
        }
    }
}
