//! The findings on a map's objects: every object the game does not keep as its file has
//! it ([`Placement::removed`]), and droids off the map; each at its file, its place in the
//! file and its index in [`Map::objects`].

use super::super::{Element, Finding};
use crate::files::{FileRef, Files};
use crate::map::{FileFormat, Map, MapObject, ObjectKind, Owner, Placement, Removal, TILE_UNITS};
use crate::model::Location;
use std::collections::HashMap;

/// Where one kind's objects were read from: the file, its format and version, and its
/// bytes where a place inside it can be found.
struct Source {
    file: String,
    format: FileFormat,
    version: u32,
    /// JSON v1: the line of each key of the root (the first where a key is given twice),
    /// found in one pass over the text.
    lines: HashMap<String, u32>,
}

/// The findings on `map`'s objects after `placed`.
pub(super) fn findings(files: &Files, map: &Map, placed: &Placement) -> Vec<Finding> {
    let sources: Vec<Option<Source>> = ObjectKind::ALL
        .iter()
        .map(|&k| source(files, map, k))
        .collect();
    // Each object's index among those of its kind, counted once for all.
    let mut counts = [0usize; 3];
    let kind_index: Vec<usize> = map
        .objects
        .iter()
        .map(|o| {
            let n = &mut counts[slot_of(o.kind)];
            *n += 1;
            *n - 1
        })
        .collect();
    let at = |index: usize| -> (String, Location) {
        let o = &map.objects[index];
        match sources[slot_of(o.kind)].as_ref() {
            Some(s) => (s.file.clone(), s.place(o, kind_index[index])),
            None => (map.level.folder.to_string(), Location::File),
        }
    };
    let mut out = Vec::new();
    for r in &placed.removed {
        let o = &map.objects[r.index];
        let (rule, message) = match &r.why {
            Removal::UnderDerrick => (
                "map/oil-under-derrick",
                "removed by the derrick built on it".to_string(),
            ),
            Removal::Module(host) => {
                let h = &map.objects[*host];
                (
                    "map/module-record",
                    format!("merged into {} [{}] on its tile", h.stats_id, h.key),
                )
            }
            Removal::NoSuchPlayer => (
                "map/player-beyond-count",
                format!(
                    "{}; the level has {} players: dropped",
                    owner(o.owner),
                    map.level.players.unwrap_or(0)
                ),
            ),
            Removal::ReplacedWall => continue,
            Removal::Refused { rule, message } => (*rule, message.clone()),
        };
        let (file, location) = at(r.index);
        out.push(finding(rule, &file, location, r.index, o, &message));
    }
    for (index, l) in &placed.logged {
        let (file, location) = at(*index);
        let o = &map.objects[*index];
        out.push(finding(l.rule, &file, location, *index, o, &l.message));
    }
    out.extend(nothing_placed(map, placed, &sources));
    // `map/object-id-duplicate`: every placed object after the first with an id.
    let mut first: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for p in &placed.objects {
        let Some(id) = p.object.id else { continue };
        let Some(&earlier) = first.get(&id) else {
            first.insert(id, p.index);
            continue;
        };
        let e = &map.objects[earlier];
        let (file, location) = at(p.index);
        let message = format!(
            "id {id} is also {} {} [{}]'s: the game builds both with one id",
            e.kind.name(),
            e.stats_id,
            e.key
        );
        let o = &map.objects[p.index];
        out.push(finding(
            "map/object-id-duplicate",
            &file,
            location,
            p.index,
            o,
            &message,
        ));
    }
    let (w, h) = (
        map.terrain.width as i64 * i64::from(TILE_UNITS),
        map.terrain.height as i64 * i64::from(TILE_UNITS),
    );
    for p in placed
        .objects
        .iter()
        .filter(|p| p.object.kind == ObjectKind::Droid)
    {
        let (x, y) = (i64::from(p.object.x), i64::from(p.object.y));
        if x < 0 || y < 0 || x >= w || y >= h {
            let (file, location) = at(p.index);
            let message = format!("off the {w}×{h} map; the game asserts and builds it there");
            out.push(finding(
                "map/droid-off-map",
                &file,
                location,
                p.index,
                &p.object,
                &message,
            ));
        }
    }
    out
}

