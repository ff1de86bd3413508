//! File ▸ Export animation… (Ctrl+Shift+E, or the record button beside the timeline's
//! transport): the dialog's settings (persisted in the settings file; they, the dialog's
//! state and its commands are in [`state`]), turning them and the open document into a
//! [`Job`], the export running (`run`: on a worker thread on the desktop, a slice per
//! frame in the browser) with its progress and Cancel,
//! and the toast at the end (path, size, Open folder).
//!
//! The export renders with its own [`crate::render::SceneRenderer`] on the window's GPU
//! device, so the window keeps drawing while it runs. One export runs at a time.

mod dialog;
mod run;
pub mod state;

pub use dialog::{dialog_ui, progress_ui};
#[cfg(not(target_arch = "wasm32"))]
pub use run::start;
pub use run::{PageExport, poll, start_stepped};
pub use state::{AnimationDialog, AnimationOptions, ExportCommand, RunningExport, Source};

use crate::commands::Effect;
use crate::document::{Document, DocumentState};
use crate::export::animation::{Encoding, Format, FramePlan, Job, Motion, frame_camera};
use crate::render::ViewSettings;
use crate::services::Services;
use crate::view::View;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the dialog's commands work on: the dialog, the running export (to refuse a
/// second one and to cancel it), the services (the settings the dialog keeps, the host's
/// folders, the toasts), and the document and the view (what the export draws).
pub struct AnimationContext<'a> {
    /// The dialog, while open.
    pub dialog: &'a mut Option<AnimationDialog>,
    /// The export running, if any.
    pub running: Option<&'a RunningExport>,
    /// The services.
    pub services: &'a mut Services,
    /// The document (the open model, its timeline, what is selected and shown).
    pub document: &'a DocumentState,
    /// The view (its camera and colour mode).
    pub view: &'a View,
}

/// `folder/<stem>.<ext>`, `stem` being `doc`'s.
fn default_output(services: &Services, doc: &Document, options: &AnimationOptions) -> PathBuf {
    let folder = options
        .folder
        .clone()
        .or_else(|| services.settings.screenshot_folder(&*services.host))
        .unwrap_or_default();
    folder.join(format!("{}.{}", doc.stem(), options.format.extension()))
}

/// `path` with the extension of `format`.
pub fn with_format(path: &str, format: Format) -> String {
    let p = Path::new(path);
    if path.trim().is_empty() {
        return format!("animation.{}", format.extension());
    }
    p.with_extension(format.extension())
        .to_string_lossy()
        .into_owned()
}

/// Carries out an export command.
pub fn apply(ctx: AnimationContext<'_>, cmd: ExportCommand) -> Option<Effect> {
    let services = ctx.services;
    match cmd {
        ExportCommand::Show => {
            let Some(doc) = ctx.document.open.as_ref() else {
                services.toasts.error("Nothing to export: no model is open");
                return None;
            };
            if ctx.dialog.is_none() {
                let mut options = services.settings.animation.clone().sanitised();
                if doc.playback.clip.is_none() {
                    options.source = Source::Turntable;
                }
                let output = default_output(services, doc, &options)
                    .display()
                    .to_string();
                *ctx.dialog = Some(AnimationDialog { options, output });
            }
            None
        }
        ExportCommand::Close => {
            if let Some(d) = ctx.dialog.take() {
                services.settings.animation = d.options;
            }
            None
        }
        ExportCommand::Browse => {
            let d = ctx.dialog.as_ref()?;
            let path = PathBuf::from(&d.output);
            Some(Effect::PickAnimationOutput(path, d.options.format))
        }
        ExportCommand::SetOutput(path) => {
            if let Some(d) = ctx.dialog {
                if let Some(f) = Format::from_path(&path) {
                    d.options.format = f;
                }
                d.output = path.display().to_string();
            }
            None
        }
        ExportCommand::Export => {
            if ctx.running.is_some() {
                services.toasts.error("An export is already running");
                return None;
            }
            let d = ctx.dialog.as_mut()?;
            if let Some(f) = Format::from_path(Path::new(&d.output)) {
                d.options.format = f;
            } else {
                d.output = with_format(&d.output, d.options.format);
            }
            let output = PathBuf::from(&d.output);
            d.options.folder = output
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map(Path::to_path_buf);
            let view = crate::view::view_settings(ctx.view, ctx.document, &services.settings);
            match job(d, ctx.document.open.as_ref(), view) {
                Ok(job) => {
                    if let Some(d) = ctx.dialog.take() {
                        services.settings.animation = d.options;
                    }
                    Some(Effect::ExportAnimation(Box::new(job)))
                }
                Err(e) => {
                    services.toasts.error(format!("Cannot export: {e}"));
                    None
                }
            }
        }
        ExportCommand::Cancel => {
            if let Some(run) = ctx.running {
                run.progress.cancel();
            }
            None
        }
    }
}

