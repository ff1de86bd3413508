//! `vitrine check --rules mapdb`: the map database's verdict on a map package before it
//! is submitted — every rule of `validate_map_info` (the database's
//! `scripts/funcs/map_funcs.py`), run on the facts `maptools package info` gives
//! ([`crate::map::package_info`]), one `mapdb/…` finding per message the database
//! would print, with the database's level in the rule's summary (`rules`).
//!
//! The database's own quirks are kept, since the point is to predict its verdict: its
//! HQ check starts at player 2; its factory check warns only when no kind of factory is
//! given to every player; an empty name is not checked. Not checked here: what the
//! database checks outside `validate_map_info` (a name already taken, the package's
//! folder name, the repository's player count).

mod license;
mod rules;
#[cfg(test)]
mod tests;

pub(crate) use rules::RULES;

use super::map_check::MapReport;
use super::{Element, Finding};
use crate::files::{FileRef, Files};
use crate::map::{self, package_info, package_info::PackageInfo};
use crate::model::Location;
use crate::wz::Stats;
use jiff::civil::Date;
use std::collections::{BTreeMap, BTreeSet};

/// Suggested and allowed name lengths, and the longest author name.
const NAME_SUGGESTED: usize = 30;
const NAME_ALLOWED: usize = 60;
const AUTHOR_ALLOWED: usize = 60;

/// The findings of `validate_map_info` on `info`, the facts of the level `file` names.
/// `today` (the front-end's clock; the core has none) judges a created date in the
/// future; without it that part is not checked.
pub fn validate(info: &PackageInfo, file: &str, today: Option<Date>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut add = |rule: &'static str, message: String| {
        out.push(Finding::new(
            rule,
            file,
            Location::File,
            Element::File,
            format!("{}: {message}", info.name),
        ));
    };
    name(info, &mut add);
    level(info, &mut add);
    let licensed = licence(info, &mut add);
    author(info, licensed, &mut add);
    created(info, today, &mut add);
    contents(info, &mut add);
    map_mod(info, &mut add);
    formats(info, &mut add);
    out
}

type Add<'a> = dyn FnMut(&'static str, String) + 'a;

fn name(info: &PackageInfo, add: &mut Add) {
    let name = &info.name;
    if name.is_empty() {
        return;
    }
    let len = name.chars().count();
    if len < 6 {
        add(
            "mapdb/name-short",
            format!("the name {name:?} has {len} characters; the database suggests 6 or more"),
        );
    }
    if len > NAME_ALLOWED {
        add(
            "mapdb/name-too-long",
            format!("the name has {len} characters; the database takes {NAME_ALLOWED} at most"),
        );
    } else if len > NAME_SUGGESTED {
        add(
            "mapdb/name-long",
            format!("the name has {len} characters; over {NAME_SUGGESTED} it may be cut short"),
        );
    }
    // Python's `$` also matches before one final newline.
    let body = name.strip_suffix('\n').unwrap_or(name);
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if body.is_empty() || !body.chars().all(allowed) {
        add(
            "mapdb/name-characters",
            format!("the name {name:?} has characters other than A-Z, a-z, 0-9, '-', '_'"),
        );
    }
}

fn level(info: &PackageInfo, add: &mut Add) {
    if info.kind != "skirmish" {
        add(
            "mapdb/type",
            format!("type {:?} is not \"skirmish\"", info.kind),
        );
    }
    if !(2..=10).contains(&info.players) {
        add(
            "mapdb/players",
            format!("{} players; the database takes 2 to 10", info.players),
        );
    }
    if !["arizona", "urban", "rockies"].contains(&info.tileset.as_str()) {
        add(
            "mapdb/tileset",
            format!(
                "tileset {:?} is none of arizona, urban, rockies",
                info.tileset
            ),
        );
    }
}

/// The licence rules; whether the licence is one the database takes.
fn licence(info: &PackageInfo, add: &mut Add) -> bool {
    let Some(text) = &info.license else {
        add(
            "mapdb/license-missing",
            "no licence (level.json's spdx-license-id)".into(),
        );
        return false;
    };
    match license::verdict(text) {
        license::Verdict::Accepted => true,
        license::Verdict::NotListed => {
            add(
                "mapdb/license",
                format!(
                    "licence {text:?} is not one the database takes: {}",
                    license::EXPECTED.join(", ")
                ),
            );
            false
        }
        license::Verdict::Invalid(why) => {
            add(
                "mapdb/license",
                format!("licence {text:?} is not an SPDX expression: {why}"),
            );
            false
        }
    }
}