/// `map/nothing-placed`: each kind the files hold entries of and the game places none
/// of, having refused some (a map whose oil all lies under derricks is as it should be).
fn nothing_placed(map: &Map, placed: &Placement, sources: &[Option<Source>]) -> Vec<Finding> {
    ObjectKind::ALL
        .iter()
        .zip(sources)
        .filter_map(|(&kind, source)| {
            let in_files = map.of_kind(kind).count();
            let on_map = placed
                .objects
                .iter()
                .filter(|p| p.object.kind == kind)
                .count();
            let refused = placed.removed.iter().any(|r| {
                matches!(r.why, Removal::Refused { .. }) && map.objects[r.index].kind == kind
            });
            (in_files > 0 && on_map == 0 && refused).then(|| {
                let file = source
                    .as_ref()
                    .map_or_else(|| map.level.folder.to_string(), |s| s.file.clone());
                let what = plural(kind);
                Finding::new(
                    "map/nothing-placed",
                    &file,
                    Location::File,
                    Element::File,
                    format!(
                        "{}: none of the {in_files} {what} in the files is on the loaded map; \
                         the game starts it without {what}",
                        map.level.name
                    ),
                )
            })
        })
        .collect()
}

/// The place of `kind` in [`ObjectKind::ALL`].
fn slot_of(kind: ObjectKind) -> usize {
    ObjectKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)
}

/// `structures`, `features`, `droids`.
pub(crate) fn plural(kind: ObjectKind) -> String {
    format!("{}s", kind.name())
}

fn finding(
    rule: &'static str,
    file: &str,
    location: Location,
    index: usize,
    o: &MapObject,
    message: &str,
) -> Finding {
    Finding::new(
        rule,
        file,
        location,
        Element::Object { object: index },
        format!(
            "{} {} [{}] at ({}, {}): {message}",
            o.kind.name(),
            o.stats_id,
            o.key,
            o.x,
            o.y
        ),
    )
}

fn owner(o: Owner) -> String {
    match o {
        Owner::Player(p) => format!("player {p}"),
        Owner::Scavenger => "scavengers".into(),
        Owner::None => "no player".into(),
    }
}

/// The file the game read `kind`'s objects from.
fn source(files: &Files, map: &Map, kind: ObjectKind) -> Option<Source> {
    let names: &[&str] = match kind {
        ObjectKind::Structure => &["struct.json", "struct.bjo"],
        ObjectKind::Feature => &["feature.json", "feat.bjo"],
        ObjectKind::Droid => &["droid.json", "dinit.bjo"],
    };
    let f = map
        .files
        .iter()
        .find(|f| f.used && names.contains(&f.name.as_str()))?;
    let file: FileRef = map.level.folder.join(&f.name);
    let lines = (f.format == FileFormat::JsonV1)
        .then(|| files.read(&file).ok())
        .flatten()
        .map(|b| key_lines(&b))
        .unwrap_or_default();
    Some(Source {
        file: file.to_string(),
        format: f.format,
        version: f.version,
        lines,
    })
}

/// The line of each key of a JSON object's root (depth 1; the first where one is given
/// twice), in one pass over `bytes`: strings are skipped whole (escapes too), a string
/// at depth 1 followed by `:` is a key.
fn key_lines(bytes: &[u8]) -> HashMap<String, u32> {
    let mut out = HashMap::new();
    let (mut depth, mut line, mut i) = (0usize, 1u32, 0usize);
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\n' => line += 1,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let start = i + 1;
                i = start;
                while let Some(&c) = bytes.get(i) {
                    match c {
                        b'\\' => i += 1,
                        b'"' => break,
                        b'\n' => line += 1,
                        _ => {}
                    }
                    i += 1;
                }
                let end = i.min(bytes.len());
                let next = bytes[end.saturating_add(1).min(bytes.len())..]
                    .iter()
                    .find(|c| !c.is_ascii_whitespace());
                if depth == 1 && next == Some(&b':') {
                    let key = String::from_utf8_lossy(&bytes[start..end]).into_owned();
                    out.entry(key).or_insert(line);
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

impl Source {
    /// The place of the `n`th object of its kind: a BJO record's byte offset, a JSON v1
    /// key's line, else the file.
    fn place(&self, o: &MapObject, n: usize) -> Location {
        match self.format {
            FileFormat::Bjo => {
                let name = if self.version <= 19 { 40 } else { 60 };
                let extra = match o.kind {
                    ObjectKind::Structure => 44,
                    ObjectKind::Feature if self.version >= 14 => 8,
                    _ => 0,
                };
                Location::Offset(12 + n as u64 * (name + 36 + extra))
            }
            FileFormat::JsonV1 => self
                .lines
                .get(&o.key)
                .map_or(Location::File, |&l| Location::Line(l)),
            _ => Location::File,
        }
    }
}