/// The export dialog `d`'s settings describe for `doc` (the open document), drawn from
/// `view` (what the window draws: [`crate::view::view_settings`]).
pub fn job(
    d: &AnimationDialog,
    doc: Option<&Document>,
    mut view: ViewSettings,
) -> Result<Job, String> {
    let doc = doc.ok_or("no model is open")?;
    let o = d.options.clone().sanitised();
    if let Some(why) = o.format.unavailable() {
        return Err(why.to_string());
    }
    let model = &doc.model;
    let clip = doc.playback.clip.filter(|&c| c < model.clips.len());
    let motion = match (o.source, clip) {
        (Source::Turntable, _) => Motion::Turntable {
            seconds: o.turntable_seconds,
            clip: clip.filter(|_| o.turntable_plays_clip),
        },
        (_, None) => return Err("the model has no animation; export a turntable".into()),
        (Source::Clip, Some(c)) => Motion::Clip {
            clip: c,
            first: 0,
            last: model.clips[c].frame_count.saturating_sub(1),
        },
        (Source::Range, Some(c)) => {
            let span = doc.playback.span(model).ok_or("no range is selected")?;
            Motion::Clip {
                clip: c,
                first: span.first_frame,
                last: span.last_frame,
            }
        }
    };
    let fps = (!o.own_fps).then_some(o.fps);
    let plan = FramePlan::new(model, motion, fps)?;
    if !o.overlays {
        view.overlays = crate::render::Overlays::NONE;
        view.selected = None;
    }
    if o.transparent {
        view.background[3] = 0;
    }
    let size = (o.size[0], o.size[1]);
    if o.fit {
        view.camera = frame_camera(model, &plan, &view, size);
    }
    Ok(Job {
        model: Arc::new(model.clone()),
        plan,
        view,
        size,
        samples: crate::render::MSAA_SAMPLES,
        crop_margin: o.crop.then_some(o.margin),
        encoding: Encoding {
            format: o.format,
            dither: o.dither,
            matte: o.matte,
            loops: o.loops,
            webp_quality: (!o.webp_lossless).then_some(o.webp_quality),
        },
        output: PathBuf::from(&d.output),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::AppCommand;
    use crate::settings::Settings;
    use crate::state::AppState;

    /// `job` on `s`'s dialog and open document, as the window draws them.
    fn job_of(s: &AppState) -> Result<Job, String> {
        let d = s.dialogs.animation.as_ref().unwrap();
        job(d, s.document.open.as_ref(), s.view_settings())
    }

    #[test]
    fn format_follows_the_extension() {
        let apply = |s: &mut AppState, c| crate::dispatch::apply(s, AppCommand::Export(c));
        assert_eq!(with_format("/a/tank.gif", Format::Webp), "/a/tank.webp");
        assert_eq!(with_format("", Format::Apng), "animation.apng");
        let mut s = AppState::new(
            Settings::default(),
            crate::host::MemoryHost::new(Default::default()),
        );
        let mut m = crate::model::Model::new(crate::model::Format::Pie, "3");
        m.clips
            .push(crate::model::Clip::new("pump", 10.0, 20, true));
        s.set_document(crate::files::FileRef::Disk("derrick.pie".into()), m);
        apply(&mut s, ExportCommand::Show);
        let d = s.dialogs.animation.as_ref().unwrap();
        assert!(d.output.ends_with("derrick.gif"), "{}", d.output);
        apply(&mut s, ExportCommand::SetOutput(PathBuf::from("/x/d.webp")));
        assert_eq!(
            s.dialogs.animation.as_ref().unwrap().options.format,
            Format::Webp
        );
        if !Format::Webp.available() {
            // Without libwebp the dialog says why instead of exporting.
            assert_eq!(
                job_of(&s).unwrap_err(),
                crate::export::animation::WEBP_UNAVAILABLE
            );
            apply(&mut s, ExportCommand::SetOutput(PathBuf::from("/x/d.apng")));
        }
        let job = job_of(&s).unwrap();
        assert_eq!(job.plan.count, 20);
        assert_eq!(job.view.overlays, crate::render::Overlays::NONE);
    }

    #[test]
    fn odd_settings_are_brought_into_range() {
        let o = AnimationOptions {
            fps: 500.0,
            size: [0, 100_000],
            turntable_seconds: f32::NAN,
            ..AnimationOptions::default()
        }
        .sanitised();
        assert_eq!(
            (o.fps, o.size, o.turntable_seconds),
            (50.0, [16, 2048], 4.0)
        );
    }
}
