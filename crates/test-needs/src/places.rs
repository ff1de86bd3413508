//! Where the tests' data is, the same from every package of the workspace: the shared
//! corpus (`../shared` beside the checkout, or `$VITRINE_SHARED`), the committed fixtures
//! (`tests/fixtures`) and fuzz inputs (`fuzz/`). A package's own folder is not the
//! workspace's (`crates/core` is two levels down), so these are found from this crate's
//! place in the workspace, not from the calling package's `CARGO_MANIFEST_DIR`.

#![allow(
    clippy::disallowed_methods,
    reason = "finding the tests' data is reading the disk (crates/clippy.toml bans it in the \
              library crates); this crate is only a dev- and build-dependency"
)]

use crate::{Need, require};
use std::path::{Path, PathBuf};

/// The workspace's root folder (this crate is `crates/test-needs` in it).
pub fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .expect("crates/test-needs is two levels below the workspace root")
}

/// The committed fixtures, `tests/fixtures` at the workspace root.
pub fn fixtures() -> PathBuf {
    workspace().join("tests/fixtures")
}

/// Where the shared test data is looked for, by the build scripts ([`shared_cfg`]) and
/// the tests alike: `$VITRINE_SHARED` (a relative one from the workspace root), else
/// `../shared` beside the workspace.
pub fn shared_path() -> PathBuf {
    match std::env::var_os("VITRINE_SHARED") {
        Some(dir) => workspace().join(dir),
        None => workspace().parent().map_or_else(
            || workspace().join("../shared"),
            |beside| beside.join("shared"),
        ),
    }
}

/// The project's shared test data (`../shared` beside the checkout, or `$VITRINE_SHARED`).
///
/// Only for a test marked `#[vitrine_test(shared)]` (directly or through [`wz2100`] /
/// [`synthetic`]): it panics in any other, on every machine, so a test that needs the
/// corpus cannot be written without saying so. The package's build script
/// ([`shared_cfg`]) sets `vitrine_no_shared` when the corpus is absent, and libtest then
/// reports the marked tests as ignored with that reason. So a test that runs has it: this
/// panics when the corpus is absent after all — a marked test run with `--ignored`, or a
/// corpus removed since the build.
#[track_caller]
pub fn shared_dir() -> PathBuf {
    require(Need::Shared, "the shared corpus");
    let dir = shared_path();
    if dir.join("corpus").is_dir() {
        return dir;
    }
    panic!(
        "{} has no corpus/: a test that needs it is reported as ignored when the build \
         finds none (run it with --ignored only where it is present); if it was there when \
         the tests were built, put it back, or `touch build.rs` of the package under test so \
         the tests that need it are reported as ignored",
        dir.display()
    );
}

/// `../shared/corpus/wz2100` (see [`shared_dir`]).
#[track_caller]
pub fn wz2100() -> PathBuf {
    shared_dir().join("corpus/wz2100")
}

/// `../shared/corpus/synthetic` (see [`shared_dir`]).
#[track_caller]
pub fn synthetic() -> PathBuf {
    shared_dir().join("corpus/synthetic")
}

/// The synthetic corpus's `MANIFEST.json` (the facts a correct loader must report).
pub fn manifest(synthetic: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(synthetic.join("MANIFEST.json")).expect("MANIFEST.json");
    serde_json::from_str(&text).expect("MANIFEST.json parses")
}

/// A vector of the manifest (`[x, y, z]`), as the tests compare it with a model's.
pub fn manifest_xyz(v: &serde_json::Value) -> [f32; 3] {
    let a = v.as_array().unwrap_or_else(|| panic!("not a vector: {v}"));
    assert_eq!(a.len(), 3, "not an [x, y, z] vector: {v}");
    let f = |i: usize| a[i].as_f64().unwrap_or_else(|| panic!("not a number: {v}")) as f32;
    [f(0), f(1), f(2)]
}

