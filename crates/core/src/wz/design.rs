//! What to assemble: a template from `templates.json`, a droid built part by part, or a
//! structure. Kept in the settings and in Open Recent as one line of text.

use super::stats::{Entry, Stats};
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

/// A propulsion for `body` when none is chosen: wheels if the body has models for them,
/// else the first propulsion its `propulsionExtraModels` names (`None` for a body with
/// none, such as cyborg legs).
pub fn default_propulsion(stats: &Stats, body: &str) -> Option<String> {
    let b = stats.bodies.find(body)?;
    let known = |id: &str| stats.propulsion.get(id).is_some();
    ["wheeled01", "HalfTrack", "tracked01"]
        .into_iter()
        .find(|p| b.propulsion_extra_models.contains_key(*p) && known(p))
        .map(str::to_string)
        .or_else(|| b.propulsion_extra_models.keys().find(|p| known(p)).cloned())
}

/// Which kind of part a file or id is, for "show on a droid".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartKind {
    /// `body.json`.
    Body,
    /// A propulsion model named in `body.json` `propulsionExtraModels`, or `propulsion.json`.
    Propulsion,
    /// `weapons.json` (barrel or mount).
    Weapon,
}

impl Parts {
    /// A droid that shows the part a modder opened, with a sensible rest: a weapon on a
    /// Cobra (medium body) on half-tracks; a body with wheels (or what it has) and a
    /// machinegun; a propulsion model under the body it belongs to with a machinegun.
    /// `file` is the model file name; `None` when the stats do not know it.
    pub fn around(stats: &Stats, file: &str) -> Option<(PartKind, Parts)> {
        let eq = |m: &str| m.eq_ignore_ascii_case(file);
        let gun = stats
            .weapons
            .get("MG1Mk1")
            .map(|w| w.id.clone())
            .into_iter()
            .collect::<Vec<_>>();
        let cobra = stats
            .bodies
            .get("Body5REC")
            .or_else(|| stats.bodies.entries.first())?;
        if let Some(b) = stats
            .bodies
            .entries
            .iter()
            .find(|b| b.model.as_deref().is_some_and(eq))
        {
            let propulsion = default_propulsion(stats, &b.id).unwrap_or_default();
            let weapons = if propulsion.is_empty() {
                Vec::new()
            } else {
                gun
            };
            let parts = Parts {
                body: b.id.clone(),
                propulsion,
                weapons,
                ..Parts::default()
            };
            return Some((PartKind::Body, parts));
        }
        if let Some(w) = stats
            .weapons
            .entries
            .iter()
            .find(|w| w.models().iter().any(|(_, m)| eq(m)))
        {
            let parts = Parts {
                body: cobra.id.clone(),
                propulsion: default_propulsion(stats, &cobra.id).unwrap_or_default(),
                weapons: vec![w.id.clone()],
                ..Parts::default()
            };
            return Some((PartKind::Weapon, parts));
        }
        // A propulsion model is drawn from body.json; prefer the medium body's own use.
        let mut uses = stats.bodies.entries.iter().flat_map(|b| {
            b.propulsion_extra_models
                .iter()
                .filter(|(_, m)| {
                    [&m.left, &m.right, &m.moving, &m.still]
                        .iter()
                        .any(|x| x.as_deref().is_some_and(eq))
                })
                .map(move |(p, _)| (b.id.clone(), p.clone()))
        });
        let (body, propulsion) = uses.next().or_else(|| {
            let p = stats
                .propulsion
                .entries
                .iter()
                .find(|p| p.model.as_deref().is_some_and(eq))?;
            Some((cobra.id.clone(), p.id.clone()))
        })?;
        let parts = Parts {
            body,
            propulsion,
            weapons: gun,
            ..Parts::default()
        };
        Some((PartKind::Propulsion, parts))
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