fn author(info: &PackageInfo, licensed: bool, add: &mut Add) {
    match &info.author {
        None if !info.additional_authors.is_empty() => {
            add("mapdb/author", "additional authors but no author".into());
        }
        None if licensed => add(
            "mapdb/author-missing",
            "no author (level.json's author.name)".into(),
        ),
        None => add(
            "mapdb/author",
            "no author (level.json's author.name)".into(),
        ),
        Some(a) => {
            let len = a.name.chars().count();
            if len == 0 {
                add("mapdb/author-empty", "the author's name is empty".into());
            } else if len > AUTHOR_ALLOWED {
                add(
                    "mapdb/author",
                    format!(
                        "the author's name has {len} characters; the database takes {AUTHOR_ALLOWED} at most"
                    ),
                );
            }
        }
    }
}

/// The year, month and day a created date starts with (`YYYY-MM-DD`, four digits or
/// more for the year), as the database's pattern reads it.
fn date_prefix(text: &str) -> Option<(u64, i8, i8)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits < 4 {
        return None;
    }
    let rest = text.get(digits..)?.strip_prefix('-')?;
    let (month, rest) = (rest.get(..2)?, rest.get(2..)?);
    let day = rest.strip_prefix('-')?.get(..2)?;
    let month: i8 = month
        .parse()
        .ok()
        .filter(|m| (1..=12).contains(m) && month.as_bytes()[0].is_ascii_digit())?;
    let day: i8 = day
        .parse()
        .ok()
        .filter(|d| (1..=31).contains(d) && day.as_bytes()[0].is_ascii_digit())?;
    let year = text[..digits].parse().unwrap_or(u64::MAX);
    Some((year, month, day))
}

fn created(info: &PackageInfo, today: Option<Date>, add: &mut Add) {
    let Some(text) = &info.created else {
        add(
            "mapdb/created-missing",
            "no created date (level.json's created-date)".into(),
        );
        return;
    };
    let Some((year, month, day)) = date_prefix(text) else {
        add(
            "mapdb/created",
            format!("created date {text:?} does not start with YYYY-MM-DD"),
        );
        return;
    };
    let date = i16::try_from(year)
        .ok()
        .and_then(|y| Date::new(y, month, day).ok());
    let Some(date) = date else {
        add(
            "mapdb/created",
            format!("created date {text:?} is not a day"),
        );
        return;
    };
    if let Some(today) = today
        && today.until(date).is_ok_and(|span| span.get_days() > 1)
    {
        add(
            "mapdb/created",
            format!("created date {text:?} is in the future"),
        );
    }
    if year < 1999 {
        add(
            "mapdb/created",
            format!("created date {text:?} is before the game was made (1999)"),
        );
    }
}

fn contents(info: &PackageInfo, add: &mut Add) {
    let (w, h) = (info.mapsize.w, info.mapsize.h);
    if !(1..=256).contains(&w) || !(1..=256).contains(&h) {
        add(
            "mapdb/map-size",
            format!("{w}×{h} tiles; the database takes 1 to 256 a side"),
        );
    }
    let p = &info.player;
    if info.oil_wells == 0 && p.resource_extractors.min == 0 {
        add(
            "mapdb/oil",
            "no oil well, and a player starts without a derrick".into(),
        );
    }
    for (slot, hq) in info.hq.iter().enumerate().skip(2) {
        if hq.x.is_none() || hq.y.is_none() {
            add(
                "mapdb/hq",
                format!("player {slot} has no HQ (command centre)"),
            );
        }
    }
    // The database checks slots 2 and up, also past the list's end.
    for slot in info.hq.len().max(2)..info.players as usize {
        add(
            "mapdb/hq",
            format!("player {slot} has no HQ (command centre)"),
        );
    }
    if p.power_generators.min == 0 {
        add(
            "mapdb/power-generator",
            "a player starts without a power generator".into(),
        );
    }
    if p.reg_factories.min == 0 && p.vtol_factories.min == 0 && p.cyborg_factories.min == 0 {
        add(
            "mapdb/factory",
            "a player starts without a factory (of any kind)".into(),
        );
    }
    if p.research_centers.min == 0 {
        add(
            "mapdb/research",
            "a player starts without a research facility".into(),
        );
    }
}

fn map_mod(info: &PackageInfo, add: &mut Add) {
    if !info.map_mod {
        return;
    }
    let types = &info.mod_types;
    if types.is_empty() {
        add(
            "mapdb/map-mod-types",
            "a map-mod whose changes are of no known kind".into(),
        );
        return;
    }
    let has = |t: &str| types.contains(&t);
    let strippable = !(has("gamemodels") && has("datasets"));
    if !strippable {
        add(
            "mapdb/map-mod",
            "a map-mod with both game models and datasets cannot be made a plain map".into(),
        );
    }
    if has("textures") {
        add(
            "mapdb/map-mod-textures",
            "a map-mod with texture overrides".into(),
        );
    }
    if strippable {
        add(
            "mapdb/map-mod-strip",
            format!("the database strips these changes: {}", types.join(",")),
        );
    }
}

