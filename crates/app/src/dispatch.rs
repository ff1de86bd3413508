//! Where commands are carried out: [`apply`] routes each [`AppCommand`] to its owner,
//! with the owner's own state and a narrow context of what else it may touch (the view
//! sees the view and the open model, the settings the settings and the toasts, the
//! gallery the gallery, the services and the open model, an export dialog its own state,
//! the services and the document, the animation's the view too). A part that needs
//! another part to act returns follow-up commands, which `apply` carries out in turn,
//! and so do the background jobs that finished ([`poll_jobs`]). What needs the window, a dialog or the GPU comes back as
//! an [`Effect`] for the front-end to perform. So the whole command logic runs in tests
//! without a window (jobs run inline there).
//!
//! Nothing but the front-end's frame calls this module: the parts only name the
//! commands ([`crate::commands`]), so routing does not tie them into one circle.

use crate::commands::{AppCommand, Applied};

use crate::dialogs::{export_animation, export_gltf, export_pie, screenshot_dialog};
use crate::effect::Effect;
use crate::panels::{assemble, checks, map};
use crate::state::AppState;
use crate::{gallery, help, inspect, lighting, messages, opening, settings, share, timeline, view};
use std::collections::VecDeque;

/// Carries out `cmd` on `state` and the follow-up commands it leads to, then takes in
/// the background jobs that finished; returns what is left for the window to do. (A
/// follow-up never needs the window: only the command itself yields an effect.)
pub fn apply(state: &mut AppState, cmd: AppCommand) -> Option<Effect> {
    run(state, VecDeque::from([cmd]))
}

/// Takes in the background jobs that finished (the window calls it every frame) and
/// carries out what they lead to.
pub fn poll_jobs(state: &mut AppState) {
    if let Some(effect) = run(state, VecDeque::new()) {
        log::warn!("a finished job asked for {effect:?}; ignored");
    }
}

fn run(state: &mut AppState, mut queue: VecDeque<AppCommand>) -> Option<Effect> {
    let mut effect = None;
    // The data roots' stats, read again when the roots changed.
    assemble::sync_roots(&mut state.services, &mut state.panels.assemble);
    loop {
        while let Some(cmd) = queue.pop_front() {
            let applied = apply_to_part(state, cmd);
            messages::state::take_toasts(&mut state.panels.messages, &mut state.services.toasts);
            queue.extend(applied.then);
            match (&effect, applied.effect) {
                (None, e) => effect = e,
                (Some(_), Some(e)) => log::warn!("a follow-up asked for {e:?}; ignored"),
                (Some(_), None) => {}
            }
        }
        if let Some(listing) = state.services.work.gallery.poll() {
            let then = gallery::listed(&mut state.panels.gallery, &mut state.services, listing);
            queue.extend(then);
        }
        if let Some(read) = state.services.work.stats.poll() {
            state.panels.assemble.stats_read(read);
        }
        if let Some(loaded) = state.services.work.event.poll() {
            timeline::event_models::event_loaded(&mut state.document_context(), loaded);
        }
        if let Some(done) = state.services.work.pie.poll() {
            export_pie::finished(&mut state.dialogs.pie, &mut state.services.toasts, done);
        }
        match state.services.work.document.poll() {
            Some(outcome) => queue.extend(opening::finish(&mut state.document_context(), outcome)),
            None if queue.is_empty() => break,
            None => {}
        }
    }
    // What the jobs and the frame said outside a command.
    messages::state::take_toasts(&mut state.panels.messages, &mut state.services.toasts);
    effect
}