/// A fresh temporary folder (`tag` names the test), removed when dropped — also when the
/// test panics.
pub fn temp_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("vitrine-{tag}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// For a build script of a package whose tests use `#[vitrine_test(shared)]`: sets the cfg
/// `vitrine_no_shared` when `corpus/` is not in [`shared_path`] (with a warning), so those
/// tests are reported as ignored with the reason; with `VITRINE_REQUIRE_SHARED=1` (CI) an
/// absent corpus fails the build instead.
pub fn shared_cfg() {
    println!("cargo::rustc-check-cfg=cfg(vitrine_no_shared)");
    println!("cargo::rerun-if-env-changed=VITRINE_SHARED");
    println!("cargo::rerun-if-env-changed=VITRINE_REQUIRE_SHARED");
    let corpus = shared_path().join("corpus");
    if corpus.is_dir() {
        // Watched while it exists (cargo compares the files' times), so removing it
        // reruns the script; a missing path is not watched, as cargo would rerun the
        // script, and rebuild the package, on every build.
        println!("cargo::rerun-if-changed={}", corpus.display());
        return;
    }
    if std::env::var("VITRINE_REQUIRE_SHARED").as_deref() == Ok("1") {
        eprintln!(
            "error: VITRINE_REQUIRE_SHARED=1 but {} is not a folder (set VITRINE_SHARED to the \
             shared/ folder, or unset VITRINE_REQUIRE_SHARED to skip the tests that need it)",
            corpus.display()
        );
        std::process::exit(1);
    }
    println!("cargo::rustc-cfg=vitrine_no_shared");
    println!(
        "cargo::warning={} not found: the tests that need it are reported as ignored \
         (after adding it, `touch build.rs` to run them)",
        corpus.display()
    );
}

/// Where the installed Warzone 2100 is looked for: its data folder (`$WZ_DATA`, else
/// `/usr/share/games/warzone2100`, Debian's `warzone2100-data`) and its program
/// (`$WZ_BIN`, else `/usr/games/warzone2100`).
fn game_paths() -> (PathBuf, PathBuf) {
    let data = std::env::var_os("WZ_DATA").map_or_else(
        || PathBuf::from("/usr/share/games/warzone2100"),
        PathBuf::from,
    );
    let bin = std::env::var_os("WZ_BIN")
        .map_or_else(|| PathBuf::from("/usr/games/warzone2100"), PathBuf::from);
    (data, bin)
}

/// Whether the game is installed: `base.wz` and `mp.wz` in its data folder, and its program.
fn game_present() -> bool {
    let (data, bin) = game_paths();
    ["base.wz", "mp.wz"].iter().all(|f| data.join(f).is_file()) && bin.is_file()
}

/// For a build script of a package whose tests use `#[vitrine_test(game)]`: sets the cfg
/// `vitrine_no_game` when Warzone 2100 is not installed (with a warning), so those tests
/// are reported as ignored with the reason; with `VITRINE_REQUIRE_GAME=1` (CI) its absence
/// fails the build instead.
pub fn game_cfg() {
    println!("cargo::rustc-check-cfg=cfg(vitrine_no_game)");
    for var in ["WZ_DATA", "WZ_BIN", "VITRINE_REQUIRE_GAME"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let (data, bin) = game_paths();
    if game_present() {
        println!("cargo::rerun-if-changed={}", data.display());
        println!("cargo::rerun-if-changed={}", bin.display());
        return;
    }
    if std::env::var("VITRINE_REQUIRE_GAME").as_deref() == Ok("1") {
        eprintln!(
            "error: VITRINE_REQUIRE_GAME=1 but Warzone 2100 is not installed ({} with base.wz \
             and mp.wz, and {}; set WZ_DATA and WZ_BIN, or apt-get install warzone2100)",
            data.display(),
            bin.display()
        );
        std::process::exit(1);
    }
    println!("cargo::rustc-cfg=vitrine_no_game");
    println!(
        "cargo::warning=Warzone 2100 is not installed ({}, {}): the tests that need it are \
         reported as ignored (after installing it, `touch build.rs` to run them)",
        data.display(),
        bin.display()
    );
}

/// The installed game's data folder (`base.wz`, `mp.wz`). Only for a test marked
/// `#[vitrine_test(game)]` (it panics in any other); the build reports such tests as
/// ignored where the game is absent ([`game_cfg`]), so this panics only when the game
/// went away after the build.
#[track_caller]
pub fn game_data() -> PathBuf {
    installed_game().0
}

/// The installed game's program (see [`game_data`]).
#[track_caller]
pub fn game_bin() -> PathBuf {
    installed_game().1
}

/// [`game_paths`] for a test that declared the game, which must still be there.
#[track_caller]
fn installed_game() -> (PathBuf, PathBuf) {
    require(Need::Game, "the installed Warzone 2100");
    assert!(
        game_present(),
        "Warzone 2100 is no longer installed since the build"
    );
    game_paths()
}

/// The mutation tests' random numbers: seeded, so a failing variant is the same on every
/// run and machine.
#[derive(Debug)]
pub struct Rng(fastrand::Rng);

impl Rng {
    /// A generator that always yields the same sequence for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(fastrand::Rng::with_seed(seed))
    }

    /// Any `u64`.
    #[allow(
        clippy::should_implement_trait,
        reason = "the mutation tests' one call, not an iterator"
    )]
    pub fn next(&mut self) -> u64 {
        self.0.u64(..)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.usize(..n) }
    }
}

