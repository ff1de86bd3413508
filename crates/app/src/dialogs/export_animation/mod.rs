//! File ▸ Export animation… (Ctrl+Shift+E, or the record button beside the timeline's
//! transport): the dialog's settings (persisted in the settings file), turning them and
//! the open document into an [`export::Job`], the export running (`run`: on a worker
//! thread on the desktop, a slice per frame in the browser) with its progress and Cancel,
//! and the toast at the end (path, size, Open folder).
//!
//! The export renders with its own [`crate::render::SceneRenderer`] on the window's GPU
//! device, so the window keeps drawing while it runs. One export runs at a time.

mod dialog;
mod run;

pub use dialog::{dialog_ui, progress_ui};
#[cfg(not(target_arch = "wasm32"))]
pub use run::start;
pub use run::{PageExport, RunningExport, poll, start_stepped};

use crate::commands::Effect;
use crate::export::animation::{
    self as export, Encoding, Format, FramePlan, Job, MAX_FPS, MAX_SIDE, Motion, frame_camera,
};
use crate::state::AppState;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the dialog exports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Source {
    /// The current clip once through.
    #[default]
    Clip,
    /// The range the timeline plays (the selected motion of the clip).
    Range,
    /// The camera orbits 360° about the model.
    Turntable,
}

/// The dialog's settings; persisted in the settings file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnimationOptions {
    /// What to export.
    pub source: Source,
    /// Seconds for one turn of the turntable.
    pub turntable_seconds: f32,
    /// The clip plays while the turntable turns.
    pub turntable_plays_clip: bool,
    /// Use the clip's own frame rate (else [`AnimationOptions::fps`]).
    pub own_fps: bool,
    /// Chosen frame rate (1–50).
    pub fps: f32,
    /// Picture size in pixels.
    pub size: [u32; 2],
    /// Transparent background (else the view's colour).
    pub transparent: bool,
    /// Crop to the content of all frames.
    pub crop: bool,
    /// Margin kept around the content when cropping, pixels.
    pub margin: u32,
    /// Draw the view's overlays (clean by default).
    pub overlays: bool,
    /// Frame the model to fit the picture (else the view's camera exactly).
    pub fit: bool,
    /// Output format.
    pub format: Format,
    /// GIF: dithering.
    pub dither: bool,
    /// GIF: the page colour transparent edges are blended over.
    pub matte: [u8; 3],
    /// Times the animation plays (0 = forever).
    pub loops: u32,
    /// WebP: lossless (else lossy at [`AnimationOptions::webp_quality`]).
    pub webp_lossless: bool,
    /// WebP lossy quality, 0–100.
    pub webp_quality: f32,
    /// Folder of the last export (`None`: the screenshot folder).
    pub folder: Option<PathBuf>,
}

impl Default for AnimationOptions {
    fn default() -> Self {
        AnimationOptions {
            source: Source::Clip,
            turntable_seconds: 4.0,
            turntable_plays_clip: false,
            own_fps: true,
            fps: 25.0,
            size: [512, 512],
            transparent: false,
            crop: false,
            margin: 8,
            overlays: false,
            fit: true,
            format: Format::Gif,
            dither: true,
            matte: [255, 255, 255],
            loops: 0,
            webp_lossless: true,
            webp_quality: 80.0,
            folder: None,
        }
    }
}

impl AnimationOptions {
    /// Brings values from a hand-edited settings file into range.
    pub fn sanitised(mut self) -> AnimationOptions {
        let finite = |v: f32, d: f32| if v.is_finite() { v } else { d };
        self.turntable_seconds =
            finite(self.turntable_seconds, 4.0).clamp(0.5, export::MAX_TURNTABLE_SECONDS);
        self.fps = finite(self.fps, 25.0).clamp(1.0, MAX_FPS);
        self.size = self.size.map(|s| s.clamp(16, MAX_SIDE));
        self.margin = self.margin.min(512);
        self.webp_quality = finite(self.webp_quality, 80.0).clamp(0.0, 100.0);
        self
    }
}

