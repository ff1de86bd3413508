//! Tells the tests whether the project's shared test data and a GPU adapter are there.
//!
//! Many integration tests read `../shared/corpus` (the game's models and the synthetic
//! corpora), which lives beside the checkout and not in it. Without it this script sets
//! the cfg `vitrine_no_shared`; without a GPU adapter (crates/build-probe) the cfg
//! `vitrine_no_gpu`. The tests that need them are marked `#[vitrine_test(shared)]`,
//! `#[vitrine_test(gpu)]` or both (crates/test-needs), so `cargo test` lists them as
//! ignored with the reason and counts them, instead of passing them silently.
//! `VITRINE_SHARED` points elsewhere; `VITRINE_REQUIRE_SHARED=1` and
//! `VITRINE_REQUIRE_GPU=1` (CI) make an absence a build error. The corpus half is
//! `vitrine_test_needs::shared_cfg`, which `crates/core`'s build script calls too.
//! Without Warzone 2100 installed, `vitrine_no_game` (`vitrine_test_needs::game_cfg`;
//! `VITRINE_REQUIRE_GAME=1` makes it a build error). Without Python 3 and its
//! `license_expression` (the map database's validator), `vitrine_no_mapdb`
//! (`vitrine_test_needs::mapdb_cfg`; `VITRINE_REQUIRE_MAPDB=1` makes it a build error).
//! Also names the commit and day of the build for `vitrine --version` (`build_stamp`), and
//! gives the Windows program its icon and version resource (`windows_resource`).

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    vitrine_build_probe::gpu_cfg();
    vitrine_test_needs::shared_cfg();
    vitrine_test_needs::game_cfg();
    vitrine_test_needs::mapdb_cfg();
    let commit = vitrine_build_probe::build_stamp();
    windows_resource(&commit);
}

/// For a Windows target: the icon Explorer and the taskbar show (`assets/icon/vitrine.ico`,
/// made from `vitrine-256.png`) and the version resource (File ▸ Properties ▸ Details),
/// compiled by windres — mingw-w64's `x86_64-w64-mingw32-windres` when cross-compiling.
fn windows_resource(commit: &str) {
    println!("cargo::rerun-if-changed=assets/icon/vitrine.ico");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let mut res = winresource::WindowsResource::new();
    res.set_icon("assets/icon/vitrine.ico")
        .set("ProductName", "Vitrine")
        .set(
            "FileDescription",
            "Vitrine, a viewer for retro game 3D models and maps",
        )
        .set("CompanyName", "The Vitrine authors")
        .set("LegalCopyright", "MIT OR Apache-2.0")
        .set("OriginalFilename", "vitrine.exe")
        .set("InternalName", "vitrine");
    res.set("ProductVersion", &format!("{version} ({commit})"));
    if let Err(e) = res.compile() {
        // A Windows build without its resource would ship without an icon: stop.
        panic!(
            "windows resource (icon, version): {e}; install mingw-w64 (x86_64-w64-mingw32-windres)"
        );
    }
}
