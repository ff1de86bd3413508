//! Crash reports: a panic hook that writes what a bug report needs — Vitrine's version,
//! the OS, the GPU adapter, the file being opened, the panic message and a backtrace — to
//! `crash-<n>.txt` in the config folder ([`crate::files::folders::config_dir`]), through
//! [`crate::files::atomic`], and tells the user on standard error which file was being
//! processed and where the report is. The window offers to show a report it has not shown
//! yet on its next start ([`unseen_reports`], [`mark_seen`]).
//!
//! A subcommand (`vitrine render`, `info`, `check`, `thumbnail`, …) writes nothing but the
//! output it is given ([`report_on_standard_error`]): its report is printed on standard
//! error, where its user (or the file manager's log) reads it, and no file appears in the
//! config folder (issue 46: a hostile map made `render` write under `~/.config`).
//!
//! What the hook knows comes from [`set_adapter`] (the renderer, once it has a device) and
//! [`processing`] (a guard the CLI and the loaders hold while a file is read; per thread,
//! so a panic in a loader thread names that thread's file): both kept by
//! `vitrine_core::crash`, so the loaders and the renderer record them without knowing
//! of the hook.

use crate::files::{self, EntryKind, FileRef, atomic};
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

pub use vitrine_core::crash::{
    Processing, adapter, current_file, payload_text, processing, set_adapter,
};

/// Stem of the report files (`crash-1.txt`, `crash-2.txt`, …).
pub const REPORT_STEM: &str = "crash";
/// Records the newest report the user has been offered.
const SEEN_FILE: &str = "crash-seen";

static INSTALL: Once = Once::new();

/// Whether the hook prints its report on standard error instead of writing a file
/// ([`report_on_standard_error`]).
static ON_STANDARD_ERROR: AtomicBool = AtomicBool::new(false);

/// From now on, the hook prints its report on standard error and writes no file: what
/// every subcommand asks, so that it writes nothing outside the output it is given.
pub fn report_on_standard_error() {
    ON_STANDARD_ERROR.store(true, Ordering::Relaxed);
}

/// The text of a crash report.
pub fn report(message: &str, location: Option<String>, backtrace: &str) -> String {
    let adapter = adapter().unwrap_or_else(|| "none yet (no GPU device was created)".to_string());
    let thread = std::thread::current();
    format!(
        "Vitrine crash report\n\
         \n\
         version: {}\n\
         os: {} {} ({})\n\
         gpu adapter: {adapter}\n\
         file being opened: {}\n\
         thread: {}\n\
         panic: {message}\n\
         at: {}\n\
         \n\
         backtrace:\n{backtrace}\n",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::OS,
        std::env::consts::ARCH,
        std::env::consts::FAMILY,
        current_file().unwrap_or_else(|| "none".to_string()),
        thread.name().unwrap_or("unnamed"),
        location.unwrap_or_else(|| "unknown".to_string()),
    )
}

fn panic_message(info: &std::panic::PanicHookInfo<'_>) -> String {
    payload_text(info.payload()).unwrap_or_else(|| "(no message)".to_string())
}

/// Writes `text` as the next `crash-<n>.txt` in `dir` (created if needed).
pub fn write_report(dir: &Path, text: &str) -> std::io::Result<PathBuf> {
    atomic::write_numbered(dir, REPORT_STEM, "txt", text.as_bytes())
}

/// Installs the panic hook (once; later calls do nothing). The previous hook still runs
/// first, so the usual message reaches standard error; then the report is written to
/// [`crate::files::folders::config_dir`] (if there is one) and one line says where, and
/// which file was being processed (after [`report_on_standard_error`]: the report is
/// printed there instead).
pub fn install_hook() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            let backtrace = std::backtrace::Backtrace::force_capture().to_string();
            let location = info.location().map(|l| l.to_string());
            let text = report(&panic_message(info), location, &backtrace);
            let file = current_file();
            let what = match &file {
                Some(f) => format!("vitrine: panic while processing {f}"),
                None => "vitrine: panic".to_string(),
            };
            if ON_STANDARD_ERROR.load(Ordering::Relaxed) {
                eprintln!("{what}; the crash report (please attach it to a bug report):\n{text}");
                return;
            }
            let written = files::folders::config_dir().map(|d| write_report(&d, &text));
            match written {
                Some(Ok(path)) => eprintln!("{what}; crash report written to {}", path.display()),
                Some(Err(e)) => eprintln!("{what}; the crash report could not be written: {e}"),
                None => eprintln!("{what}; no configuration folder for a crash report"),
            }
        }));
    });
}

/// Number in `crash-<n>.txt`.
fn report_number(name: &str) -> Option<u32> {
    name.strip_prefix(REPORT_STEM)?
        .strip_prefix('-')?
        .strip_suffix(".txt")?
        .parse()
        .ok()
}

/// The crash reports in `dir` newer than the last one the user was offered, oldest first.
pub fn unseen_reports(dir: &Path) -> Vec<PathBuf> {
    let seen: u32 = files::read(&FileRef::Disk(dir.join(SEEN_FILE)))
        .ok()
        .and_then(|b| String::from_utf8_lossy(&b).trim().parse().ok())
        .unwrap_or(0);
    let mut found: Vec<(u32, PathBuf)> = files::list(&FileRef::Disk(dir.to_path_buf()))
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, _, kind)| *kind == EntryKind::File)
        .filter_map(|(name, f, _)| Some((report_number(&name)?, f.as_disk()?.to_path_buf())))
        .filter(|(n, _)| *n > seen)
        .collect();
    found.sort();
    found.into_iter().map(|(_, p)| p).collect()
}

/// Records that every report up to `report` has been offered to the user.
pub fn mark_seen(dir: &Path, report: &Path) -> std::io::Result<()> {
    let n = report
        .file_name()
        .and_then(|n| report_number(&n.to_string_lossy()))
        .unwrap_or(0);
    atomic::write(&dir.join(SEEN_FILE), n.to_string().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_names_version_os_adapter_file_and_backtrace() {
        set_adapter("llvmpipe (Vulkan, Mesa)");
        let text = {
            let _file = processing("mod.wz!/components/bodies/body1.pie");
            report(
                "index out of bounds",
                Some("src/x.rs:1:2".into()),
                "0: main",
            )
        };
        assert!(text.contains(env!("CARGO_PKG_VERSION")), "{text}");
        assert!(text.contains(std::env::consts::OS), "{text}");
        assert!(text.contains("llvmpipe (Vulkan, Mesa)"), "{text}");
        assert!(text.contains("file being opened: mod.wz!/components/bodies/body1.pie"));
        assert!(text.contains("panic: index out of bounds"), "{text}");
        assert!(text.contains("0: main"), "{text}");
        assert_eq!(
            current_file(),
            None,
            "the guard forgets the file when dropped"
        );
    }

    #[test]
    fn reports_are_offered_once() {
        let dir = tempfile::tempdir().unwrap();
        let first = write_report(dir.path(), "one").unwrap();
        let second = write_report(dir.path(), "two").unwrap();
        assert_eq!(unseen_reports(dir.path()), vec![first, second.clone()]);
        mark_seen(dir.path(), &second).unwrap();
        assert!(unseen_reports(dir.path()).is_empty());
        let third = write_report(dir.path(), "three").unwrap();
        assert_eq!(unseen_reports(dir.path()), vec![third]);
    }
}
