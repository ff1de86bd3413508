//! What a published site needs: every input model, and exactly the files the core read
//! or resolved for them and for the mod's own droid templates and structures.
//!
//! No format is special-cased here. Everything is loaded with the core over the layered
//! roots (the inputs first, then `--data` roots in order, as the game layers a mod over
//! mp over base) through a [`Files::recording`] copy, so the list of files is what the
//! loaders, the stats reader and the assembler actually read (models, sidecars, stats
//! JSON and its `diffs/` patches, part models), plus what the models resolved without
//! reading (texture pages of every role, `EVENT` models, which are loaded in turn).
//!
//! Each file goes into `site.wz` at its path inside the root it came from ([`Roots`]):
//! a `.wz` input's entries keep their paths, a folder input's and a data folder's files
//! their paths below it, loose model files their paths below the folder they and the
//! files found for them share. A file under no root (or reached through a link that
//! leaves its root) is never published: it is a problem naming the model.

use crate::files::{FileRef, Files};
use crate::formats::LoadOptions;
use crate::model::Model;
use crate::wz::{self, Design, PartFinder, Stats, TurretPose};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use vitrine_core::formats;

/// One tile of the site: a model file, or an assembled template or structure.
#[derive(Debug)]
pub struct Item {
    /// The model's path in `site.wz`, or the template's or structure's stats id.
    pub id: String,
    /// What the tile says: the file name, or the stats' human name.
    pub name: String,
    /// The model (for its thumbnail).
    pub model: Model,
    /// What it resolved, as lines over site paths ([`model_lines`], [`assembly_lines`]):
    /// the same lines must come back when it is loaded from `site.wz` alone.
    pub expected: Vec<String>,
}

/// What [`collect`] found.
#[derive(Debug, Default)]
pub struct Collected {
    /// `site.wz` path → the file it is copied from.
    pub files: BTreeMap<String, FileRef>,
    /// Input models, in walk order.
    pub models: Vec<Item>,
    /// The mod's droid templates.
    pub templates: Vec<Item>,
    /// The mod's structures.
    pub structures: Vec<Item>,
    /// Warzone 2100 maps among the inputs (each `game.map` or script map's `game.js`,
    /// loaded as its scene over the roots), in walk order; `id` is that file's path in
    /// `site.wz`, `name` the
    /// level's name.
    pub maps: Vec<Item>,
    /// Errors: inputs that do not load, files outside every root; each names its model.
    pub problems: Vec<String>,
    /// Warnings: missing textures, incomplete assemblies, stats that do not parse.
    pub warnings: Vec<String>,
}

/// A root files are published relative to.
#[derive(Debug, Clone)]
enum Root {
    /// A folder: its absolute path (`..` folded) and its real path (links resolved).
    Folder { path: PathBuf, real: PathBuf },
    /// A folder inside an archive: the archive's absolute path and the folder's entry
    /// prefix (`""` or `data/mp/`).
    Archive { archive: PathBuf, prefix: String },
}

/// The roots of a publish, in order: inputs first, then data roots.
#[derive(Debug, Default)]
pub struct Roots {
    list: Vec<Root>,
}

impl Roots {
    fn push(&mut self, r: &FileRef) {
        match r {
            FileRef::Disk(p) => {
                let path = absolute(p);
                let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                self.list.push(Root::Folder { path, real });
            }
            FileRef::Entry { archive, path } => {
                let prefix = if path.is_empty() {
                    String::new()
                } else {
                    format!("{path}/")
                };
                self.list.push(Root::Archive {
                    archive: absolute(archive),
                    prefix,
                });
            }
            FileRef::Embedded { .. } => {}
        }
    }

