//! What to assemble: a template from `templates.json`, a droid built part by part, or a
//! structure. Kept in the settings and in Open Recent as one line of text.

use serde::{Deserialize, Serialize};

/// A droid built part by part (stats ids).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Parts {
    /// Body id.
    pub body: String,
    /// Propulsion id.
    pub propulsion: String,
    /// Weapon ids, one per body weapon slot.
    pub weapons: Vec<String>,
    /// Sensor turret id.
    pub sensor: Option<String>,
    /// Construct turret id.
    pub construct: Option<String>,
    /// Repair turret id.
    pub repair: Option<String>,
    /// ECM turret id.
    pub ecm: Option<String>,
    /// Commander brain id.
    pub brain: Option<String>,
}

/// Something the stats describe that can be assembled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Design {
    /// A named design of `templates.json` (id or human name).
    Template {
        /// Template id or name.
        id: String,
    },
    /// A droid built part by part.
    Parts(Parts),
    /// A structure of `structure.json` with its turrets.
    Structure {
        /// Structure id or name.
        id: String,
    },
}

impl Design {
    /// One line for Open Recent: `template:ID`, `structure:ID` or
    /// `parts:body=…;propulsion=…;weapons=A,B;sensor=…`.
    pub fn to_line(&self) -> String {
        match self {
            Design::Template { id } => format!("template:{id}"),
            Design::Structure { id } => format!("structure:{id}"),
            Design::Parts(p) => {
                let mut s = format!(
                    "parts:body={};propulsion={};weapons={}",
                    p.body,
                    p.propulsion,
                    p.weapons.join(",")
                );
                for (k, v) in [
                    ("sensor", &p.sensor),
                    ("construct", &p.construct),
                    ("repair", &p.repair),
                    ("ecm", &p.ecm),
                    ("brain", &p.brain),
                ] {
                    if let Some(v) = v {
                        s.push_str(&format!(";{k}={v}"));
                    }
                }
                s
            }
        }
    }

    /// Reads a line written by [`Design::to_line`]; `None` if it is not one.
    pub fn from_line(line: &str) -> Option<Design> {
        if let Some(id) = line.strip_prefix("template:") {
            return Some(Design::Template { id: id.into() });
        }
        if let Some(id) = line.strip_prefix("structure:") {
            return Some(Design::Structure { id: id.into() });
        }
        let rest = line.strip_prefix("parts:")?;
        let mut p = Parts::default();
        for field in rest.split(';') {
            let (k, v) = field.split_once('=')?;
            let v = v.to_string();
            match k {
                "body" => p.body = v,
                "propulsion" => p.propulsion = v,
                "weapons" => {
                    p.weapons = v
                        .split(',')
                        .filter(|w| !w.is_empty())
                        .map(str::to_string)
                        .collect()
                }
                "sensor" => p.sensor = Some(v),
                "construct" => p.construct = Some(v),
                "repair" => p.repair = Some(v),
                "ecm" => p.ecm = Some(v),
                "brain" => p.brain = Some(v),
                _ => return None,
            }
        }
        Some(Design::Parts(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        for d in [
            Design::Template {
                id: "ViperMG01Wheels".into(),
            },
            Design::Structure {
                id: "GuardTower1".into(),
            },
            Design::Parts(Parts {
                body: "Body11ABT".into(),
                propulsion: "tracked01".into(),
                weapons: vec!["Cannon1Mk1".into(), "MG2Mk1".into()],
                sensor: Some("SensorTurret1Mk1".into()),
                ..Parts::default()
            }),
        ] {
            assert_eq!(Design::from_line(&d.to_line()), Some(d.clone()), "{d:?}");
        }
        assert_eq!(Design::from_line("/tmp/model.pie"), None);
    }
}
