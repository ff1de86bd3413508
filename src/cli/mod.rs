//! The command line: `vitrine [FILE]` opens the viewer; `vitrine info` and
//! `vitrine render` work without a window.

pub mod animate;
pub mod info;
pub mod render;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Vitrine — a viewer for retro game 3D models (Warzone 2100 PIE, PMF, PangYa PET, Trespasser TPM).
#[derive(Debug, Parser)]
#[command(
    name = "vitrine",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Command to run; without one the viewer window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Model to open in the viewer (default: the bundled demo model).
    pub file: Option<PathBuf>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what a model file holds (text, or one JSON object per file with --json).
    Info(info::InfoArgs),
    /// Render a model (or every model under a folder) to PNG without a window, or one
    /// model's clip or turntable to an animated GIF, APNG, WebP or PNG sequence.
    Render(render::RenderArgs),
}
