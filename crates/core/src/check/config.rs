//! `vitrine.toml` in a mod's folder: the settings CI runs `vitrine check` with, so it
//! needs no flags.
//!
//! ```toml
//! # Rules whose findings are dropped.
//! allow = ["pie/pie2", "pie/duplicate-point"]
//! # Data roots searched after the mod (relative to this file): mp over base.
//! data = ["../wz2100/data/mp", "../wz2100/data/base"]
//! # Exit 1 on warnings, as --deny warnings.
//! deny = "warnings"
//! ```

use serde::Deserialize;

/// The file's name.
pub const FILE_NAME: &str = "vitrine.toml";

/// The settings of a `vitrine.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Rule ids whose findings are dropped.
    #[serde(default)]
    pub allow: Vec<String>,
    /// Data roots (folders or `.wz` archives), relative to the file's folder.
    #[serde(default)]
    pub data: Vec<String>,
    /// `"warnings"` to fail on warnings as `--deny warnings` does.
    #[serde(default)]
    pub deny: Option<String>,
}

impl Config {
    /// Parses the text of a `vitrine.toml`; the error names the line.
    pub fn parse(text: &str) -> Result<Config, String> {
        let c: Config = toml::from_str(text).map_err(|e| e.to_string())?;
        for r in &c.allow {
            if super::rule(r).is_none() {
                return Err(format!(
                    "allow: unknown rule {r:?} (see vitrine check --explain)"
                ));
            }
        }
        if let Some(d) = &c.deny
            && d != "warnings"
        {
            return Err(format!("deny: {d:?} is not \"warnings\""));
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses_unknown_rules_and_keys() {
        let c = Config::parse("allow = [\"pie/pie2\"]\ndata = [\"base\"]\ndeny = \"warnings\"\n")
            .unwrap();
        assert_eq!(c.allow, vec!["pie/pie2"]);
        assert_eq!(c.data, vec!["base"]);
        assert_eq!(c.deny.as_deref(), Some("warnings"));
        assert!(
            Config::parse("allow = [\"pie/nope\"]")
                .unwrap_err()
                .contains("pie/nope")
        );
        assert!(Config::parse("alow = []").is_err());
        assert!(Config::parse("deny = \"notes\"").is_err());
    }
}
