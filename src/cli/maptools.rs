//! `vitrine maptools …`: Vitrine in the place of `maptools` (Warzone2100/maptools-cli),
//! the tool the map database (maps.wz2100.net) runs on every submitted map, with the
//! same subcommands and options, so a pipeline swaps one executable (README: a
//! `maptools` script that runs `vitrine maptools "$@"`). What maptools does and Vitrine
//! does not is refused by name, never ignored.
//!
//! This file is the command tree and its dispatch; each subcommand is in its own file
//! (`maptools_info.rs`: `package info`; `maptools_preview.rs`: `package genpreview`).

use clap::{Args, Subcommand};

/// `vitrine maptools`.
#[derive(Debug, Args)]
pub struct MaptoolsArgs {
    /// Verbose output (maptools' own flag): Vitrine's notes on standard error.
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// The group.
    #[command(subcommand)]
    pub command: Maptools,
}

/// maptools' groups.
#[derive(Debug, Subcommand)]
pub enum Maptools {
    /// A map package (a `.wz`, or its extracted folder).
    Package {
        /// The subcommand.
        #[command(subcommand)]
        command: Package,
    },
    /// maptools' commands on a bare map folder: not supported (refused).
    #[command(disable_help_flag = true)]
    Map {
        /// What maptools would take.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        rest: Vec<String>,
    },
}

/// `maptools package` subcommands.
#[derive(Debug, Subcommand)]
pub enum Package {
    /// Extract info / stats from a map package as JSON (the keys maptools writes; the map
    /// database validates them).
    Info(super::maptools_info::InfoArgs),
    /// Write a map's preview PNG: Vitrine's 3D picture of the map edge to edge (its
    /// background transparent), or with --2d maptools' flat-colour picture, one pixel
    /// per tile.
    Genpreview(super::maptools_preview::GenpreviewArgs),
    /// Convert a map package to another format: not supported (refused).
    #[command(disable_help_flag = true)]
    Convert {
        /// What maptools would take.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        rest: Vec<String>,
    },
}

/// Runs `vitrine maptools`; the exit status maptools would give (0, or 1 on failure).
pub fn run(args: &MaptoolsArgs) -> i32 {
    match &args.command {
        Maptools::Package {
            command: Package::Info(info),
        } => super::maptools_info::run(info, args.verbose),
        Maptools::Package {
            command: Package::Genpreview(preview),
        } => super::maptools_preview::run(preview),
        Maptools::Package {
            command: Package::Convert { .. },
        } => refuse("package convert"),
        Maptools::Map { .. } => refuse("map"),
    }
}

/// A maptools command Vitrine does not do: says so, exit 1.
fn refuse(command: &str) -> i32 {
    eprintln!(
        "vitrine maptools: `maptools {command}` is not supported by Vitrine (it writes no map \
         files); run maptools itself for it"
    );
    1
}
