//! `crates/app/wasm32/clippy.toml` (the app's wasm32 lints, given to clippy through
//! CLIPPY_CONF_DIR) replaces `crates/clippy.toml` (the library crates' lints: no file
//! system, no threads) rather than adding to it, so it repeats that list; this keeps the
//! two the same.

const CRATES: &str = include_str!("../../clippy.toml");
const WASM32: &str = include_str!("../wasm32/clippy.toml");

/// The `path = "..."` of each disallowed method in a clippy.toml.
fn paths(toml: &str) -> Vec<&str> {
    toml.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_once("path = \"")?.1.split_once('"'))
        .map(|(path, _)| path)
        .collect()
}

#[test]
fn the_wasm32_lints_include_the_crates_lints() {
    let crates = paths(CRATES);
    for wanted in [
        "std::thread::scope",
        "std::thread::spawn",
        "std::fs::canonicalize",
        "std::fs::write",
    ] {
        assert!(crates.contains(&wanted), "crates/clippy.toml bans {wanted}");
    }
    let wasm32 = paths(WASM32);
    let missing: Vec<_> = crates.iter().filter(|p| !wasm32.contains(p)).collect();
    assert!(
        missing.is_empty(),
        "crates/app/wasm32/clippy.toml lacks {missing:?}"
    );
    assert!(
        wasm32.contains(&"std::time::Instant::now"),
        "and bans std's clock"
    );
}
