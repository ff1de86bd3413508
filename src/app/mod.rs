//! The eframe viewer window (being written).

use std::path::PathBuf;

/// Opens the viewer window on `file` (or the demo model); returns the exit code.
pub fn run(_file: Option<PathBuf>) -> i32 {
    eprintln!("the viewer window is not built yet");
    2
}
