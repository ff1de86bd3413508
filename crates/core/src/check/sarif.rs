//! SARIF 2.1.0 output (the OASIS static-analysis format GitHub code scanning reads), built
//! with the typed `serde-sarif` structs: one run, the rules of [`super::RULES`] as the
//! driver's rules, one result per finding with its rule, level, message and a physical
//! location (a line, or line 1 plus the byte offset for binary files and whole-file
//! findings, since code scanning needs a line).

use super::{Finding, Level, RULES};
use crate::model::Location;
use serde_sarif::sarif;

/// The SARIF level of a finding level.
fn level(l: Level) -> sarif::ResultLevel {
    match l {
        Level::Error => sarif::ResultLevel::Error,
        Level::Warning => sarif::ResultLevel::Warning,
        Level::Note => sarif::ResultLevel::Note,
    }
}

/// A file name as a SARIF URI: forward slashes; an archive entry (`a.wz!/x/y.pie`) is
/// located at its archive, with the entry in the message.
fn uri(file: &str) -> (String, Option<&str>) {
    let (path, entry) = match file.split_once("!/") {
        Some((a, e)) => (a, Some(e)),
        None => (file, None),
    };
    let mut p = path.replace('\\', "/");
    while let Some(rest) = p.strip_prefix("./") {
        p = rest.to_string();
    }
    (p, entry)
}

fn result(f: &Finding) -> sarif::Result {
    let (uri, entry) = uri(&f.file);
    let region = match f.location {
        Location::Line(l) if entry.is_none() => {
            sarif::Region::builder().start_line(i64::from(l)).build()
        }
        Location::Offset(o) if entry.is_none() => sarif::Region::builder()
            .start_line(1)
            .byte_offset(o as i64)
            .build(),
        _ => sarif::Region::builder().start_line(1).build(),
    };
    let text = match entry {
        Some(e) => format!("{e}{}: {}", f.location, f.message),
        None => f.message.clone(),
    };
    let physical = sarif::PhysicalLocation::builder()
        .artifact_location(sarif::ArtifactLocation::builder().uri(uri).build())
        .region(region)
        .build();
    sarif::Result::builder()
        .rule_id(f.rule.to_string())
        .rule_index(RULES.iter().position(|r| r.id == f.rule).unwrap_or(0) as i64)
        .level(level(f.level))
        .message(sarif::Message::builder().text(text).build())
        .locations(vec![
            sarif::Location::builder()
                .physical_location(physical)
                .build(),
        ])
        .build()
}

/// The SARIF log of `findings`.
pub fn log(findings: &[Finding]) -> sarif::Sarif {
    let rules: Vec<sarif::ReportingDescriptor> = RULES
        .iter()
        .map(|r| {
            sarif::ReportingDescriptor::builder()
                .id(r.id.to_string())
                .short_description(
                    sarif::MultiformatMessageString::builder()
                        .text(r.summary.to_string())
                        .build(),
                )
                .full_description(
                    sarif::MultiformatMessageString::builder()
                        .text(format!("{} Source: {}.", r.explanation, r.source))
                        .build(),
                )
                .default_configuration(
                    sarif::ReportingConfiguration::builder()
                        .level(serde_json::Value::from(r.level.name()))
                        .build(),
                )
                .build()
        })
        .collect();
    let driver = sarif::ToolComponent::builder()
        .name("vitrine".to_string())
        .version(env!("CARGO_PKG_VERSION").to_string())
        .rules(rules)
        .build();
    let run = sarif::Run::builder()
        .tool(sarif::Tool::builder().driver(driver).build())
        .results(findings.iter().map(result).collect::<Vec<_>>())
        .build();
    sarif::Sarif::builder()
        .schema(sarif::SCHEMA_URL.to_string())
        .version(serde_json::Value::from("2.1.0"))
        .runs(vec![run])
        .build()
}

/// The SARIF log as pretty JSON: [`log`]'s, each result built as it is written (a
/// map's check may have hundreds of thousands of findings; their SARIF structs are never
/// all held at once).
pub fn to_json(findings: &[Finding]) -> String {
    let head = serde_json::to_value(log(&[])).unwrap_or_default();
    serde_json::to_string_pretty(&Streamed {
        log: &head,
        findings,
    })
    .unwrap_or_default()
}

/// A SARIF log without results (`log`), written with `findings` as its run's results.
struct Streamed<'a> {
    log: &'a serde_json::Value,
    findings: &'a [Finding],
}

impl serde::Serialize for Streamed<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        let serde_json::Value::Object(top) = self.log else {
            return self.log.serialize(s);
        };
        let mut m = s.serialize_map(Some(top.len()))?;
        for (k, v) in top {
            match (k.as_str(), v) {
                ("runs", serde_json::Value::Array(runs)) => {
                    struct Runs<'a>(&'a [serde_json::Value], &'a [Finding]);
                    impl serde::Serialize for Runs<'_> {
                        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                            let mut q = s.serialize_seq(Some(self.0.len()))?;
                            for run in self.0 {
                                q.serialize_element(&Streamed {
                                    log: run,
                                    findings: self.1,
                                })?;
                            }
                            q.end()
                        }
                    }
                    m.serialize_entry(k, &Runs(runs, self.findings))?;
                }
                ("results", _) => {
                    struct Results<'a>(&'a [Finding]);
                    impl serde::Serialize for Results<'_> {
                        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                            s.collect_seq(self.0.iter().map(result))
                        }
                    }
                    m.serialize_entry(k, &Results(self.findings))?;
                }
                _ => m.serialize_entry(k, v)?,
            }
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Element;

    /// The log written result by result is the log built whole.
    #[test]
    fn streamed_json_is_the_whole_log() {
        let findings: Vec<Finding> = (0..3)
            .map(|i| {
                Finding::new(
                    "map/feature-stacked",
                    "m/feature.json",
                    Location::Line(i + 2),
                    Element::File,
                    format!("feature {i}"),
                )
            })
            .collect();
        for f in [&findings[..], &[]] {
            let streamed: serde_json::Value = serde_json::from_str(&to_json(f)).unwrap();
            let whole = serde_json::to_value(log(f)).unwrap();
            assert_eq!(streamed, whole);
        }
        let v: serde_json::Value = serde_json::from_str(&to_json(&findings)).unwrap();
        assert_eq!(v["runs"][0]["results"].as_array().map(Vec::len), Some(3));
    }
}
