//! Replays every committed fuzz input — `fuzz/regressions/<target>/*` (inputs that once
//! broke a loader, kept after the fix) and `fuzz/seeds/<target>/*` — through the same
//! checks the fuzz targets run (`vitrine::formats::fuzzing::run`), on the stable
//! toolchain, so a fixed finding stays fixed without nightly or cargo-fuzz.

use std::path::{Path, PathBuf};
use vitrine::formats::fuzzing::{Target, run};

fn inputs(kind: &str, target: Target) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target.name());
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
    for target in Target::ALL {
        for path in inputs(kind, target) {
            let bytes = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| run(target, &bytes));
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
    for target in Target::ALL {
        assert!(
            !inputs("seeds", target).is_empty(),
            "fuzz/seeds/{} is empty",
            target.name()
        );
    }
    replay("seeds");
}

/// Seeds that should load do: a seed set of rejected inputs would only fuzz the
/// error paths.
#[test]
fn every_target_has_a_seed_that_loads() {
    for target in Target::ALL {
        let loaded: usize = inputs("seeds", target)
            .iter()
            .map(|p| run(target, &std::fs::read(p).unwrap()).map_or(0, |o| o.loaded))
            .sum();
        assert!(loaded > 0, "no seed of {} loads a model", target.name());
    }
}
