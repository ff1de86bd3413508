//! `vitrine publish DIR` of a folder of map packages (a downloaded collection, the map
//! database's `maps-2p`): a site with a tile per map.
//!
//! ```text
//! SITE/index.html             the gallery: a tile per map — its 3D preview, its name,
//!                             players and tileset, author, licence and date (level.json),
//!                             and the map database's verdict (`check --rules mapdb`)
//! SITE/maps/NAME.wz           each package as it is (a map keeps its own files, which
//!                             would collide in one archive: every database package has
//!                             its game.map at its root)
//! SITE/thumbs/map-NAME.png    its preview, edge to edge (`maptools package genpreview`'s)
//! SITE/site.wz                the game's data the maps need (stats, the objects' models,
//!                             the tilesets' ground and tile images), once for all
//! SITE/site.json              the maps and their facts, for tools
//! ```
//!
//! A tile opens its map on the page: `view.html?url=maps/NAME.wz&data=site.wz#model=PATH`.
//! As for a mod, the run ends by checking that each package over `site.wz` alone
//! resolves every file its scene resolved over the data roots.
//!
//! A folder is a collection when it holds `.wz` or `.zip` packages, every one a map, and
//! is no map or mod folder itself.

use super::collect::{self, Collected, model_lines};
use super::{Tile, gallery_html, output, site};
use crate::cli::exit;
use crate::cli::publish::PublishArgs;
use crate::files::FileRef;
use crate::formats::LoadOptions;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vitrine_core::model::Details;

/// Pixels of a map's preview's longer side on a collection's site.
const PREVIEW_SIZE: u32 = 512;

/// The packages of a publish whose only input is a folder of map packages (see the
/// module), sorted by name; `None` for anything else.
pub fn packages(inputs: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let [dir] = inputs else {
        return None;
    };
    let list = crate::cli::map_info::collection_archives(&FileRef::Disk(dir.clone()))?;
    let files = crate::files::disk();
    let all_maps = list.iter().all(|p| {
        vitrine_core::map::find_maps(files, &FileRef::archive_root(p)).is_ok_and(|l| !l.is_empty())
    });
    (!list.is_empty() && all_maps).then_some(list)
}

/// One map of the collection.
struct Entry {
    /// The package.
    package: PathBuf,
    /// Its copy in the site (`maps/NAME.wz`).
    site_package: String,
    /// The map's file in the package (`game.map`, `game.js`).
    id: String,
    /// The level's name.
    name: String,
    /// What its scene resolved, as lines over site paths.
    expected: Vec<String>,
    facts: Facts,
}

/// A map's facts as its tile and `site.json` give them.
#[derive(Debug, Default, Clone, serde::Serialize)]
struct Facts {
    players: Option<u32>,
    tileset: String,
    author: Option<String>,
    licence: Option<String>,
    created: Option<String>,
    /// The database's findings on the map (`vitrine check --rules mapdb`).
    mapdb: Vec<Verdict>,
}

/// One finding of the map database's rules, as `site.json` lists it.
#[derive(Debug, Clone, serde::Serialize)]
struct Verdict {
    rule: &'static str,
    /// `error` (the database refuses the map) or `warning` (listed, the map taken).
    level: &'static str,
    message: String,
}

impl Facts {
    /// The tile's lines.
    fn lines(&self) -> Vec<String> {
        let players = self
            .players
            .map_or_else(String::new, |p| format!("{p} players · "));
        let mut lines = vec![format!("{players}{}", self.tileset)];
        if let Some(a) = &self.author {
            lines.push(format!("by {a}"));
        }
        let licence = [self.licence.clone(), self.created.as_ref().map(|c| date(c))];
        let licence: Vec<String> = licence.into_iter().flatten().collect();
        if !licence.is_empty() {
            lines.push(licence.join(" · "));
        }
        lines.push(self.verdict_line());
        lines
    }

    /// `database: accepted`, `database: accepted · 2 warnings`, `database: refused · 1 error`.
    fn verdict_line(&self) -> String {
        let count = |level: &str| self.mapdb.iter().filter(|v| v.level == level).count();
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let (errors, warnings) = (count("error"), count("warning"));
        let mut parts = vec![if errors == 0 {
            "database: accepted".to_string()
        } else {
            format!("database: refused · {}", plural(errors, "error"))
        }];
        if warnings > 0 {
            parts.push(plural(warnings, "warning"));
        }
        parts.join(" · ")
    }
}

