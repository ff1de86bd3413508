//! Replays every committed fuzz input — `fuzz/regressions/<target>/*` (inputs that once
//! broke a loader, kept after the fix) and `fuzz/seeds/<target>/*` — through the same
//! checks the fuzz targets run (`vitrine_core::formats::fuzzing::run`), on the stable
//! toolchain, so a fixed finding stays fixed without nightly or cargo-fuzz.

use crate::common;

use std::path::PathBuf;
use vitrine_core::formats::fuzzing::{Outcome, Target, run};

/// A fuzz target's checks on one input.
type Check = Box<dyn Fn(&[u8]) -> Result<Outcome, String> + std::panic::RefUnwindSafe>;

/// Every fuzz target: its name (folder) and the checks it runs. The loader targets are
/// `formats::fuzzing`'s; `check` is `vitrine check` on one file (`check::fuzzing`).
fn targets() -> Vec<(&'static str, Check)> {
    let mut out: Vec<(&'static str, Check)> = Target::ALL
        .into_iter()
        .map(|t| (t.name(), Box::new(move |d: &[u8]| run(t, d)) as Check))
        .collect();
    out.push(("check", Box::new(vitrine_core::check::fuzzing::run)));
    out.push(("map", Box::new(vitrine_core::map::fuzzing::run)));
    out.push(("script", Box::new(vitrine_core::map::fuzzing::run_script)));
    out
}

/// `fuzz/<kind>` (`regressions` or `seeds`).
fn folder(kind: &str) -> PathBuf {
    common::workspace().join("fuzz").join(kind)
}

/// The inputs in `fuzz/<kind>/<target>`, sorted; panics when the folder is missing,
/// unreadable or has no input (a replay of nothing would pass without checking anything).
fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = folder(kind).join(target);
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("fuzz/{kind}/{target}: {e} ({})", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|e| {
            e.unwrap_or_else(|e| panic!("fuzz/{kind}/{target}: {e}"))
                .path()
        })
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    assert!(!files.is_empty(), "fuzz/{kind}/{target} has no input");
    files.sort();
    files
}

/// The targets that have a folder in `fuzz/<kind>`; panics when `fuzz/<kind>` is missing
/// or holds no folder, and on a folder named after no target (its inputs would never be
/// replayed).
fn folders(kind: &str) -> Vec<&'static str> {
    let dir = folder(kind);
    let known = targets();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("fuzz/{kind}: {e}")) {
        let path = entry.unwrap_or_else(|e| panic!("fuzz/{kind}: {e}")).path();
        if !path.is_dir() {
            continue;
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let target = known
            .iter()
            .map(|(t, _)| *t)
            .find(|t| *t == name)
            .unwrap_or_else(|| {
                let list: Vec<&str> = known.iter().map(|(t, _)| *t).collect();
                panic!("fuzz/{kind}/{name} is named after no fuzz target ({list:?})")
            });
        names.push(target);
    }
    assert!(!names.is_empty(), "fuzz/{kind} has no target folder");
    names.sort();
    names
}

/// Replays every input of `fuzz/<kind>/<target>` for each target in `only`; returns how
/// many inputs ran.
fn replay(kind: &str, only: &[&str]) -> usize {
    let mut count = 0;
    let mut findings = Vec::new();
    for (target, check) in targets().iter().filter(|(t, _)| only.contains(t)) {
        for path in inputs(kind, target) {
            let bytes = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&bytes));
            match outcome {
                Ok(Ok(_)) => {}
                Ok(Err(finding)) => findings.push(format!("{}: {finding}", path.display())),
                Err(_) => findings.push(format!("{}: panicked", path.display())),
            }
            count += 1;
        }
    }
    assert!(findings.is_empty(), "{}", findings.join("\n"));
    count
}

#[test]
fn committed_regression_inputs_pass_every_check() {
    let targets = folders("regressions");
    let n = replay("regressions", &targets);
    println!("{n} regression inputs of {targets:?} replayed");
}

#[test]
fn committed_seeds_pass_every_check_and_every_target_has_some() {
    let all: Vec<&str> = targets().iter().map(|(t, _)| *t).collect();
    // Every target has a seed folder with inputs, and no folder is named after nothing.
    assert_eq!(folders("seeds"), {
        let mut sorted = all.clone();
        sorted.sort();
        sorted
    });
    let n = replay("seeds", &all);
    println!("{n} seeds replayed");
}

/// Seeds that should load do: a seed set of rejected inputs would only fuzz the
/// error paths.
#[test]
fn every_target_has_a_seed_that_loads() {
    for (target, check) in targets() {
        let loaded: usize = inputs("seeds", target)
            .iter()
            .map(|p| check(&std::fs::read(p).unwrap()).map_or(0, |o| o.loaded))
            .sum();
        assert!(loaded > 0, "no seed of {target} loads a model");
    }
}
