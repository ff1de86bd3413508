//! What a build is: the commit it was built from and the day it was built, for
//! `vitrine --version` and Help ▸ About (a bug report names exactly what is running).
//!
//! Sets `VITRINE_COMMIT` (the commit's short hash; `VITRINE_COMMIT` in the build's
//! environment wins — a build from a source archive without `.git` names it that way —
//! else "unknown") and `VITRINE_BUILD_DATE` (`YYYY-MM-DD` in UTC: `SOURCE_DATE_EPOCH` when
//! set, for reproducible builds, else the day the build script ran). The script runs
//! again when the checked-out commit changes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// Emits `VITRINE_COMMIT` and `VITRINE_BUILD_DATE` for the crate being built; returns the
/// commit (the Windows version resource names it too).
pub fn build_stamp() -> String {
    println!("cargo::rerun-if-env-changed=VITRINE_COMMIT");
    println!("cargo::rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = match std::env::var("VITRINE_COMMIT") {
        Ok(c) if !c.trim().is_empty() => c.trim().to_string(),
        _ => {
            for file in git_files_naming_head(&dir) {
                println!("cargo::rerun-if-changed={}", file.display());
            }
            git(&dir, &["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown".into())
        }
    };
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    println!("cargo::rustc-env=VITRINE_COMMIT={commit}");
    println!("cargo::rustc-env=VITRINE_BUILD_DATE={}", utc_date(seconds));
    commit
}

/// What `git` prints for `args` in `dir`, trimmed; `None` without git or a repository.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

/// The files whose change means another commit is checked out: `HEAD`, the branch it
/// names and the packed refs (in a worktree too: git says where each is). Only those
/// that exist: cargo runs a script again on every build while a file it watches is
/// missing.
#[expect(
    clippy::disallowed_methods,
    reason = "a build script, run by cargo on the build machine, looks at the checkout"
)]
fn git_files_naming_head(dir: &Path) -> Vec<PathBuf> {
    let mut names = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        names.push(branch);
    }
    names
        .iter()
        .filter_map(|n| git(dir, &["rev-parse", "--git-path", n]))
        .map(|p| dir.join(p))
        .filter(|p| p.exists())
        .collect()
}

/// `seconds` after 1970-01-01 00:00 UTC as `YYYY-MM-DD` (the proleptic Gregorian
/// calendar, days to civil date as in Howard Hinnant's `civil_from_days`).
pub fn utc_date(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::utc_date;

    #[test]
    fn dates_of_known_instants() {
        assert_eq!(utc_date(0), "1970-01-01");
        assert_eq!(
            utc_date(951_782_400),
            "2000-02-29",
            "a leap day of a century leap year"
        );
        assert_eq!(utc_date(1_709_251_199), "2024-02-29", "its last second");
        assert_eq!(utc_date(1_709_251_200), "2024-03-01");
        assert_eq!(utc_date(1_798_675_200), "2026-12-31");
        assert_eq!(
            utc_date(4_102_444_800),
            "2100-01-01",
            "2100 is no leap year"
        );
    }
}