fn formats(info: &PackageInfo, add: &mut Add) {
    if info.level_format != "json" {
        add(
            "mapdb/level-format",
            format!(
                "level format {:?}; the database takes json (level.json)",
                info.level_format
            ),
        );
    }
    if !["script", "jsonv2"].contains(&info.map_format) {
        add(
            "mapdb/map-format",
            format!(
                "objects in format {:?}; the database takes jsonv2 or script",
                info.map_format
            ),
        );
    }
    if !info.flat_map_package {
        add(
            "mapdb/flat-package",
            "not a flat package: level.json and the map are not at the archive's root".into(),
        );
    }
}

/// How `vitrine check` runs the database's rules on maps.
#[derive(Debug, Clone, Copy, Default)]
pub struct MapdbOptions {
    /// The seed a script map runs with (`None`: 0, the seed the database runs maptools
    /// with).
    pub seed: Option<u32>,
    /// Today, for the created date (see [`validate`]).
    pub today: Option<Date>,
    /// Whether the database's rules run alone (`--rules mapdb`): then a package of
    /// several maps and a map that does not open are reported as `mapdb/package-refused`;
    /// beside the game's rules (`--rules all`) a data archive of many maps such as
    /// `mp.wz` is passed over (it is no package to submit) and a map that does not open
    /// is left to the game's rules, which say why.
    pub alone: bool,
}

/// The database's findings on every map `at` holds (or the one named `level`), its
/// stats from `roots`: per map, what [`validate`] gives of its
/// [`crate::map::package_info`], or `mapdb/package-refused` where maptools could not
/// read the package.
pub fn check_maps(
    files: &Files,
    at: &FileRef,
    level: Option<&str>,
    roots: &[FileRef],
    options: &MapdbOptions,
) -> MapReport {
    let levels = match level {
        Some(name) => map::open_source(files, at, Some(name)).map(|l| vec![l]),
        None => map::find_maps(files, at),
    };
    let mut levels = match levels {
        Ok(l) => l,
        Err(e) if options.alone => return refused(&at.to_string(), &e.to_string(), 0),
        Err(_) => return MapReport::default(),
    };
    let mut stats: Option<Stats> = None;
    let mut report = MapReport::default();
    // Maps per package root: a package of several is none the database takes.
    let mut maps_at: BTreeMap<FileRef, usize> = BTreeMap::new();
    for level in &mut levels {
        let root = package_info::package_root(level);
        let first = !maps_at.contains_key(&root);
        let maps = *maps_at.entry(root.clone()).or_insert_with(|| {
            map::find_maps(files, &root).map_or(1, |l| {
                l.iter().map(|l| &l.folder).collect::<BTreeSet<_>>().len()
            })
        });
        if maps > 1 {
            if options.alone && first {
                let why = format!(
                    "{maps} maps in one package; the database takes a package of one map \
                     (maptools: multi-map packs are not supported)"
                );
                report.maps += 1;
                report
                    .findings
                    .extend(refused(&root.to_string(), &why, 0).findings);
            }
            continue;
        }
        level.ask_seed(Some(options.seed.unwrap_or(0)));
        report.maps += 1;
        let file = level
            .defined_in
            .as_ref()
            .unwrap_or(&level.folder)
            .to_string();
        let opened = match map::open(files, level) {
            Ok(m) => m,
            Err(e) if options.alone => {
                report
                    .findings
                    .extend(refused(&file, &e.to_string(), 0).findings);
                continue;
            }
            Err(_) => continue,
        };
        let stats = stats.get_or_insert_with(|| Stats::load(files, roots).0);
        match package_info::package_info(files, level, &opened, stats) {
            Ok(info) => report
                .findings
                .extend(validate(&info, &file, options.today)),
            Err(e) => report
                .findings
                .extend(refused(&file, &e.to_string(), 0).findings),
        }
    }
    report
}

/// One `mapdb/package-refused` finding.
fn refused(file: &str, why: &str, maps: usize) -> MapReport {
    MapReport {
        findings: vec![Finding::new(
            "mapdb/package-refused",
            file,
            Location::File,
            Element::File,
            format!("maptools package info cannot read it: {why}"),
        )],
        maps,
    }
}