/// One command, handed to its owner with its narrow context: one line per owner.
fn apply_to_part(state: &mut AppState, cmd: AppCommand) -> Applied {
    let s = state;
    match cmd {
        AppCommand::Document(c) => opening::apply(s.document_context(), c),
        AppCommand::View(c) => done(|| view::apply(view_context(s), c)),
        AppCommand::Settings(c) => {
            done(|| settings::apply(&mut s.services.settings, &mut s.services.toasts, c))
        }
        AppCommand::Screenshot(c) => screenshot_dialog::apply(screenshot_context(s), c).into(),
        AppCommand::Share(c) => share::apply(share_context(s), c).into(),
        AppCommand::Gltf(c) => export_gltf::apply(gltf_context(s), c).into(),
        AppCommand::Gallery(c) => gallery::apply(gallery_context(s), c).into(),
        AppCommand::Inspect(c) => done(|| inspect::apply(inspect_context(s), c)),
        AppCommand::Timeline(c) => {
            done(|| timeline::apply(s.document.open.as_mut(), s.services.team(), c))
        }
        AppCommand::Assemble(c) => assemble::apply(assemble_context(s), c).into(),
        AppCommand::Checks(c) => checks::apply(&mut s.document, c).into(),
        AppCommand::ExportPie(c) => export_pie::apply(pie_context(s), c).into(),
        AppCommand::Export(c) => export_animation::apply(animation_context(s), c).into(),
        AppCommand::Light(c) => done(|| lighting::command::apply(light_context(s), c)),
        AppCommand::Help(c) => {
            done(|| help::state::apply(&mut s.dialogs.help, &mut s.services.toasts, c))
        }
        AppCommand::Messages(c) => messages::state::apply(&mut s.panels.messages, c).into(),
        AppCommand::Map(c) => done(|| map::state::apply(&mut s.panels.map, c)),
        AppCommand::Quit => Effect::Quit.into(),
    }
}

/// An owner's apply that leaves nothing to do.
fn done(apply: impl FnOnce()) -> Applied {
    apply();
    Applied::default()
}

fn view_context(s: &mut AppState) -> view::ViewContext<'_> {
    view::ViewContext {
        team: s.services.team(),
        view: &mut s.view,
        document: s.document.open.as_ref(),
        selected: s
            .document
            .inspect_current()
            .and(s.document.inspect.selected),
    }
}

fn share_context(s: &mut AppState) -> share::ShareContext<'_> {
    share::ShareContext {
        services: &mut s.services,
        document: s.document.open.as_ref(),
        view: &s.view,
        published_sites: &mut s.dialogs.published_sites,
    }
}

fn gallery_context(s: &mut AppState) -> gallery::GalleryContext<'_> {
    gallery::GalleryContext {
        gallery: &mut s.panels.gallery,
        services: &mut s.services,
        document: s.document.open.as_ref(),
    }
}

fn assemble_context(s: &mut AppState) -> assemble::AssembleContext<'_> {
    assemble::AssembleContext {
        assemble: &mut s.panels.assemble,
        services: &mut s.services,
    }
}

fn screenshot_context(s: &mut AppState) -> screenshot_dialog::ScreenshotContext<'_> {
    screenshot_dialog::ScreenshotContext {
        dialog: &mut s.dialogs.screenshot,
        settings: &s.services.settings,
        host: &*s.services.host,
        toasts: &mut s.services.toasts,
        has_model: s.document.open.is_some(),
    }
}

fn gltf_context(s: &mut AppState) -> export_gltf::GltfContext<'_> {
    export_gltf::GltfContext {
        team: s.services.settings.team,
        document: s.document.open.as_ref(),
        toasts: &mut s.services.toasts,
    }
}

fn inspect_context(s: &mut AppState) -> inspect::InspectContext<'_> {
    inspect::InspectContext {
        document: &mut s.document,
        settings: &mut s.services.settings,
        files: &s.services.files,
    }
}

fn pie_context(s: &mut AppState) -> export_pie::PieContext<'_> {
    export_pie::PieContext {
        dialog: &mut s.dialogs.pie,
        document: s.document.open.as_ref(),
        services: &mut s.services,
    }
}

fn animation_context(s: &mut AppState) -> export_animation::AnimationContext<'_> {
    export_animation::AnimationContext {
        dialog: &mut s.dialogs.animation,
        running: s.dialogs.running_export.as_ref(),
        services: &mut s.services,
        document: &s.document,
        view: &s.view,
    }
}

fn light_context(s: &mut AppState) -> lighting::command::LightContext<'_> {
    lighting::command::LightContext {
        settings: &mut s.services.settings,
        toasts: &mut s.services.toasts,
        camera: &s.view.camera,
    }
}

#[cfg(test)]
#[path = "dispatch_tests.rs"]
mod tests;