/// The dialog while it is open: its settings and the output path being edited.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationDialog {
    /// The settings.
    pub options: AnimationOptions,
    /// Output file (a PNG sequence: the first frame's name pattern).
    pub output: String,
}

/// Commands of the dialog, the progress window and the toast.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportCommand {
    /// Open the dialog.
    Show,
    /// Close it.
    Close,
    /// Pick the output file with a save dialog.
    Browse,
    /// Use this output file (from the save dialog).
    SetOutput(PathBuf),
    /// Start the export with the dialog's settings.
    Export,
    /// Stop the running export (nothing is written).
    Cancel,
    /// Open this folder in the file manager.
    OpenFolder(PathBuf),
}

/// `folder/<stem>.<ext>`.
fn default_output(state: &AppState, options: &AnimationOptions) -> PathBuf {
    let folder = options
        .folder
        .clone()
        .or_else(|| {
            state
                .services
                .settings
                .screenshot_folder(&*state.services.host)
        })
        .unwrap_or_default();
    let stem = state
        .document
        .open
        .as_ref()
        .map_or_else(|| "animation".to_string(), |d| d.stem());
    folder.join(format!("{stem}.{}", options.format.extension()))
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
pub fn apply(state: &mut AppState, cmd: ExportCommand) -> Option<Effect> {
    match cmd {
        ExportCommand::Show => {
            if state.document.open.is_none() {
                state
                    .services
                    .toasts
                    .error("Nothing to export: no model is open");
                return None;
            }
            if state.dialogs.animation.is_none() {
                let mut options = state.services.settings.animation.clone().sanitised();
                let has_clip = state
                    .document
                    .open
                    .as_ref()
                    .is_some_and(|d| d.playback.clip.is_some());
                if !has_clip {
                    options.source = Source::Turntable;
                }
                let output = default_output(state, &options).display().to_string();
                state.dialogs.animation = Some(AnimationDialog { options, output });
            }
            None
        }
        ExportCommand::Close => {
            if let Some(d) = state.dialogs.animation.take() {
                state.services.settings.animation = d.options;
            }
            None
        }
        ExportCommand::Browse => {
            let d = state.dialogs.animation.as_ref()?;
            let path = PathBuf::from(&d.output);
            Some(Effect::PickAnimationOutput(path, d.options.format))
        }
        ExportCommand::SetOutput(path) => {
            if let Some(d) = &mut state.dialogs.animation {
                if let Some(f) = Format::from_path(&path) {
                    d.options.format = f;
                }
                d.output = path.display().to_string();
            }
            None
        }
        ExportCommand::Export => {
            if state.dialogs.running_export.is_some() {
                state.services.toasts.error("An export is already running");
                return None;
            }
            let d = state.dialogs.animation.as_mut()?;
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
            match job(state) {
                Ok(job) => {
                    if let Some(d) = state.dialogs.animation.take() {
                        state.services.settings.animation = d.options;
                    }
                    Some(Effect::ExportAnimation(Box::new(job)))
                }
                Err(e) => {
                    state.services.toasts.error(format!("Cannot export: {e}"));
                    None
                }
            }
        }
        ExportCommand::Cancel => {
            if let Some(run) = &state.dialogs.running_export {
                run.progress.cancel();
            }
            None
        }
        ExportCommand::OpenFolder(_) if !state.services.host.has_folders() => {
            state.services.toasts.info(crate::dialogs::NO_FOLDERS);
            None
        }
        ExportCommand::OpenFolder(dir) => Some(Effect::OpenFolder(dir)),
    }
}

/// The export the dialog's settings describe for the open document.
pub fn job(state: &AppState) -> Result<Job, String> {
    let doc = state.document.open.as_ref().ok_or("no model is open")?;
    let d = state
        .dialogs
        .animation
        .as_ref()
        .ok_or("the dialog is closed")?;
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
    let mut view = state.view_settings();
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
    use crate::settings::Settings;

    #[test]
    fn format_follows_the_extension() {
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
            assert_eq!(job(&s).unwrap_err(), export::WEBP_UNAVAILABLE);
            apply(&mut s, ExportCommand::SetOutput(PathBuf::from("/x/d.apng")));
        }
        let job = job(&s).unwrap();
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