    /// Where `file` goes in `site.wz`: its path below the first root that holds it.
    ///
    /// # Errors
    /// A file under no root, one whose real path (links resolved) leaves the root it is
    /// under, or a name that is not UTF-8.
    pub fn site_path(&self, file: &FileRef) -> Result<String, String> {
        match file {
            FileRef::Embedded { file, .. } => self.site_path(file),
            FileRef::Entry { archive, path } => {
                let archive = absolute(archive);
                self.list
                    .iter()
                    .find_map(|r| match r {
                        Root::Archive { archive: a, prefix } if *a == archive => {
                            path.strip_prefix(prefix.as_str()).map(str::to_string)
                        }
                        _ => None,
                    })
                    .ok_or_else(|| format!("{file} is in none of the inputs and data roots"))
            }
            FileRef::Disk(p) => {
                let abs = absolute(p);
                for r in &self.list {
                    let Root::Folder { path, real } = r else {
                        continue;
                    };
                    let Ok(rel) = abs.strip_prefix(path) else {
                        continue;
                    };
                    let real_file = std::fs::canonicalize(&abs)
                        .map_err(|e| format!("{}: {e}", abs.display()))?;
                    if !real_file.starts_with(real) {
                        return Err(format!(
                            "{} is a link to {}, outside {}; not published",
                            abs.display(),
                            real_file.display(),
                            path.display()
                        ));
                    }
                    let parts: Option<Vec<&str>> =
                        rel.components().map(|c| c.as_os_str().to_str()).collect();
                    return parts.map(|p| p.join("/")).ok_or_else(|| {
                        format!("{}: a name that is not UTF-8; not published", abs.display())
                    });
                }
                Err(format!(
                    "{} is in none of the inputs and data roots; not published",
                    abs.display()
                ))
            }
        }
    }
}

/// `p` made absolute against the working folder, `.` and `..` folded without reading
/// the disk (so a link is never followed to name a root).
fn absolute(p: &Path) -> PathBuf {
    crate::files::absolute_folded(p)
}

/// The deepest folder holding every path of `paths` (absolute, folded).
fn common_folder(paths: &[PathBuf]) -> Option<PathBuf> {
    let mut it = paths.iter();
    let mut base = it.next()?.clone();
    for p in it {
        while !p.starts_with(&base) {
            if !base.pop() {
                return None;
            }
        }
    }
    Some(base)
}

/// Lines saying what `model` resolved, each file as `site` names it: texture pages by
/// role and name, `EVENT` models.
pub fn model_lines(model: &Model, site: &dyn Fn(&FileRef) -> String) -> Vec<String> {
    let mut lines: Vec<String> = model
        .textures
        .iter()
        .map(|t| {
            let to = t.resolved.as_ref().map_or_else(|| "MISSING".into(), site);
            format!("{} texture {} → {to}", t.role.name(), t.name)
        })
        .collect();
    lines.extend(model.events.iter().map(|e| {
        let to = e.resolved.as_ref().map_or_else(|| "MISSING".into(), site);
        format!("event model {} → {to}", e.file)
    }));
    lines.sort();
    lines.dedup();
    lines
}

/// [`model_lines`] of an assembly, plus each part's file.
pub fn assembly_lines(a: &wz::Assembly, site: &dyn Fn(&FileRef) -> String) -> Vec<String> {
    let mut lines = model_lines(&a.model, site);
    lines.extend(a.parts.iter().map(|p| {
        let to = p.file.as_ref().map_or_else(|| "MISSING".into(), site);
        format!("{} part {} → {to}", p.role, p.model_name)
    }));
    lines
}