/// The map database's findings on the map `name` of `package` (seed 0, today's date, its
/// stats from `roots`), as `vitrine check --rules mapdb` reports them.
fn mapdb_verdict(package: &Path, name: &str, roots: &[FileRef]) -> Vec<Verdict> {
    use vitrine_core::check::{Level, mapdb};
    let options = mapdb::MapdbOptions {
        seed: Some(0),
        today: crate::cli::check::today(),
        alone: true,
    };
    let at = FileRef::archive_root(package);
    mapdb::check_maps(crate::files::disk(), &at, Some(name), roots, &options)
        .findings
        .into_iter()
        .map(|f| Verdict {
            rule: f.rule,
            level: if f.level == Level::Error {
                "error"
            } else {
                "warning"
            },
            message: f.message,
        })
        .collect()
}

/// The day of a `created-date` (`2018-11-03 22:00:10` → `2018-11-03`).
fn date(created: &str) -> String {
    created
        .split([' ', 'T'])
        .next()
        .unwrap_or(created)
        .to_string()
}

/// `author`, `spdx-license-id` and `created-date` of a package's `level.json` (the
/// author an object with a `name`, or a string; the additional authors after it).
fn level_json_facts(level_json: Option<&FileRef>, facts: &mut Facts) {
    let Some(bytes) = level_json
        .filter(|f| f.file_name().eq_ignore_ascii_case("level.json"))
        .and_then(|f| crate::files::read(f).ok())
    else {
        return;
    };
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return;
    };
    let name = |v: &serde_json::Value| {
        v.as_str()
            .or_else(|| v["name"].as_str())
            .map(str::to_string)
    };
    let mut authors: Vec<String> = json.get("author").and_then(name).into_iter().collect();
    if let Some(more) = json["additional-authors"].as_array() {
        authors.extend(more.iter().filter_map(name));
    }
    if !authors.is_empty() {
        facts.author = Some(authors.join(", "));
    }
    facts.licence = json["spdx-license-id"].as_str().map(str::to_string);
    facts.created = json["created-date"].as_str().map(str::to_string);
}

/// The data roots: `--data`, else the installed game's.
fn options(args: &PublishArgs, first: &Path) -> LoadOptions {
    let mut options = args.load.options();
    if options.data_roots.is_empty() {
        options.data_roots =
            crate::cli::map_info::roots_for(&FileRef::archive_root(first), &args.load.data);
    }
    options
}

