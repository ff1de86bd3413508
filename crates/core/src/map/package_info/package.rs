//! What `maptools package info` says of the package around a map (wzmaplib's
//! `MapPackage`): whether it is a "flat" 4.x package (`level.json` at its root), a plain
//! map or a map-mod (`packageType`), what a map-mod changes (`baseModificationTypes`),
//! and the formats its level and objects are in (`loadedLevelDetailsFormat`,
//! `Map::loadedMapFormat`).

use crate::files::{EntryKind, FileRef, Files, Lookup};
use crate::map::{FileFormat, Level, Map};

/// The package facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Package {
    pub flat: bool,
    pub map_mod: bool,
    /// What a map-mod changes, in wzmaplib's order (`gamemodels`, `effects`, …).
    pub mod_types: Vec<&'static str>,
    /// `json` or `lev`.
    pub level_format: &'static str,
    /// `script`, `jsonv2`, `jsonv1`, `binary`, `mixed` or `unknown`.
    pub map_format: &'static str,
}

/// The root folders (and `multiplay/` folders) a map-mod's changes are in, by kind, in
/// wzmaplib's bit order (`MapPackage::ModTypes`).
const MOD_TYPES: &[(&str, &[&str], &[&str])] = &[
    (
        "gamemodels",
        &["components", "features", "structs", "misc"],
        &[],
    ),
    ("effects", &["effects"], &[]),
    ("shaders", &["shaders"], &[]),
    ("stats", &["stats"], &[]),
    ("textures", &["texpages"], &[]),
    ("scripts", &["script"], &["script"]),
    ("skirmishai", &[], &["skirmish"]),
    ("messages", &["messages"], &[]),
    ("miscui", &["fonts", "icons", "images"], &[]),
    ("sound", &["audio", "sequenceaudio"], &[]),
    ("tilesets", &["tileset"], &[]),
    ("datasets", &["wrf"], &[]),
];

/// The package root of `level` and whether it is flat: a `level.json` at the root is a
/// flat package; one in `multiplay/maps/NAME/` and a `.lev` have their root above.
pub(super) fn root(level: &Level) -> (FileRef, bool) {
    let named_by = level.defined_in.as_ref();
    let json = named_by.is_some_and(|f| f.file_name().eq_ignore_ascii_case("level.json"));
    let folder = named_by
        .and_then(FileRef::parent)
        .unwrap_or(level.folder.clone());
    if !json {
        return (folder, false);
    }
    let up = |f: &FileRef| f.parent();
    match (up(&folder), up(&folder).as_ref().and_then(up)) {
        (Some(maps), Some(mp))
            if maps.file_name().eq_ignore_ascii_case("maps")
                && mp.file_name().eq_ignore_ascii_case("multiplay") =>
        {
            (mp.parent().unwrap_or(mp), false)
        }
        _ => (folder, true),
    }
}

/// The folders in `dir`, by name.
fn folders(lookup: &mut Lookup, dir: &FileRef) -> Vec<String> {
    lookup
        .listing(dir)
        .iter()
        .filter(|(_, _, k)| *k == EntryKind::Dir)
        .map(|(n, _, _)| n.clone())
        .collect()
}

/// The package facts of `level`, whose map `map` is.
pub(super) fn package(files: &Files, level: &Level, map: &Map) -> Package {
    let (root, flat) = root(level);
    let mut lookup = Lookup::new(files);
    let top = folders(&mut lookup, &root);
    let multiplay = root.join("multiplay");
    let below = if top.iter().any(|n| n == "multiplay") {
        folders(&mut lookup, &multiplay)
    } else {
        Vec::new()
    };
    let odd_file = lookup
        .listing(&root)
        .iter()
        .any(|(n, _, k)| *k == EntryKind::File && (n == "gamedesc.lev" || n == "palette.txt"));
    let map_mod = !flat
        && (top.iter().any(|n| n != "multiplay") || below.iter().any(|n| n != "maps") || odd_file);
    let mod_types = if map_mod {
        MOD_TYPES
            .iter()
            .filter(|(_, at_root, in_mp)| {
                top.iter().any(|n| at_root.contains(&n.as_str()))
                    || below.iter().any(|n| in_mp.contains(&n.as_str()))
            })
            .map(|(name, _, _)| *name)
            .collect()
    } else {
        Vec::new()
    };
    let json = level
        .defined_in
        .as_ref()
        .is_some_and(|f| f.file_name().eq_ignore_ascii_case("level.json"));
    Package {
        flat,
        map_mod,
        mod_types,
        level_format: if json { "json" } else { "lev" },
        map_format: map_format(map),
    }
}

/// `Map::loadedMapFormat`: a script's map is `script`; otherwise the object files the
/// game reads, all of one format (`jsonv2`, `jsonv1`, `binary`), else `mixed`; none:
/// `unknown`.
pub(super) fn map_format(map: &Map) -> &'static str {
    if map.files.iter().any(|f| f.format == FileFormat::Script) {
        return "script";
    }
    let mut seen = map
        .files
        .iter()
        .filter(|f| f.used)
        .filter_map(|f| match f.format {
            FileFormat::JsonV2 => Some("jsonv2"),
            FileFormat::JsonV1 => Some("jsonv1"),
            FileFormat::Bjo => Some("binary"),
            _ => None,
        });
    let Some(first) = seen.next() else {
        return "unknown";
    };
    if seen.all(|f| f == first) {
        first
    } else {
        "mixed"
    }
}
