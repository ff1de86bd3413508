//! The panic hook for real: a child process installs it, records the file it is
//! processing and panics; the parent checks what the user sees on standard error (the
//! file, where the report went) and the report in the config folder (version, OS, GPU
//! adapter, file, panic message, backtrace); and, as a subcommand sets it, that the
//! report is printed on standard error and nothing is written in the config folder. A
//! plain `main` (no test harness): the panic must happen in a process of its own.

use std::process::Command;

fn child(on_standard_error: bool) {
    vitrine::crash::install_hook();
    if on_standard_error {
        vitrine::crash::report_on_standard_error();
    }
    vitrine::crash::set_adapter("llvmpipe (Vulkan, Cpu)");
    let _processing = vitrine::crash::processing("mods/tank.wz!/components/bodies/body5.pie");
    let parts: Vec<u32> = Vec::new();
    // An out-of-bounds index, as a loader bug would make.
    let i = std::hint::black_box(7);
    println!("{}", parts[i]);
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("--child") => return child(false),
        Some("--child-subcommand") => return child(true),
        _ => {}
    }
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .arg("--child")
        .env("VITRINE_CONFIG_DIR", dir.path())
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the child panicked: {stderr}");
    let report_path = dir.path().join("crash-1.txt");
    let line = format!(
        "vitrine: panic while processing mods/tank.wz!/components/bodies/body5.pie; crash \
         report written to {}",
        report_path.display()
    );
    assert!(
        stderr.contains(&line),
        "stderr names the file and the report:\n{stderr}"
    );
    let report = std::fs::read_to_string(&report_path).expect("the report was written");
    for want in [
        &format!("version: {}", env!("CARGO_PKG_VERSION")),
        &format!("os: {}", std::env::consts::OS),
        "gpu adapter: llvmpipe (Vulkan, Cpu)",
        "file being opened: mods/tank.wz!/components/bodies/body5.pie",
        "panic: index out of bounds",
        "at: tests/crash_report.rs",
        "backtrace:",
        "crash_report::child",
    ] {
        assert!(report.contains(want), "report lacks {want:?}:\n{report}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "only the report, no temporary file");
    println!("crash report: ok ({} bytes)", report.len());
    subcommand_prints_its_report();
}

/// A subcommand's panic: the report on standard error, nothing in the config folder.
fn subcommand_prints_its_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .arg("--child-subcommand")
        .env("VITRINE_CONFIG_DIR", dir.path())
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the child panicked: {stderr}");
    for want in [
        "vitrine: panic while processing mods/tank.wz!/components/bodies/body5.pie; the crash \
         report (please attach it to a bug report):",
        &format!("version: {}", env!("CARGO_PKG_VERSION")),
        "panic: index out of bounds",
        "backtrace:",
    ] {
        assert!(stderr.contains(want), "stderr lacks {want:?}:\n{stderr}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "nothing in the config folder: {left:?}");
    println!("crash report of a subcommand: ok (standard error only)");
}
