//! `vitrine check` on untrusted bytes with its promises checked: what the `check` fuzz
//! target (`fuzz/fuzz_targets/check.rs`) runs on each input and what
//! `crates/core/tests/core/fuzz_regressions.rs` replays. The loaders' own invariants are
//! [`crate::formats::fuzzing`]'s; this adds the checker's: every finding names a
//! registered rule and the checked file, points at an element the model has (the
//! window selects it), and the human, JSON-lines and SARIF reports of the findings
//! are produced and read back.

use super::model_rules::{check_model, load_error_finding};
use super::{Element, Finding, report, rule, sarif};
use crate::formats::fuzzing::Outcome;
use crate::formats::{LoadOptions, parse};
use crate::model::{Format, Model, TextureRef};

/// The format and file name an input's first byte picks (`% 4`): PIE, PMF, PET, TPM.
pub(crate) fn format_of(first: u8) -> (Format, &'static str) {
    match first % 4 {
        0 => (Format::Pie, "fuzz.pie"),
        1 => (Format::Pmf, "fuzz.pmf"),
        2 => (Format::Pet, "fuzz.pet"),
        _ => (Format::Tpm, "fuzz.tpm"),
    }
}

/// Checks `data`: its first byte picks the format (`format_of`), the rest is the file.
/// Texture look-ups answer "found" for names of even length, so both the texture
/// rules' hits and misses run. Returns `Err` with what broke.
pub fn run(data: &[u8]) -> Result<Outcome, String> {
    let mut outcome = Outcome::default();
    let Some((&first, bytes)) = data.split_first() else {
        return Ok(outcome);
    };
    let (format, name) = format_of(first);
    let (findings, model) = match parse(format, bytes, name, &LoadOptions::default()) {
        Ok(model) => {
            let mut probe = |t: &TextureRef| t.name.len().is_multiple_of(2);
            let findings = check_model(&model, name, Some(&mut probe));
            outcome.loaded += 1;
            (findings, Some(model))
        }
        Err(e) => {
            outcome.rejected += 1;
            (vec![load_error_finding(Some(format), &e, name)], None)
        }
    };
    for f in &findings {
        check_finding(f, name, model.as_ref())?;
    }
    check_reports(&findings)?;
    Ok(outcome)
}

fn check_finding(f: &Finding, name: &str, model: Option<&Model>) -> Result<(), String> {
    let Some(r) = rule(f.rule) else {
        return Err(format!("finding of unregistered rule {:?}", f.rule));
    };
    if r.level != f.level || f.file != name {
        return Err(format!("finding {f:?}: wrong level or file"));
    }
    let in_range = match (f.element, model) {
        (Element::File, _) => true,
        (_, None) | (Element::Object { .. }, _) => false,
        (Element::Node { node }, Some(m)) => node < m.nodes.len(),
        (Element::Texture { texture }, Some(m)) => texture < m.textures.len(),
        (Element::Material { material }, Some(m)) => material < m.materials.len(),
        (Element::Point { mesh, point }, Some(m)) => m
            .meshes
            .get(mesh)
            .is_some_and(|x| (point as usize) < x.points.len()),
        (Element::Polygon { mesh, polygon }, Some(m)) => {
            let polygons = match m.source.meshes.get(mesh) {
                Some(s) if !s.polygons.is_empty() => s.polygons.len(),
                _ => m.meshes.get(mesh).map_or(0, |x| x.triangle_count()),
            };
            m.meshes.get(mesh).is_some() && (polygon as usize) < polygons
        }
    };
    if !in_range {
        return Err(format!("finding points outside the model: {f:?}"));
    }
    Ok(())
}

fn check_reports(findings: &[Finding]) -> Result<(), String> {
    use serde::de::IgnoredAny;
    let human = report::human(findings);
    if human.lines().filter(|l| !l.is_empty()).count() < findings.len() {
        return Err("human report lost findings".into());
    }
    for f in findings {
        serde_json::from_str::<IgnoredAny>(&report::json_line(f))
            .map_err(|e| format!("json line of {f:?}: {e}"))?;
    }
    // The SARIF log: one result per finding, each pointing at its rule in the driver's
    // rule list, and the results serialise and read back. (The rule list itself does not
    // depend on the input; `tests/cli/check.rs` reads whole logs back. Writing it out
    // for every input was most of this target's time.)
    let log = sarif::log(findings);
    let results = log
        .runs
        .first()
        .and_then(|r| r.results.as_ref())
        .ok_or("sarif log without results")?;
    if results.len() != findings.len() {
        return Err(format!(
            "sarif has {} results for {} findings",
            results.len(),
            findings.len()
        ));
    }
    for (r, f) in results.iter().zip(findings) {
        let indexed = r
            .rule_index
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| super::RULES.get(i))
            .map(|rule| rule.id);
        if r.rule_id.as_deref() != Some(f.rule) || indexed != Some(f.rule) {
            return Err(format!(
                "sarif result {r:?} does not point at rule {}",
                f.rule
            ));
        }
    }
    let text = serde_json::to_string(results).map_err(|e| format!("sarif results: {e}"))?;
    serde_json::from_str::<IgnoredAny>(&text).map_err(|e| format!("sarif reads back: {e}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_file_is_one_finding_and_a_loaded_one_is_checked() {
        let refused = run(b"\0not a pie").expect("refusal is a finding, not a failure");
        assert_eq!((refused.loaded, refused.rejected), (0, 1));
        let mut pie = vec![0];
        pie.extend_from_slice(include_bytes!("../../../../tests/fixtures/pie/cube.pie"));
        let loaded = run(&pie).expect("a small PIE checks cleanly");
        assert_eq!((loaded.loaded, loaded.rejected), (1, 0));
    }
}
