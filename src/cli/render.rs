//! `vitrine render` (being written).

use clap::Args;
use std::path::PathBuf;

/// Arguments of `vitrine render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Model file or folder.
    pub input: PathBuf,
}

/// Runs `vitrine render`; returns the process exit code.
pub fn run(_args: &RenderArgs) -> i32 {
    eprintln!("vitrine render: not built yet");
    2
}