/// Loads the inputs and the mod's designs over `data` and lists the files they need.
pub fn collect(inputs: &[PathBuf], options: &LoadOptions) -> Collected {
    let mut out = Collected::default();
    // Models, and maps: a map's `game.map` (a script map's `game.js`) loads as its scene,
    // and what it reads (its other files, the level file, the stats, the objects' models,
    // the tiles) is recorded like a model's.
    let mut walk = crate::files::walk::walk(inputs, |name| {
        crate::formats::is_model_name(name) || vitrine_core::map::is_map_file_name(name)
    });
    // A folder's `game.map` and `game.js` are one map: the game runs the script.
    vitrine_core::map::drop_shadowed_game_maps(&mut walk.files);
    crate::cli::print_walk_warnings(&walk);
    for (path, e) in &walk.errors {
        out.problems.push(format!("{path}: {e}"));
    }

    // The inputs' own roots: folders, archives (an entry's archive from its root).
    let mut input_roots: Vec<FileRef> = Vec::new();
    // The roots whose stats are the mod's: folders and archives given whole or by a
    // folder (one model picked out of an archive brings no designs).
    let mut stats_roots: Vec<FileRef> = Vec::new();
    let mut loose: Vec<PathBuf> = Vec::new();
    for i in inputs {
        let r = crate::files::parse(i);
        if crate::files::is_dir(&r) {
            let whole = match &r {
                FileRef::Entry { archive, .. } => FileRef::archive_root(archive),
                r => r.clone(),
            };
            if !stats_roots.contains(&whole) {
                stats_roots.push(whole);
            }
        }
        let root = match &r {
            FileRef::Entry { archive, .. } => Some(FileRef::archive_root(archive)),
            FileRef::Disk(p) if crate::files::is_dir(&r) => Some(FileRef::Disk(p.clone())),
            FileRef::Disk(p) => {
                loose.push(absolute(p));
                None
            }
            FileRef::Embedded { .. } => None,
        };
        if let Some(root) = root
            && !input_roots.contains(&root)
        {
            input_roots.push(root);
        }
    }
    let all_roots: Vec<FileRef> = input_roots
        .iter()
        .chain(&options.data_roots)
        .cloned()
        .collect();
    let options = LoadOptions {
        data_roots: all_roots.clone(),
        ..options.clone()
    };

    let rec = crate::files::disk().recording();
    let mut resolved: BTreeSet<FileRef> = BTreeSet::new();
    let mut loaded: Vec<(FileRef, Model)> = Vec::new();
    for file in &walk.files {
        match load_with_events(&rec, file, &options, &mut resolved) {
            Ok(m) => {
                for d in &m.diagnostics {
                    out.warnings.push(d.display_with(&file.to_string()));
                }
                loaded.push((file.clone(), m));
            }
            Err(e) => out.problems.push(e),
        }
    }

    // The mod's own templates and structures: those its inputs' stats define.
    let (mod_stats, _) = Stats::load(crate::files::disk(), &stats_roots);
    let mut designs: Vec<(Design, String)> = Vec::new();
    if mod_stats.templates.source.is_some() || mod_stats.structures.source.is_some() {
        for t in &mod_stats.templates.entries {
            designs.push((Design::Template { id: t.id.clone() }, t.name.clone()));
        }
        for s in &mod_stats.structures.entries {
            designs.push((Design::Structure { id: s.id.clone() }, s.name.clone()));
        }
    }
    let mut assemblies = Vec::new();
    if !designs.is_empty() {
        let (stats, warnings) = Stats::load(&rec, &all_roots);
        out.warnings.extend(warnings.iter().map(|w| w.to_string()));
        let mut finder = PartFinder::new(&rec, &all_roots);
        for (design, name) in designs {
            match wz::assemble(&stats, &mut finder, &design, TurretPose::default()) {
                Ok(a) => {
                    for w in &a.warnings {
                        out.warnings.push(format!("{}: {w}", design.to_line()));
                    }
                    for t in &a.model.textures {
                        resolved.extend(t.resolved.clone());
                    }
                    for p in &a.parts {
                        if let Some(f) = &p.file {
                            // A part's EVENT models (a cyborg's run cycle).
                            let _ = load_with_events(&rec, f, &options, &mut resolved);
                        }
                    }
                    assemblies.push((design, name, a));
                }
                Err(e) => out.warnings.push(format!("{}: {e}", design.to_line())),
            }
        }
    }

    // Every file read or resolved, under its root.
    // The same file reached by a relative and an absolute path (`--data ../base` and a
    // part found through an absolute root) is one file.
    let needed: BTreeSet<FileRef> = rec
        .recorded()
        .into_iter()
        .chain(resolved)
        .map(|f| f.with_disk_file(&absolute))
        .collect();
    let mut roots = Roots::default();
    for r in &input_roots {
        roots.push(r);
    }
    if !loose.is_empty() {
        // Loose models: below the folder they and the files found for them share (the
        // core finds pages beside a model or in an ancestor's `texpages/`).
        let mut under: Vec<PathBuf> = loose
            .iter()
            .map(|p| p.parent().map(Path::to_path_buf).unwrap_or_default())
            .collect();
        let mut others = Roots::default();
        for r in &all_roots {
            others.push(r);
        }
        for f in &needed {
            if let FileRef::Disk(p) = f
                && others.site_path(f).is_err()
            {
                under.push(absolute(p.parent().unwrap_or(Path::new(""))));
            }
        }
        if let Some(base) = common_folder(&under) {
            roots.push(&FileRef::Disk(base));
        }
    }
    for r in &options.data_roots[input_roots.len()..] {
        roots.push(r);
    }
    for f in &needed {
        match roots.site_path(f) {
            Ok(p) if p.is_empty() => {}
            Ok(p) => {
                let holder = match f {
                    FileRef::Embedded { file, .. } => (**file).clone(),
                    f => f.clone(),
                };
                if let Some(prev) = out.files.get(&p)
                    && *prev != holder
                {
                    out.problems.push(format!(
                        "{p}: both {prev} and {holder} are needed at this path; {prev} is published"
                    ));
                    continue;
                }
                out.files.insert(p, holder);
            }
            Err(e) => out.problems.push(e),
        }
    }

    let site = |f: &FileRef| roots.site_path(f).unwrap_or_else(|e| format!("({e})"));
    // The parts of a PangYa character each load the whole character: one tile, on its
    // first part (the others are in site.wz all the same, read by that load).
    let grouped: BTreeSet<FileRef> =
        crate::cli::render::output_names(&walk.files, &FileRef::Disk(PathBuf::new()))
            .into_iter()
            .flat_map(|item| item.grouped)
            .collect();
    for (file, model) in loaded {
        let Ok(id) = roots.site_path(&file) else {
            continue;
        };
        if grouped.contains(&file) {
            continue;
        }
        let (list, name) = match &model.details {
            crate::model::Details::Map(map) => (&mut out.maps, map.name.clone()),
            _ => (&mut out.models, file.file_name()),
        };
        list.push(Item {
            name,
            expected: model_lines(&model, &site),
            id,
            model,
        });
    }
    for (design, name, a) in assemblies {
        let item = |id: &str| Item {
            id: id.to_string(),
            name: if name.is_empty() {
                id.to_string()
            } else {
                name
            },
            expected: assembly_lines(&a, &site),
            model: a.model,
        };
        match &design {
            Design::Template { id } => out.templates.push(item(id)),
            Design::Structure { id } => out.structures.push(item(id)),
            Design::Parts(_) => {}
        }
    }
    out
}

/// Loads `file` through `files` and, in turn, the `EVENT` models it names; adds every
/// texture and event file they resolved to `resolved`.
fn load_with_events(
    files: &Files,
    file: &FileRef,
    options: &LoadOptions,
    resolved: &mut BTreeSet<FileRef>,
) -> Result<Model, String> {
    let model = crate::cli::catch_per_file(file, || {
        formats::load(files, file, options).map_err(|e| e.to_string())
    })?;
    let mut queue: Vec<FileRef> = Vec::new();
    let note = |m: &Model, queue: &mut Vec<FileRef>, resolved: &mut BTreeSet<FileRef>| {
        resolved.extend(m.textures.iter().filter_map(|t| t.resolved.clone()));
        for e in m.events.iter().filter_map(|e| e.resolved.clone()) {
            if resolved.insert(e.clone()) {
                queue.push(e);
            }
        }
    };
    note(&model, &mut queue, resolved);
    while let Some(e) = queue.pop() {
        if let Ok(m) = formats::load(files, &e, options) {
            note(&m, &mut queue, resolved);
        }
    }
    Ok(model)
}