/// The Python the map database's validator runs with: `$VITRINE_PYTHON`, else `python3`.
fn python() -> std::ffi::OsString {
    std::env::var_os("VITRINE_PYTHON").unwrap_or_else(|| "python3".into())
}

/// Whether Python runs and imports `license_expression` (what `validate.py` needs), or
/// why not.
fn mapdb_present() -> Result<(), String> {
    let out = std::process::Command::new(python())
        .args(["-c", "import license_expression"])
        .output()
        .map_err(|e| format!("{}: {e}", python().to_string_lossy()))?;
    if out.status.success() {
        return Ok(());
    }
    Err(String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()
        .unwrap_or("python3 -c 'import license_expression' failed")
        .to_string())
}

/// For a build script of a package whose tests use `#[vitrine_test(mapdb)]`: sets the cfg
/// `vitrine_no_mapdb` when Python 3 with `license_expression` is not there (with a
/// warning), so those tests are reported as ignored with the reason; with
/// `VITRINE_REQUIRE_MAPDB=1` (CI) its absence fails the build instead.
pub fn mapdb_cfg() {
    println!("cargo::rustc-check-cfg=cfg(vitrine_no_mapdb)");
    for var in ["VITRINE_PYTHON", "VITRINE_REQUIRE_MAPDB"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let Err(why) = mapdb_present() else {
        return;
    };
    if std::env::var("VITRINE_REQUIRE_MAPDB").as_deref() == Ok("1") {
        eprintln!(
            "error: VITRINE_REQUIRE_MAPDB=1 but the map database's validator cannot run ({why}; \
             pip install license_expression==30.4.4)"
        );
        std::process::exit(1);
    }
    println!("cargo::rustc-cfg=vitrine_no_mapdb");
    println!(
        "cargo::warning=the map database's validator cannot run ({why}): the tests that need \
         it are reported as ignored (after pip install license_expression==30.4.4, `touch \
         build.rs` to run them)"
    );
}

/// The map database's validator (`../shared/tools/mapdb/validate.py`) and the Python
/// to run it with. Only for a test marked `#[vitrine_test(shared, mapdb)]`.
#[track_caller]
pub fn mapdb_validator() -> (std::ffi::OsString, PathBuf) {
    require(Need::Mapdb, "the map database's validator");
    let script = shared_dir().join("tools/mapdb/validate.py");
    (python(), script)
}
