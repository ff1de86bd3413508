//! `vitrine maptools …`: the commands of Warzone 2100's `maptools` that the map database's
//! pipeline runs (`maptools package genpreview`, …), with maptools' arguments, so a
//! pipeline swaps one executable. Each command's own file does the work
//! (`maptools_preview`: `package genpreview`); this one is the clap shape and the
//! dispatch.

use clap::{Args, Subcommand};

/// `vitrine maptools`.
#[derive(Debug, Args)]
pub struct MaptoolsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: Maptools,
}

/// maptools' command groups.
#[derive(Debug, Subcommand)]
pub enum Maptools {
    /// Work on a map package (a .wz file, or its extracted folder).
    #[command(subcommand)]
    Package(Package),
}

/// `maptools package …`.
#[derive(Debug, Subcommand)]
pub enum Package {
    /// Write a map's preview PNG: Vitrine's 3D picture of the map edge to edge (its
    /// background transparent), or with --2d maptools' flat-colour picture, one pixel
    /// per tile.
    Genpreview(super::maptools_preview::GenpreviewArgs),
}

/// Runs `vitrine maptools`; returns the exit code.
pub fn run(args: &MaptoolsArgs) -> i32 {
    match &args.command {
        Maptools::Package(Package::Genpreview(a)) => super::maptools_preview::run(a),
    }
}
