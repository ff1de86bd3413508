//! The panic hook for real: a child process installs it, records the file it is
//! processing and panics; the parent checks what the user sees on standard error (the
//! file, where the report went) and the report in the config folder (version, OS, GPU
//! adapter, file, panic message, backtrace). A plain `main` (no test harness): the
//! panic must happen in a process of its own.

use std::process::Command;

fn child() {
    vitrine::crash::install_hook();
    vitrine::crash::set_adapter("llvmpipe (Vulkan, Cpu)");
    let _processing = vitrine::crash::processing("mods/tank.wz!/components/bodies/body5.pie");
    let parts: Vec<u32> = Vec::new();
    // An out-of-bounds index, as a loader bug would make.
    let i = std::hint::black_box(7);
    println!("{}", parts[i]);
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--child") {
        child();
        return;
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
}
