//! File ▸ Screenshot… and the screenshot keys: the dialog's own state
//! ([`ScreenshotDialog`]) and its commands ([`ScreenshotCommand`]), applied with a
//! [`ScreenshotContext`] (the dialog, the settings, the toasts). The picture itself is
//! taken by the front-end ([`crate::effect::Effect::Screenshot`], drawn with
//! [`super::screenshot`]).

use crate::effect::{Effect, MAX_SCREENSHOT_SIDE, ScreenshotRequest};
use crate::host::Host;
use crate::settings::SettingsStore;
use crate::toasts::Toasts;

/// Settings of the "Screenshot…" dialog while it is open.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScreenshotDialog {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Clean: no overlays and a transparent background.
    pub clean: bool,
}

/// A screenshot intent.
#[derive(Debug, Clone, PartialEq)]
pub enum ScreenshotCommand {
    /// Save a screenshot into the screenshot folder.
    Take(ScreenshotRequest),
    /// Open the "Screenshot…" dialog.
    ShowDialog,
    /// Close the "Screenshot…" dialog.
    CloseDialog,
    /// Pick the screenshot folder with a dialog.
    ChooseFolder,
}

/// What a screenshot command reaches.
pub struct ScreenshotContext<'a> {
    /// The dialog, while open.
    pub dialog: &'a mut Option<ScreenshotDialog>,
    /// The window size and the screenshot folder.
    pub settings: &'a SettingsStore,
    /// The front-end (its default screenshot folder).
    pub host: &'a dyn Host,
    /// Where "nothing to screenshot" goes.
    pub toasts: &'a mut Toasts,
    /// Whether a model is open.
    pub has_model: bool,
}

/// Applies `cmd`: what is left for the front-end (taking the picture, a folder dialog).
pub fn apply(ctx: ScreenshotContext<'_>, cmd: ScreenshotCommand) -> Option<Effect> {
    match cmd {
        ScreenshotCommand::Take(req) => {
            if !ctx.has_model {
                ctx.toasts.error("Nothing to screenshot: no model is open");
                return None;
            }
            let size = req.size.map(|[w, h]| {
                [
                    w.clamp(1, MAX_SCREENSHOT_SIDE),
                    h.clamp(1, MAX_SCREENSHOT_SIDE),
                ]
            });
            *ctx.dialog = None;
            Some(Effect::Screenshot(ScreenshotRequest { size, ..req }))
        }
        ScreenshotCommand::ShowDialog => {
            let [w, h] = ctx.settings.window_size;
            ctx.dialog.get_or_insert(ScreenshotDialog {
                width: (w as u32).clamp(1, MAX_SCREENSHOT_SIDE),
                height: (h as u32).clamp(1, MAX_SCREENSHOT_SIDE),
                clean: false,
            });
            None
        }
        ScreenshotCommand::CloseDialog => {
            *ctx.dialog = None;
            None
        }
        ScreenshotCommand::ChooseFolder => Some(Effect::PickScreenshotFolder(
            ctx.settings.screenshot_folder(ctx.host),
        )),
    }
}
