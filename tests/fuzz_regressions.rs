//! Replays every committed fuzz input — `fuzz/regressions/<target>/*` (inputs that once
//! broke a loader, kept after the fix) and `fuzz/seeds/<target>/*` — through the same
//! checks the fuzz targets run (`vitrine::formats::fuzzing::run`), on the stable
//! toolchain, so a fixed finding stays fixed without nightly or cargo-fuzz.

use std::path::{Path, PathBuf};
use vitrine::formats::fuzzing::{Outcome, Target, run};

/// A fuzz target's checks on one input.
type Check = Box<dyn Fn(&[u8]) -> Result<Outcome, String> + std::panic::RefUnwindSafe>;

/// Every fuzz target: its name (folder) and the checks it runs. The loader targets are
/// `formats::fuzzing`'s; `check` is `vitrine check` on one file (`check::fuzzing`).
fn targets() -> Vec<(&'static str, Check)> {
    let mut out: Vec<(&'static str, Check)> = Target::ALL
        .into_iter()
        .map(|t| (t.name(), Box::new(move |d: &[u8]| run(t, d)) as Check))
        .collect();
    out.push(("check", Box::new(vitrine::check::fuzzing::run)));
    out
}

fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    files.sort();
    files
}

fn replay(kind: &str) -> usize {
    let mut count = 0;
    let mut findings = Vec::new();
    for (target, check) in targets() {
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
    let n = replay("regressions");
    println!("{n} regression inputs replayed");
}

#[test]
fn committed_seeds_pass_every_check_and_every_target_has_some() {
    for (target, _) in targets() {
        assert!(
            !inputs("seeds", target).is_empty(),
            "fuzz/seeds/{target} is empty"
        );
    }
    replay("seeds");
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
