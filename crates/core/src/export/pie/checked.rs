//! The writer's text put through the `vitrine check` rules before anything is written:
//! what `vitrine convert` and the window's File ▸ Export PIE… share. An error-level
//! finding means the game would give the model up, so the text must not be written;
//! warnings and notes are shown beside it.

use super::{PieOptions, Written, write};
use crate::check::{Checker, Finding, Level, rules};
use crate::files::FileRef;
use crate::model::{Format, Model};

/// The written text and what the check rules say about it.
#[derive(Debug, Clone)]
pub struct CheckedPie {
    /// The writer's output.
    pub written: Written,
    /// Findings on the text, in file order.
    pub findings: Vec<Finding>,
    /// The pages the text names that are found nowhere (`pie/texture-missing`,
    /// `pie/tcmask-missing` errors), each once, as the text names them.
    pub missing: Vec<String>,
}

impl CheckedPie {
    /// The findings that stop the write.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.level == Level::Error)
    }

    /// Whether an error stops the write.
    pub fn blocked(&self) -> bool {
        self.errors().next().is_some()
    }

    /// Of the [`missing`](Self::missing) pages, those `model` (the model written) holds
    /// an image of — a page packed in a `.glb`, a file beside a glTF or OBJ — so that
    /// writing them with the file (`vitrine convert --pack`, File ▸ Export PIE…'s *Copy
    /// the pages*) is the way out; the others must come from data that has them (`--data`,
    /// the data roots).
    pub fn packable(&self, model: &Model) -> Vec<String> {
        self.missing
            .iter()
            .filter(|page| {
                self.written.pages.iter().any(|(i, name)| {
                    name.eq_ignore_ascii_case(page)
                        && model.textures.get(*i).is_some_and(|t| t.resolved.is_some())
                })
            })
            .cloned()
            .collect()
    }

    /// The findings below error level from `min` up.
    pub fn below_errors(&self, min: Level) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(move |f| f.level >= min && f.level < Level::Error)
    }
}

/// Writes `model` as PIE and checks the text as [`check`] does.
///
/// # Errors
/// The writer cannot write the model (no mesh, a bad scale).
pub fn write_checked(
    model: &Model,
    options: &PieOptions,
    checker: &mut Checker,
    near: &[FileRef],
    shown: &str,
) -> Result<CheckedPie, String> {
    Ok(check(write(model, options)?, checker, near, shown, &[]))
}

/// Checks the writer's text as the file `shown`; texture pages are looked up from each
/// file of `near` (the input's place and the output's), then the checker's data roots.
/// Pages in `provided` (lower-case file names) count as present: they are written beside
/// the output with it (`vitrine convert --pack`).
pub fn check(
    written: Written,
    checker: &mut Checker,
    near: &[FileRef],
    shown: &str,
    provided: &[String],
) -> CheckedPie {
    let checked = checker.check_bytes(Format::Pie, written.text.as_bytes(), shown, near);
    let mut findings = checked.findings;
    let mut missing: Vec<String> = Vec::new();
    if let Some(parsed) = &checked.model {
        findings.retain(|f| !is_provided(f, parsed, provided));
        for f in &findings {
            if let (Some(name), Level::Error) = (missing_page(f, parsed), f.level)
                && !missing.iter().any(|m| m.eq_ignore_ascii_case(name))
            {
                missing.push(name.to_string());
            }
        }
    }
    CheckedPie {
        written,
        findings,
        missing,
    }
}

/// The page a "page not found" finding on `parsed` (the written text read back) names.
fn missing_page<'m>(f: &Finding, parsed: &'m Model) -> Option<&'m str> {
    let crate::check::Element::Texture { texture } = f.element else {
        return None;
    };
    matches!(f.rule, "pie/texture-missing" | "pie/tcmask-missing")
        .then(|| parsed.textures.get(texture))
        .flatten()
        .map(|t| t.name.as_str())
}

/// A "page not found" finding for a page that is written with the model.
fn is_provided(f: &Finding, parsed: &Model, provided: &[String]) -> bool {
    missing_page(f, parsed).is_some_and(|name| provided.contains(&name.to_ascii_lowercase()))
}

/// The texture pages a PIE text names (`TEXTURE`, `TCMASK`, `NORMALMAP`, `SPECULARMAP`,
/// header and levels), each once, in file order.
pub fn page_names(text: &str) -> Vec<String> {
    let mut pages: Vec<String> = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let Some("TEXTURE" | "TCMASK" | "NORMALMAP" | "SPECULARMAP") = words.next() else {
            continue;
        };
        // `TEXTURE 0 page.png 256 256` (PIE 2/3) or `TEXTURE 0 page.png` (PIE 4).
        let Some(page) = words.nth(1) else {
            continue;
        };
        if !pages.iter().any(|p| p == page) {
            pages.push(page.to_string());
        }
    }
    pages
}

/// What to do about `finding`: its rule's explanation (the rule's paragraph says why the
/// game refuses it and how to fix it).
pub fn what_to_do(finding: &Finding) -> &'static str {
    rules::rule(finding.rule).map_or("", |r| r.explanation)
}
