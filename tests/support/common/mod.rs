//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod image_diff;

use std::path::PathBuf;

/// The mutation tests' random numbers: seeded, so a failing variant is the same on every
/// run and machine.
pub struct Rng(fastrand::Rng);

impl Rng {
    /// A generator that always yields the same sequence for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(fastrand::Rng::with_seed(seed))
    }

    /// Any `u64`.
    pub fn next(&mut self) -> u64 {
        self.0.u64(..)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.usize(..n) }
    }
}

/// A fresh temporary folder (`tag` names the test), removed when dropped — also when the
/// test panics.
pub fn temp_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("vitrine-{tag}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// The project's shared test data (`../shared` beside the checkout, or `$VITRINE_SHARED`).
///
/// Only for a test marked `#[vitrine_test(shared)]` (directly or through [`wz2100`] /
/// [`synthetic`]): it panics in any other, on every machine, so a test that needs the
/// corpus cannot be written without saying so. The build script sets `vitrine_no_shared`
/// when the corpus is absent, and libtest then reports the marked tests as ignored with
/// that reason. So this never returns `None` (the `Option` is kept for the callers'
/// `let Some(..) else`); it panics when the corpus is absent after all — a marked test
/// run with `--ignored`, or a corpus removed since the build.
#[track_caller]
pub fn shared_dir() -> Option<PathBuf> {
    vitrine_test_needs::require(vitrine_test_needs::Need::Shared, "the shared corpus");
    let dir = shared_path();
    if dir.join("corpus").is_dir() {
        return Some(dir);
    }
    if cfg!(vitrine_no_shared) {
        panic!(
            "{} has no corpus/ (this test is ignored without it; run with --ignored only \
             where it is present)",
            dir.display()
        );
    }
    panic!(
        "{} has no corpus/, but it had when the tests were built: put it back, or \
         `touch build.rs` so the tests that need it are reported as ignored",
        dir.display()
    );
}

/// Where the shared test data is looked for (the build script looks in the same place).
pub fn shared_path() -> PathBuf {
    std::env::var_os("VITRINE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

/// `../shared/corpus/wz2100` if present.
pub fn wz2100() -> Option<PathBuf> {
    shared_dir().map(|d| d.join("corpus/wz2100"))
}

/// `../shared/corpus/synthetic` if present.
pub fn synthetic() -> Option<PathBuf> {
    shared_dir().map(|d| d.join("corpus/synthetic"))
}

/// This project's own fixtures folder (`tests/fixtures`).
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The synthetic corpus's `MANIFEST.json` (the facts a correct loader must report).
pub fn manifest(synthetic: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(synthetic.join("MANIFEST.json")).expect("MANIFEST.json");
    serde_json::from_str(&text).expect("MANIFEST.json parses")
}

/// `bad/<name>` of every file in the synthetic corpus's `bad/` folder whose name starts
/// with `prefix` (`"pmf_"`), sorted.
pub fn bad_files_on_disk(synthetic: &std::path::Path, prefix: &str) -> Vec<String> {
    let mut on_disk: Vec<String> = std::fs::read_dir(synthetic.join("bad"))
        .expect("bad/")
        .flatten()
        .map(|e| format!("bad/{}", e.file_name().to_string_lossy()))
        .filter(|n| n.starts_with(&format!("bad/{prefix}")))
        .collect();
    on_disk.sort();
    on_disk
}

/// Every model file under `dir` (sorted, through the app's one folder walk); panics if the
/// walk reports an error.
pub fn model_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let walk = vitrine::files::walk::walk(&[dir.to_path_buf()], vitrine::formats::is_model_name);
    assert!(walk.errors.is_empty(), "{:?}", walk.errors);
    walk.files
        .into_iter()
        .map(|f| f.as_disk().expect("a loose file").to_path_buf())
        .collect()
}

/// A headless GPU device, for a test marked `#[vitrine_test(gpu)]`: it panics in any
/// other test (on every machine), and when there is no adapter — such a test is reported
/// as ignored where the build found none, so reaching this without one means the
/// adapter went away since the build, the probe and wgpu disagree, or the test was run
/// with `--ignored`; never a silent pass.
#[track_caller]
pub fn gpu() -> vitrine::render::Gpu {
    needs_gpu();
    vitrine::render::Gpu::headless().unwrap_or_else(|e| panic!("{}", no_adapter(&e.to_string())))
}

/// For a test that reaches a GPU some other way (a `vitrine` child process, the window):
/// panics unless it is marked `#[vitrine_test(gpu)]`.
#[track_caller]
pub fn needs_gpu() {
    vitrine_test_needs::require(vitrine_test_needs::Need::Gpu, "a GPU adapter");
}

/// A `vitrine` run that exited with the no-GPU code (3): a failure, naming the attribute
/// when the test did not declare the GPU.
#[track_caller]
pub fn no_gpu(output: &str) -> ! {
    needs_gpu();
    panic!("{}", no_adapter(&format!("`vitrine` found none: {output}")))
}

/// Why a test that declared `gpu` found no adapter.
pub fn no_adapter(why: &str) -> String {
    if cfg!(vitrine_no_gpu) {
        format!(
            "no GPU adapter ({why}); this test is ignored without one, run it with --ignored only where there is one"
        )
    } else {
        format!(
            "no GPU adapter ({why}), but the build found one: the driver went away since \
             the build (`touch build.rs` to probe again), or wgpu refuses what the probe \
             accepted (crates/build-probe)"
        )
    }
}
