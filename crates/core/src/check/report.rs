//! Human (compiler-style) and JSON-lines renderings of findings, and the summary.

use super::{Counts, Finding, Level};
use std::collections::BTreeMap;
use std::fmt::Write;

/// `file:line: warning[rule]: message` (or `file @0x1a: …`, or `file: …`).
pub fn human_line(f: &Finding) -> String {
    format!(
        "{}{}: {}[{}]: {}",
        f.file,
        f.location,
        f.level.name(),
        f.rule,
        f.message
    )
}

/// All findings, grouped by file (a blank line between files), in the order given.
pub fn human(findings: &[Finding]) -> String {
    let mut out = String::new();
    let mut last: Option<&str> = None;
    for f in findings {
        if last.is_some_and(|l| l != f.file) {
            out.push('\n');
        }
        last = Some(&f.file);
        out.push_str(&human_line(f));
        out.push('\n');
    }
    out
}

/// One JSON object per finding: `file`, `line` or `offset`, `level`, `rule`, `message`,
/// `element`.
pub fn json_line(f: &Finding) -> String {
    let mut v = serde_json::to_value(f).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.insert("line".into(), f.line().into());
        o.insert("offset".into(), f.offset().into());
    }
    v.to_string()
}

/// Findings per rule, worst level first then by id: `(rule, level, count)`.
pub(crate) fn per_rule(findings: &[Finding]) -> Vec<(&'static str, Level, usize)> {
    let mut m: BTreeMap<(std::cmp::Reverse<Level>, &'static str), usize> = BTreeMap::new();
    for f in findings {
        *m.entry((std::cmp::Reverse(f.level), f.rule)).or_default() += 1;
    }
    m.into_iter().map(|((l, r), n)| (r, l.0, n)).collect()
}

/// `checked 855 files: 0 errors, 3 warnings, 120 notes` plus one line per rule.
pub fn summary(files: usize, findings: &[Finding]) -> String {
    summary_of(files, "file", findings)
}

/// [`summary`] counting `count` of something else (`checked 44 maps: …`).
pub fn summary_of(count: usize, noun: &str, findings: &[Finding]) -> String {
    let c = Counts::of(findings);
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let mut s = format!(
        "checked {}: {}, {}, {}\n",
        plural(count, noun),
        plural(c.errors, "error"),
        plural(c.warnings, "warning"),
        plural(c.notes, "note")
    );
    for (rule, level, n) in per_rule(findings) {
        let _ = writeln!(s, "  {n:>6} {:<7} {rule}", level.name());
    }
    s
}
