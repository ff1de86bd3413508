//! Mod-level checks for Warzone 2100: the `stats/*.json` of a mod, layered over the data
//! roots as the game layers them (a mod over `mp` over `base`: the first root that has
//! `stats/NAME.json` supplies that file), checked against the model files the roots
//! hold. Written over `serde_json::Value` (the stats schema is the game's, read only for
//! the fields these rules need); places are the stats file and the line of the entry or
//! value (found in the pretty-printed JSON text).

use super::{Element, Finding};
use crate::files::{self, EntryKind, FileRef, Lookup};
use crate::model::Location;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Folders the game searches for a model named in the stats (`modelGet`), in order: the
/// loaders' own list, so the checker and the resolver never disagree.
pub(crate) use crate::formats::resolve::WZ_MODEL_DIRS as MODEL_DIRS;

/// Stats files whose entries name models.
const MODEL_STATS: &[&str] = &[
    "body",
    "brain",
    "construction",
    "ecm",
    "features",
    "propulsion",
    "repair",
    "sensor",
    "structure",
    "weapons",
];

/// Fields naming a model file (besides `…Gfx` fields with a `.pie` value).
const MODEL_KEYS: &[&str] = &[
    "model",
    "mountModel",
    "sensorModel",
    "baseModel",
    "structureModel",
];

/// Whether `root` holds a `stats/` folder (is a mod or a data root).
pub(crate) fn has_stats(lookup: &mut Lookup, root: &FileRef) -> bool {
    matches!(lookup.child(root, "stats"), Some((_, EntryKind::Dir)))
}

/// One effective stats file.
struct Stats {
    file: FileRef,
    text: String,
    json: Value,
    /// Supplied by the mod itself (findings are reported only there).
    own: bool,
}

impl Stats {
    /// The line of `"needle"` at or after `from` (1-based), or `from`.
    fn line_of(&self, needle: &str, from: u32) -> u32 {
        let quoted = format!("\"{needle}\"");
        self.text
            .lines()
            .enumerate()
            .skip(from.saturating_sub(1) as usize)
            .find(|(_, l)| l.contains(&quoted))
            .map_or(from, |(i, _)| i as u32 + 1)
    }

    fn entries(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.json.as_object().into_iter().flatten()
    }
}

/// Model file names (lower case) found in the model folders of the roots, with the
/// first file of each name.
fn model_index(lookup: &mut Lookup, roots: &[FileRef]) -> HashMap<String, FileRef> {
    let mut out = HashMap::new();
    for root in roots {
        for dir in MODEL_DIRS {
            let comps: Vec<&str> = dir.split('/').collect();
            let mut cur = Some(root.clone());
            for c in &comps {
                cur = cur.and_then(|d| match lookup.child(&d, c) {
                    Some((f, EntryKind::Dir)) => Some(f),
                    _ => None,
                });
            }
            let Some(d) = cur else { continue };
            for (name, file, kind) in lookup.listing(&d).to_vec() {
                if kind == EntryKind::File {
                    out.entry(name).or_insert(file);
                }
            }
        }
    }
    out
}

fn bare(name: &str) -> String {
    name.rsplit(['/', '\\'])
        .next()
        .unwrap_or(name)
        .to_lowercase()
}

