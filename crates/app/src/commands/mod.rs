//! What the user asked for ([`AppCommand`], emitted by the panels, the menu, the view and
//! the keyboard) and what applying a command leads to ([`Applied`]: follow-ups, and
//! an [`Effect`] for the front-end): the vocabulary only. Each command belongs to an
//! owner, which defines it and applies it ([`crate::view::ViewCommand`] in the view,
//! [`crate::settings::SettingsCommand`] in the settings; [`DocumentCommand`] is defined
//! with the document's state and applied by [`crate::opening`]); `AppCommand` only says
//! which owner. [`crate::dispatch`] routes
//! each to its owner, with the owner's state and a narrow context.

pub use crate::dialogs::export_gltf::GltfCommand;
pub use crate::dialogs::screenshot_dialog::ScreenshotCommand;
pub use crate::document::DocumentCommand;
pub use crate::effect::{Effect, MAX_SCREENSHOT_SIDE, ScreenshotRequest};
pub use crate::settings::SettingsCommand;
pub use crate::share::command::ShareCommand;
pub use crate::timeline::playback::TimelineCommand;
pub use crate::view::ViewCommand;

/// A user intent, by owner.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    /// Open, load, reload, the loader settings, the event model shown.
    Document(DocumentCommand),
    /// The camera and the colour mode.
    View(ViewCommand),
    /// A change to the settings alone (team, background, recent files…).
    Settings(SettingsCommand),
    /// A screenshot, its dialog and its folder.
    Screenshot(ScreenshotCommand),
    /// Share ▸ Copy link / Copy web link, Settings ▸ Published sites….
    Share(ShareCommand),
    /// File ▸ Export glTF….
    Gltf(GltfCommand),
    /// A gallery action (open a folder or archive as a grid, step through its models).
    Gallery(crate::gallery::command::GalleryCommand),
    /// Selection, visibility, overlays, shadows (see [`crate::inspect`]).
    Inspect(crate::inspect::state::InspectCommand),
    /// A timeline action on the open document's animation.
    Timeline(TimelineCommand),
    /// A Warzone 2100 Assemble panel action.
    Assemble(crate::panels::assemble::state::AssembleCommand),
    /// A Checks panel action (pick a finding).
    Checks(crate::panels::checks::state::ChecksCommand),
    /// File ▸ Export PIE…: its dialog, check and write.
    ExportPie(crate::dialogs::export_pie::state::PieCommand),
    /// The Export animation dialog, the running export and its toast.
    Export(crate::dialogs::export_animation::state::ExportCommand),
    /// A change to the light (View ▸ Lighting, Ctrl + drag, Ctrl+L).
    Light(crate::lighting::command::LightCommand),
    /// The Help window (Help menu, F1, `?`).
    Help(crate::help::state::HelpCommand),
    /// View ▸ Messages…: the session's messages.
    Messages(crate::messages::state::MessagesCommand),
    /// The map panel's object search.
    Map(crate::panels::map::MapCommand),
    /// Close the window.
    Quit,
}

/// What applying one command left to do: at most one effect for the front-end, and
/// follow-up commands for other owners (carried out in turn).
#[derive(Debug, Default)]
pub struct Applied {
    /// Work for the front-end.
    pub effect: Option<Effect>,
    /// Commands for other owners.
    pub then: Vec<AppCommand>,
}

impl From<Option<Effect>> for Applied {
    fn from(effect: Option<Effect>) -> Applied {
        Applied {
            effect,
            then: Vec::new(),
        }
    }
}

impl From<Effect> for Applied {
    fn from(effect: Effect) -> Applied {
        Some(effect).into()
    }
}

impl From<Vec<AppCommand>> for Applied {
    fn from(then: Vec<AppCommand>) -> Applied {
        Applied { effect: None, then }
    }
}
