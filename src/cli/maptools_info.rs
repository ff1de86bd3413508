//! `vitrine maptools package info [--map-seed N] MAP [-o OUT.json]`: the JSON `maptools
//! package info` writes of a map package ([`vitrine_core::map::package_info`]), on
//! standard output or into OUT (then "Wrote output JSON to: OUT" on standard output, as
//! maptools says it). Nothing on standard error unless it fails or `--verbose` is given:
//! the map database counts every line maptools writes there as an error.

use crate::files::{self, FileRef};
use clap::Args;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use vitrine_core::map::{self, package_info};
use vitrine_core::wz::Stats;

/// Arguments of `maptools package info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Input map package (.wz package, or extracted package folder).
    #[arg(value_name = "INPUT", required_unless_present = "input_option")]
    pub input: Option<PathBuf>,
    /// Input map package (as the positional INPUT).
    #[arg(
        short = 'i',
        long = "input",
        value_name = "INPUT",
        conflicts_with = "input"
    )]
    pub input_option: Option<PathBuf>,
    /// Output filename (+ path), ending in .json; without it the JSON goes to standard
    /// output.
    #[arg(short, long, value_name = "OUT.json")]
    pub output: Option<PathBuf>,
    /// The seed a script-generated map (game.js) runs with (maptools draws one at random
    /// without it; Vitrine uses std::mt19937's default, 5489; the map database passes 0).
    #[arg(long = "map-seed", value_name = "N")]
    pub map_seed: Option<u32>,
    /// Data roots whose stats say what each structure is (`structure.json`'s `type`;
    /// needed for `defenseStructures`); default: the installed Warzone 2100.
    #[arg(long = "data", value_name = "PATH")]
    pub data: Vec<PathBuf>,
}

/// The JSON of the package at `input`, and Vitrine's notes (data roots missing).
fn info_json(
    input: &Path,
    seed: Option<u32>,
    data: &[PathBuf],
) -> Result<(String, Vec<String>), String> {
    let disk = files::disk();
    let at: FileRef = files::parse(input);
    let mut levels = map::find_maps(disk, &at).map_err(|e| e.to_string())?;
    let folders: BTreeSet<&FileRef> = levels.iter().map(|l| &l.folder).collect();
    if folders.len() > 1 {
        return Err(format!(
            "{}: {} maps in one package: multi-map packs are not supported",
            at,
            folders.len()
        ));
    }
    let mut level = levels.swap_remove(0);
    level.ask_seed(seed);
    let opened = map::open(disk, &level).map_err(|e| e.to_string())?;
    let roots = super::map_info::roots_for(&at, data);
    let mut notes = Vec::new();
    if roots.is_empty() {
        notes.push(
            "no Warzone 2100 data found (--data mp.wz --data base.wz): defenseStructures \
             counts no defence"
                .to_string(),
        );
    }
    let (stats, _warnings) = Stats::load(disk, &roots);
    let info =
        package_info::package_info(disk, &level, &opened, &stats).map_err(|e| e.to_string())?;
    Ok((info.to_json(), notes))
}

/// Runs `maptools package info`; 0, or 1 with the reason on standard error.
pub fn run(args: &InfoArgs, verbose: bool) -> i32 {
    let Some(input) = args.input.as_ref().or(args.input_option.as_ref()) else {
        eprintln!("vitrine maptools package info: an input map package is required");
        return 1;
    };
    if let Some(out) = &args.output
        && !out
            .to_string_lossy()
            .to_ascii_lowercase()
            .ends_with(".json")
    {
        eprintln!("--output: {} does not end in .json", out.display());
        return 1;
    }
    let result = super::catch_per_file(&files::parse(input), || {
        info_json(input, args.map_seed, &args.data)
    });
    let (json, notes) = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "Failed to calculate map info / stats from: {}: {e}",
                input.display()
            );
            return 1;
        }
    };
    if verbose {
        for n in &notes {
            eprintln!("INFO: {n}");
        }
    }
    match &args.output {
        None => {
            println!("{json}");
            0
        }
        Some(out) => match files::atomic::write(out, json.as_bytes()) {
            Ok(()) => {
                println!("Wrote output JSON to: {}", out.display());
                0
            }
            Err(e) => {
                eprintln!("Failed to output JSON to: {}: {e}", out.display());
                1
            }
        },
    }
}