/// Every model name in a stats entry: `(field, name)`.
fn model_names(entry: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(obj) = entry.as_object() else {
        return out;
    };
    for (k, v) in obj {
        let wanted = MODEL_KEYS.contains(&k.as_str())
            || (k.ends_with("Gfx")
                && v.as_str()
                    .is_some_and(|s| s.to_lowercase().ends_with(".pie")));
        if !wanted {
            continue;
        }
        match v {
            Value::String(s) if !s.is_empty() => out.push((k.clone(), s.clone())),
            Value::Array(a) => out.extend(
                a.iter()
                    .filter_map(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map(|s| (k.clone(), s.to_string())),
            ),
            _ => {}
        }
    }
    out
}

/// Runs the mod-level rules on the mod at `root` over `data_roots`.
pub(crate) fn check_mod(
    lookup: &mut Lookup,
    root: &FileRef,
    data_roots: &[FileRef],
) -> Vec<Finding> {
    let mut out = Vec::new();
    let roots: Vec<FileRef> = std::iter::once(root.clone())
        .chain(data_roots.iter().cloned())
        .collect();
    // The effective stats files.
    let mut stats: HashMap<String, Stats> = HashMap::new();
    for (i, r) in roots.iter().enumerate() {
        let Some((dir, EntryKind::Dir)) = lookup.child(r, "stats") else {
            continue;
        };
        for (name, file, kind) in lookup.listing(&dir).to_vec() {
            let Some(stem) = name.strip_suffix(".json") else {
                continue;
            };
            if kind != EntryKind::File || stats.contains_key(stem) {
                continue;
            }
            let text = files::read(&file)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            let json = match serde_json::from_str::<Value>(&text) {
                Ok(v) => v,
                Err(e) => {
                    out.push(Finding::new(
                        "wz/stats-unreadable",
                        &file.to_string(),
                        Location::Line(e.line() as u32),
                        Element::File,
                        format!("not valid JSON: {e}"),
                    ));
                    Value::Null
                }
            };
            stats.insert(
                stem.to_string(),
                Stats {
                    file,
                    text,
                    json,
                    own: i == 0,
                },
            );
        }
    }
    let models = model_index(lookup, &roots);
    let mut named: HashSet<String> = HashSet::new();
    for kind in MODEL_STATS {
        let Some(s) = stats.get(*kind) else { continue };
        for (id, entry) in s.entries() {
            let at = s.line_of(id, 1);
            for (field, name) in model_names(entry) {
                named.insert(bare(&name));
                if s.own && !models.contains_key(&bare(&name)) {
                    out.push(Finding::new(
                        "wz/model-missing",
                        &s.file.to_string(),
                        Location::Line(s.line_of(&name, at)),
                        Element::File,
                        format!("{kind} \"{id}\" {field} names {name}, which is in no model folder of the data"),
                    ));
                }
            }
        }
    }
    if let Some(body) = stats.get("body") {
        body_rules(lookup, body, &models, &mut named, &mut out);
    }
    if let Some(t) = stats.get("templates").filter(|t| t.own) {
        template_rules(t, &stats, &mut out);
    }
    unused_models(lookup, root, &named, &mut out);
    out
}

fn body_rules(
    lookup: &mut Lookup,
    body: &Stats,
    models: &HashMap<String, FileRef>,
    named: &mut HashSet<String>,
    out: &mut Vec<Finding>,
) {
    let _ = lookup;
    for (id, entry) in body.entries() {
        let at = body.line_of(id, 1);
        if let Some(extra) = entry["propulsionExtraModels"].as_object() {
            for (prop, sides) in extra {
                for (side, v) in sides.as_object().into_iter().flatten() {
                    let Some(name) = v.as_str().filter(|s| !s.is_empty()) else {
                        continue;
                    };
                    named.insert(bare(name));
                    if body.own && !models.contains_key(&bare(name)) {
                        out.push(Finding::new(
                            "wz/propulsion-model-missing",
                            &body.file.to_string(),
                            Location::Line(body.line_of(name, at)),
                            Element::File,
                            format!("body \"{id}\" propulsionExtraModels.{prop}.{side} names {name}, which is in no model folder of the data"),
                        ));
                    }
                }
            }
        }
        let slots = entry["weaponSlots"].as_u64().unwrap_or(0) as usize;
        let Some(file) = entry["model"].as_str().and_then(|m| models.get(&bare(m))) else {
            continue;
        };
        if !body.own || slots == 0 {
            continue;
        }
        let connectors = files::read(file)
            .ok()
            .and_then(|b| crate::formats::pie::parse(&b).ok())
            .map(|m| m.connectors.len());
        if let Some(n) = connectors
            && n < slots
        {
            out.push(Finding::new(
                "wz/weapon-connectors",
                &body.file.to_string(),
                Location::Line(body.line_of("weaponSlots", at)),
                Element::File,
                format!(
                    "body \"{id}\" has weaponSlots {slots}, but {} has {n} connector(s)",
                    file.file_name()
                ),
            ));
        }
    }
}

fn template_rules(t: &Stats, stats: &HashMap<String, Stats>, out: &mut Vec<Finding>) {
    let has = |kind: &str, id: &str| stats.get(kind).is_some_and(|s| s.json.get(id).is_some());
    for (id, entry) in t.entries() {
        let at = t.line_of(id, 1);
        let mut parts: Vec<(&str, &str, String)> = Vec::new();
        for (field, kind) in [
            ("body", "body"),
            ("propulsion", "propulsion"),
            ("sensor", "sensor"),
            ("construct", "construction"),
            ("repair", "repair"),
            ("ecm", "ecm"),
            ("brain", "brain"),
        ] {
            if let Some(v) = entry[field].as_str() {
                parts.push((field, kind, v.to_string()));
            }
        }
        for w in entry["weapons"].as_array().into_iter().flatten() {
            if let Some(v) = w.as_str() {
                parts.push(("weapons", "weapons", v.to_string()));
            }
        }
        for (field, kind, part) in parts {
            if !has(kind, &part) {
                out.push(Finding::new(
                    "wz/template-part-missing",
                    &t.file.to_string(),
                    Location::Line(t.line_of(&part, at)),
                    Element::File,
                    format!("template \"{id}\" {field} \"{part}\" is not in {kind}.json"),
                ));
            }
        }
    }
}

/// Models under the mod's `components/`, `structs/` and `features/` (reached only
/// through the stats) that nothing names: no stats entry, no other model's `EVENT`.
fn unused_models(
    lookup: &mut Lookup,
    root: &FileRef,
    named: &HashSet<String>,
    out: &mut Vec<Finding>,
) {
    let mut mine = Vec::new();
    for dir in [
        "components/prop",
        "components/weapons",
        "components/bodies",
        "structs",
        "features",
    ] {
        let comps: Vec<&str> = dir.split('/').collect();
        let mut cur = Some(root.clone());
        for c in &comps {
            cur = cur.and_then(|d| match lookup.child(&d, c) {
                Some((f, EntryKind::Dir)) => Some(f),
                _ => None,
            });
        }
        let Some(d) = cur else { continue };
        for (name, file, kind) in lookup.listing(&d).to_vec() {
            if kind == EntryKind::File && name.ends_with(".pie") {
                mine.push((name, file));
            }
        }
    }
    // Event models are named by other models, not by the stats.
    let mut events: HashSet<String> = HashSet::new();
    for (_, file) in &mine {
        if let Some(m) = files::read(file)
            .ok()
            .and_then(|b| crate::formats::pie::parse(&b).ok())
        {
            events.extend(m.events.iter().map(|e| bare(&e.file)));
        }
    }
    for (name, file) in mine {
        if !named.contains(&name) && !events.contains(&name) {
            out.push(Finding::new(
                "wz/model-unused",
                &file.to_string(),
                Location::File,
                Element::File,
                format!(
                    "{name}: no stats entry and no model's EVENT names it; the game never loads it"
                ),
            ));
        }
    }
}
