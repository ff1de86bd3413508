//! The map database's licence rule: the licence must parse as an SPDX expression and be
//! equivalent to one of the database's six (`expected_license_expressions` in
//! `map_funcs.py`, which parses with `license_expression` and compares with
//! `is_equivalent`: `GPL-2.0-or-later OR CC-BY-3.0` is `CC-BY-3.0 OR GPL-2.0-or-later`).
//!
//! Parsing is the `spdx` crate's, with identifiers matched in any case and deprecated
//! ones and GPL's `+` accepted (as `license_expression` resolves them); equivalence is
//! a truth table over the licences the two expressions name.

use spdx::{Expression, ParseMode};
use std::collections::BTreeSet;

/// The licences the database takes.
pub(crate) const EXPECTED: &[&str] = &[
    "CC0-1.0",
    "GPL-2.0-or-later",
    "CC-BY-3.0 OR GPL-2.0-or-later",
    "CC-BY-SA-3.0 OR GPL-2.0-or-later",
    "CC-BY-4.0 OR GPL-2.0-or-later",
    "CC-BY-SA-4.0 OR GPL-2.0-or-later",
];

/// What the licence rule finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// One of the database's licences.
    Accepted,
    /// A valid expression the database does not take.
    NotListed,
    /// Not an SPDX expression; why.
    Invalid(String),
}

const MODE: ParseMode = ParseMode {
    allow_slash_as_or_operator: false,
    allow_imprecise_license_names: false,
    allow_postfix_plus_on_gpl: true,
    allow_deprecated: true,
    allow_unknown: false,
};

/// `text` with each licence and exception identifier in the SPDX list's own case.
fn canonical_case(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let (base, plus) = match word.strip_suffix('+') {
            Some(b) => (b, "+"),
            None => (word.as_str(), ""),
        };
        let known = spdx::identifiers::LICENSES
            .iter()
            .map(|l| l.name)
            .chain(spdx::identifiers::EXCEPTIONS.iter().map(|e| e.name))
            .find(|n| n.eq_ignore_ascii_case(base));
        match known {
            Some(n) => {
                out.push_str(n);
                out.push_str(plus);
            }
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() || c == '(' || c == ')' {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A requirement as one key: `GPL-2.0+` is `GPL-2.0-or-later`.
fn key(req: &spdx::LicenseReq) -> String {
    let s = req.to_string();
    match s.strip_suffix('+') {
        Some(base)
            if base.starts_with("GPL-")
                || base.starts_with("LGPL-")
                || base.starts_with("AGPL-") =>
        {
            format!("{base}-or-later")
        }
        _ => s,
    }
}

fn parse(text: &str) -> Result<Expression, String> {
    Expression::parse_mode(&canonical_case(text), MODE).map_err(|e| e.to_string())
}

/// Whether `a` and `b` allow the same sets of licences.
fn equivalent(a: &Expression, b: &Expression) -> bool {
    let names: Vec<String> = a
        .requirements()
        .chain(b.requirements())
        .map(|r| key(&r.req))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // The database's six name two licences; an expression naming many more is not one
    // of them (and 2^n evaluations stay small).
    if names.len() > 12 {
        return false;
    }
    (0u32..1 << names.len()).all(|set| {
        let allowed = |r: &spdx::LicenseReq| {
            let k = key(r);
            names
                .iter()
                .position(|n| *n == k)
                .is_some_and(|i| set & (1 << i) != 0)
        };
        a.evaluate(allowed) == b.evaluate(allowed)
    })
}

/// The database's verdict on `text`.
pub(crate) fn verdict(text: &str) -> Verdict {
    let parsed = match parse(text) {
        Ok(e) => e,
        Err(why) => return Verdict::Invalid(why),
    };
    let listed = EXPECTED
        .iter()
        .filter_map(|e| parse(e).ok())
        .any(|e| equivalent(&parsed, &e));
    if listed {
        Verdict::Accepted
    } else {
        Verdict::NotListed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_licences_in_any_order_and_case() {
        for text in EXPECTED {
            assert_eq!(verdict(text), Verdict::Accepted, "{text}");
        }
        let cases = [
            ("GPL-2.0-or-later OR CC-BY-3.0", Verdict::Accepted),
            ("cc0-1.0", Verdict::Accepted),
            ("(CC-BY-SA-4.0 or GPL-2.0-or-later)", Verdict::Accepted),
            ("GPL-2.0+", Verdict::Accepted),
            ("MIT", Verdict::NotListed),
            ("CC-BY-3.0 AND GPL-2.0-or-later", Verdict::NotListed),
            ("GPL-2.0-only", Verdict::NotListed),
            ("CC-BY-3.0", Verdict::NotListed),
        ];
        for (text, want) in cases {
            assert_eq!(verdict(text), want, "{text}");
        }
        for bad in [
            "",
            "Public Domain",
            "CC0-1.0 OR",
            "MIT OR OR GPL-2.0-or-later",
        ] {
            assert!(matches!(verdict(bad), Verdict::Invalid(_)), "{bad:?}");
        }
    }
}