/// Publishes the collection `packages` with the built page `page`; the exit code.
pub fn run(args: &PublishArgs, page: &Path, packages: &[PathBuf]) -> i32 {
    let fail = |e: &str| {
        eprintln!("vitrine publish: {e}");
        exit::FAILED
    };
    let out = &args.output;
    let old_thumbs = match output::prepare(out, args.force) {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    let start = std::time::Instant::now();
    let options = options(args, &packages[0]);
    let (entries, data, mut problems) = gather(packages, &options);
    if entries.is_empty() {
        for p in &problems {
            eprintln!("error: {p}");
        }
        return fail("nothing to publish: no map of the folder loaded");
    }
    for e in &entries {
        let copied = crate::files::read(&FileRef::Disk(e.package.clone()))
            .map_err(|err| format!("{}: {err}", e.package.display()))
            .and_then(|bytes| output::write(out, &e.site_package, &bytes));
        if let Err(err) = copied {
            return fail(&err);
        }
    }
    let site_wz = match output::inside(out, "site.wz") {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let data = Collected {
        files: data,
        ..Collected::default()
    };
    let size = match site::write_site_wz(&site_wz, &data) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    problems.extend(verify(out, &site_wz, &entries, &options));
    let (tiles, written) = tiles(args, out, &entries, &options);
    if let Err(e) = output::remove_old_thumbs(out, &old_thumbs, &written) {
        return fail(&e);
    }
    if let Err(e) = site::copy_page(page, out) {
        return fail(&e);
    }
    if let Err(e) = write_pages(args, out, &tiles, &entries, &data) {
        return fail(&e);
    }
    eprintln!(
        "published {} maps ({} data files, site.wz {:.1} MiB, {} previews) to {} in {:.1} s",
        entries.len(),
        data.files.len(),
        size as f64 / 1048576.0,
        written.len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    for p in &problems {
        eprintln!("error: {p}");
    }
    if problems.is_empty() {
        exit::OK
    } else {
        eprintln!("{} problems", problems.len());
        exit::FAILED
    }
}

/// Each package's maps (their facts and what they resolved) and the data files they
/// need (`site.wz` path → source), with the problems met.
fn gather(
    packages: &[PathBuf],
    options: &LoadOptions,
) -> (Vec<Entry>, BTreeMap<String, FileRef>, Vec<String>) {
    let mut entries = Vec::new();
    let mut data = BTreeMap::new();
    let mut problems = Vec::new();
    let mut taken = crate::files::names::UniqueNames::new();
    for package in packages {
        let c = collect::collect(std::slice::from_ref(package), options);
        problems.extend(c.problems);
        let own = absolute(package);
        for (path, source) in c.files {
            let in_package =
                matches!(&source, FileRef::Entry { archive, .. } if absolute(archive) == own);
            if !in_package {
                data.entry(path).or_insert(source);
            }
        }
        let name = package
            .file_stem()
            .map_or_else(|| "map".into(), |s| s.to_string_lossy().into_owned());
        let named = taken.take(&name, "wz", "map");
        if let Some(note) = &named.note {
            eprintln!("note: package {note}");
        }
        let site_package = format!("maps/{}", named.file);
        for item in c.maps {
            let Details::Map(map) = &item.model.details else {
                continue;
            };
            let mut facts = Facts {
                players: map.players,
                tileset: map.tileset.clone(),
                ..Facts::default()
            };
            let level = vitrine_core::map::open_source(
                crate::files::disk(),
                &FileRef::archive_root(package),
                Some(&map.name),
            );
            level_json_facts(level.ok().and_then(|l| l.defined_in).as_ref(), &mut facts);
            facts.mapdb = mapdb_verdict(package, &map.name, &options.data_roots);
            entries.push(Entry {
                package: package.clone(),
                site_package: site_package.clone(),
                id: item.id,
                name: map.name.clone(),
                expected: item.expected,
                facts,
            });
        }
    }
    (entries, data, problems)
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Each map loaded from its site copy over `site.wz` alone: what it resolves must be what
/// it resolved over the data roots. One message per difference.
fn verify(out: &Path, site_wz: &Path, entries: &[Entry], options: &LoadOptions) -> Vec<String> {
    let files = crate::files::disk();
    let options = LoadOptions {
        data_roots: vec![FileRef::archive_root(site_wz)],
        ..options.clone()
    };
    let mut problems = Vec::new();
    for e in entries {
        let package = out.join(&e.site_package);
        let site = |f: &FileRef| match f {
            FileRef::Entry { archive, path } if archive == site_wz || *archive == package => {
                path.clone()
            }
            f => format!("(outside the site: {f})"),
        };
        let file = FileRef::archive_root(&package).join(&e.id);
        match vitrine_core::formats::load(files, &file, &options) {
            Ok(m) => {
                let got = model_lines(&m, &site);
                let missing: Vec<&String> =
                    e.expected.iter().filter(|l| !got.contains(l)).collect();
                if !missing.is_empty() {
                    problems.push(format!(
                        "map {} ({}): not reproduced from the site: {missing:?}",
                        e.name, e.site_package
                    ));
                }
            }
            Err(err) => problems.push(format!("map {}: {err}", e.site_package)),
        }
    }
    problems
}

/// The tiles, and the previews written (none with `--no-thumbnails` or without a GPU).
fn tiles(
    args: &PublishArgs,
    out: &Path,
    entries: &[Entry],
    options: &LoadOptions,
) -> (Vec<Tile>, Vec<PathBuf>) {
    let mut taken = crate::files::names::UniqueNames::new();
    let thumbs: Vec<String> = entries
        .iter()
        .map(|e| {
            site::thumb_name(
                "map",
                &e.site_package.replace("maps/", "").replace(".wz", ""),
                &mut taken,
            )
        })
        .collect();
    let mut written = Vec::new();
    if !args.no_thumbnails {
        let jobs: Vec<(FileRef, Option<String>, PathBuf)> = entries
            .iter()
            .zip(&thumbs)
            .filter_map(|(e, t)| {
                let to = output::inside(out, t).ok()?;
                Some((FileRef::archive_root(&e.package), Some(e.name.clone()), to))
            })
            .collect();
        match crate::cli::maptools_preview::render_previews(
            &jobs,
            PREVIEW_SIZE,
            &options.data_roots,
        ) {
            Ok(failures) => {
                for (what, e) in &failures {
                    eprintln!("warning: {what}: preview: {e}");
                }
                written = jobs
                    .into_iter()
                    .map(|(_, _, to)| to)
                    .filter(|to| to.is_file())
                    .collect();
            }
            Err(e) => eprintln!("warning: no previews: {e} (the tiles have no pictures)"),
        }
    }
    let encode = crate::files::percent_encode;
    let tiles = entries
        .iter()
        .zip(thumbs)
        .map(|(e, thumb)| Tile {
            id: e.site_package.clone(),
            name: e.name.clone(),
            thumb: written.contains(&out.join(&thumb)).then_some(thumb),
            link: format!(
                "view.html?url={}&data=site.wz#model={}",
                encode(&e.site_package),
                encode(&e.id)
            ),
            facts: e.facts.lines(),
        })
        .collect();
    (tiles, written)
}

/// `index.html` and `site.json`.
fn write_pages(
    args: &PublishArgs,
    out: &Path,
    tiles: &[Tile],
    entries: &[Entry],
    data: &Collected,
) -> Result<(), String> {
    let title = args.title.clone().unwrap_or_else(|| {
        args.inputs
            .first()
            .map(|p| crate::files::file_name(p))
            .unwrap_or_else(|| "Maps".into())
    });
    let text = gallery_html::PageText {
        title,
        author: args.author.clone(),
        licence: args.licence.clone(),
        generator: super::generator(),
    };
    let html = gallery_html::page(
        &text,
        &gallery_html::Sections {
            maps: tiles,
            ..Default::default()
        },
    );
    let maps: Vec<serde_json::Value> = tiles
        .iter()
        .zip(entries)
        .map(|(t, e)| {
            serde_json::json!({
                "path": e.site_package, "map": e.id, "name": t.name, "thumb": t.thumb,
                "link": t.link, "players": e.facts.players, "tileset": e.facts.tileset,
                "author": e.facts.author, "licence": e.facts.licence,
                "created": e.facts.created, "mapdb": e.facts.mapdb,
            })
        })
        .collect();
    let json = serde_json::json!({
        "generator": text.generator,
        "title": text.title,
        "author": text.author,
        "licence": text.licence,
        "models": [], "templates": [], "structures": [],
        "maps": maps,
        "files": data.files.keys().collect::<Vec<_>>(),
    });
    let json = serde_json::to_vec_pretty(&json).unwrap_or_default();
    output::write(out, "index.html", html.as_bytes())?;
    output::write(out, "site.json", &json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_maps_facts_read_from_level_json_make_its_tile_lines() {
        let f = Facts {
            players: Some(2),
            tileset: "Rockies".into(),
            author: Some("A, B".into()),
            licence: Some("CC0-1.0".into()),
            created: Some("2018-11-03 22:00:10".into()),
            mapdb: vec![],
        };
        assert_eq!(
            f.lines(),
            [
                "2 players · Rockies",
                "by A, B",
                "CC0-1.0 · 2018-11-03",
                "database: accepted"
            ]
        );
        let finding = |level| Verdict {
            rule: "mapdb/x",
            level,
            message: String::new(),
        };
        let bare = Facts {
            tileset: "Arizona".into(),
            mapdb: vec![finding("warning"), finding("error"), finding("warning")],
            ..Facts::default()
        };
        assert_eq!(
            bare.lines(),
            ["Arizona", "database: refused · 1 error · 2 warnings"]
        );
    }
}
