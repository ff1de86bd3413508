//! File ▸ Export PIE…'s data, apart from its logic: the settings the user sets, the
//! verdict of the writer and the check rules, the open dialog, what its jobs bring back
//! and its commands. The command list and the job lanes name these, not the dialog that
//! works on the whole state.

use crate::export::pie::PieVersion;
use std::path::PathBuf;

/// What the user sets in the dialog.
#[derive(Debug, Clone, PartialEq)]
pub struct PieSettings {
    /// PIE 3 or 4.
    pub version: PieVersion,
    /// Model units → PIE units.
    pub scale: f32,
    /// Page every level names; empty: the model's own pages.
    pub page: String,
    /// Where to save.
    pub output: String,
    /// Copy the pages the file names into `texpages/` beside it (as `vitrine convert
    /// --pack`).
    pub pack: bool,
}

/// An error finding and what to do about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Blocker {
    /// The finding as `vitrine check` prints it.
    pub line: String,
    /// The rule's explanation.
    pub what_to_do: String,
}

/// What the writer and the check rules say about the current settings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verdict {
    /// Levels the file would have.
    pub levels: usize,
    /// The pages the file names (base pages first).
    pub pages: Vec<String>,
    /// Errors: each stops the write.
    pub errors: Vec<Blocker>,
    /// The writer's warnings and the check's warnings and notes.
    pub warnings: Vec<String>,
    /// The pages copied with the file, or already there.
    pub copies: Vec<String>,
    /// Pages found nowhere that the model holds an image of (a page packed in a `.glb`):
    /// copying the pages with the file is the way out.
    pub packable: Vec<String>,
    /// Pages found nowhere that the model has no image of: the data that has them must
    /// be among the data roots.
    pub unfound: Vec<String>,
}

/// The check's state in the dialog.
#[derive(Debug, Clone, PartialEq)]
pub enum Preview {
    /// Running for the current settings.
    Checking,
    /// The verdict on the current settings, or why nothing can be written.
    Done(Result<Verdict, String>),
    /// The file is being written.
    Writing,
}

/// The dialog while it is open.
#[derive(Debug, Clone, PartialEq)]
pub struct PieDialog {
    /// The settings.
    pub settings: PieSettings,
    /// The check on them.
    pub preview: Preview,
    /// The document the dialog is for ([`crate::document::Document::generation`]).
    pub generation: u64,
    /// Why this document cannot be exported (an assembly), instead of a preview.
    pub refused: Option<String>,
}

/// What a job of the dialog gives back.
#[derive(Debug)]
pub enum PieDone {
    /// The check on these settings.
    Checked(PieSettings, Result<Verdict, String>),
    /// The write: the toast text, or why nothing was written.
    Written(Result<String, String>),
}

/// Commands of the dialog.
#[derive(Debug, Clone, PartialEq)]
pub enum PieCommand {
    /// Open the dialog for the open model.
    Show,
    /// Close it.
    Close,
    /// Use these settings (and check them).
    Set(PieSettings),
    /// Pick where to save with a save dialog.
    Browse,
    /// Save here (from the save dialog).
    SetOutput(PathBuf),
    /// Check and write the file.
    Write,
}
