//! Reading and checking files: the one place `check` loads models (bytes from the
//! [`Files`] the checker is given, parsed by [`crate::formats::parse`]) and looks textures up in the
//! data roots the way the game does (`texpages/` of the mod, then of each data root).

use super::model_rules::{self, load_error_finding};
use super::{Element, Finding};
use crate::files::{EntryKind, FileRef, Files, Lookup};
use crate::formats::{self, LoadOptions};
use crate::model::{Format, Location, Model, TextureRef, TextureRole};

/// What a check run is given.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Data roots searched after the checked file's own tree, in order (a mod over `mp`
    /// over `base`): folders or `.wz` archives.
    pub data_roots: Vec<FileRef>,
    /// Rules whose findings are dropped.
    pub allow: Vec<String>,
}

/// Checks files, caching folder listings across them.
#[derive(Debug)]
pub struct Checker {
    /// The options.
    pub options: CheckOptions,
    lookup: Lookup,
    resolver: formats::resolve::Resolver,
    /// Texture pages read once: `Err` says why the game cannot decode one.
    pages: std::collections::HashMap<FileRef, Result<(), String>>,
}

/// One checked file: its findings and, when it loaded, the model.
#[derive(Debug)]
pub struct Checked {
    /// Findings, in file order.
    pub findings: Vec<Finding>,
    /// The model, when the file loaded.
    pub model: Option<Model>,
}

impl Checker {
    /// A checker reading from `files`, with these options.
    pub fn new(files: &Files, options: CheckOptions) -> Checker {
        Checker {
            options,
            lookup: Lookup::new(files),
            resolver: formats::resolve::Resolver::new(files),
            pages: std::collections::HashMap::new(),
        }
    }

    /// Whether `rule` is allowed (its findings dropped).
    pub fn allowed(&self, rule: &str) -> bool {
        self.options.allow.iter().any(|a| a == rule)
    }

    /// Reads, parses and checks one model file.
    pub fn check_file(&mut self, file: &FileRef) -> Checked {
        let name = file.to_string();
        let format = formats::format_for_path(std::path::Path::new(&file.file_name()));
        // glTF buffers and images and OBJ material libraries may be files beside it:
        // those read them through `files` themselves (textures resolved on the way).
        let beside = matches!(format, Some(Format::Gltf | Format::Obj));
        let files = self.lookup.files().clone();
        let result = if beside {
            formats::load(&files, file, &LoadOptions::default())
        } else {
            files
                .read(file)
                .map_err(|e| {
                    formats::LoadError::new(formats::ErrorKind::Io, Location::File, e.to_string())
                })
                .and_then(|bytes| {
                    let Some(format) = format else {
                        return Err(formats::LoadError::new(
                            formats::ErrorKind::Unsupported,
                            Location::File,
                            "not a model file this viewer reads",
                        ));
                    };
                    formats::parse(format, &bytes, &name, &LoadOptions::default())
                })
        };
        let (mut findings, model) = match result {
            Ok(model) => (self.check_model(&model, file), Some(model)),
            Err(e) => (vec![load_error_finding(format, &e, &name)], None),
        };
        findings.retain(|f| !self.allowed(f.rule));
        Checked { findings, model }
    }

    /// The findings on a loaded `model` read from `file` (allowed rules kept: the caller
    /// filters).
    pub(crate) fn check_model(&mut self, model: &Model, file: &FileRef) -> Vec<Finding> {
        let roots = self.texture_dirs(file);
        let shown = file.to_string();
        let lookup = &mut self.lookup;
        let mut probe = |t: &TextureRef| find_texture(lookup, &roots, t).is_some();
        let mut findings = model_rules::check_model(model, &shown, Some(&mut probe));
        findings.extend(self.pie_files(model, file, &shown, &roots));
        findings
    }

    /// PIE: texture pages that are there but cannot be decoded, and EVENT models found
    /// nowhere — the game gives the model up for both.
    fn pie_files(
        &mut self,
        model: &Model,
        file: &FileRef,
        shown: &str,
        dirs: &[FileRef],
    ) -> Vec<Finding> {
        let mut out = Vec::new();
        if model.format != crate::model::Format::Pie {
            return out;
        }
        for (i, t) in model.textures.iter().enumerate() {
            let Some(page) = find_texture(&mut self.lookup, dirs, t) else {
                continue;
            };
            // The game-as-judge evidence is for the arizona page (tileset 0).
            if t.tileset.unwrap_or(0) == 0 && !same_page(&t.name, &page.file_name()) {
                out.push(Finding::new(
                    "pie/texture-page-number",
                    shown,
                    model.source.texture_location(&t.name),
                    Element::Texture { texture: i },
                    format!(
                        "texture page \"{}\" is not in texpages/; only {} has its number, which \
                         the game uses only if it is already loaded",
                        t.name,
                        page.file_name()
                    ),
                ));
            }
            let files = self.lookup.files();
            let verdict = self
                .pages
                .entry(page.clone())
                .or_insert_with(|| decodable(files, &page));
            if let Err(why) = verdict {
                out.push(Finding::new(
                    "pie/texture-undecodable",
                    shown,
                    model.source.texture_location(&t.name),
                    Element::Texture { texture: i },
                    format!(
                        "texture page \"{}\" ({page}) cannot be decoded: {why}",
                        t.name
                    ),
                ));
            }
        }
        for e in &model.events {
            if self
                .resolver
                .model_file(&e.file, file, &self.options.data_roots)
                .is_none()
            {
                out.push(Finding::new(
                    "pie/event-missing",
                    shown,
                    Location::File,
                    Element::File,
                    format!(
                        "EVENT {} model \"{}\" is in none of the game's model folders",
                        e.kind, e.file
                    ),
                ));
            }
        }
        out
    }

    /// Parses and checks `bytes` of `format` that were just written (not yet on disk),
    /// named `shown` in messages; texture pages are looked up from each file of `near`
    /// (the input's place and the output's) and the data roots. Allowed rules dropped.
    pub fn check_bytes(
        &mut self,
        format: crate::model::Format,
        bytes: &[u8],
        shown: &str,
        near: &[FileRef],
    ) -> Checked {
        let mut roots: Vec<FileRef> = Vec::new();
        for f in near {
            for d in self.texture_dirs(f) {
                if !roots.contains(&d) {
                    roots.push(d);
                }
            }
        }
        let (mut findings, model) =
            match formats::parse(format, bytes, shown, &LoadOptions::default()) {
                Ok(model) => {
                    let lookup = &mut self.lookup;
                    let mut probe = |t: &TextureRef| find_texture(lookup, &roots, t).is_some();
                    let mut found = model_rules::check_model(&model, shown, Some(&mut probe));
                    if let Some(input) = near.first() {
                        found.extend(self.pie_files(&model, input, shown, &roots));
                    }
                    (found, Some(model))
                }
                Err(e) => (vec![load_error_finding(Some(format), &e, shown)], None),
            };
        findings.retain(|f| !self.allowed(f.rule));
        Checked { findings, model }
    }

    /// The mod-level findings of each input that is a mod (a folder or archive with
    /// `stats/` at its root), over the data roots; allowed rules dropped.
    pub fn check_mods(&mut self, inputs: &[std::path::PathBuf]) -> Vec<Finding> {
        let mut out = Vec::new();
        for input in inputs {
            let root = self.lookup.files().parse(input);
            if self.lookup.files().is_dir(&root)
                && super::wz_stats::has_stats(&mut self.lookup, &root)
            {
                let roots = self.options.data_roots.clone();
                out.extend(super::wz_stats::check_mod(&mut self.lookup, &root, &roots));
            }
        }
        out.retain(|f| !self.allowed(f.rule));
        out
    }

    /// `texpages/` folders searched for `file`'s textures: in each ancestor (and its
    /// `base/`, `mp/`), then in each data root.
    fn texture_dirs(&mut self, file: &FileRef) -> Vec<FileRef> {
        let mut dirs = Vec::new();
        let parent = file.parent();
        let ancestors = parent.iter().flat_map(FileRef::ancestors);
        let roots = self.options.data_roots.clone();
        for dir in ancestors.chain(roots) {
            for sub in [
                &["texpages"][..],
                &["base", "texpages"],
                &["mp", "texpages"],
            ] {
                if let Some(d) = walk_dir(&mut self.lookup, &dir, sub)
                    && !dirs.contains(&d)
                {
                    dirs.push(d);
                }
            }
        }
        dirs
    }
}

/// Follows folder names from `dir` (case-insensitively); the result must be a folder.
fn walk_dir(lookup: &mut Lookup, dir: &FileRef, components: &[&str]) -> Option<FileRef> {
    let mut cur = dir.clone();
    for c in components {
        let (next, kind) = lookup.child(&cur, c)?;
        if kind != EntryKind::Dir {
            return None;
        }
        cur = next;
    }
    Some(cur)
}

/// Whether `t` is in one of `dirs`: its exact name (any case), a `.pcx` name as `.png`,
/// or, for a base page, any page with the same `page-NN` number (old engines matched
/// pages by that prefix).
fn find_texture(lookup: &mut Lookup, dirs: &[FileRef], t: &TextureRef) -> Option<FileRef> {
    let bare = t
        .name
        .rsplit(['\\', '/'])
        .next()
        .unwrap_or(&t.name)
        .to_lowercase();
    let png = bare
        .strip_suffix(".pcx")
        .map(|s| format!("{s}.png"))
        .unwrap_or_else(|| bare.clone());
    let prefix = (t.role == TextureRole::Base)
        .then(|| page_number(&bare))
        .flatten();
    // The exact name in any folder first (the game looks it up through every data root),
    // then a page of the same number.
    let exact = dirs.iter().find_map(|d| {
        lookup.listing(d).iter().find_map(|(n, f, k)| {
            let hit = *k == EntryKind::File && (*n == bare || *n == png);
            hit.then(|| f.clone())
        })
    });
    exact.or_else(|| {
        let p = prefix?;
        dirs.iter().find_map(|d| {
            lookup.listing(d).iter().find_map(|(n, f, k)| {
                let hit = *k == EntryKind::File
                    && n.ends_with(".png")
                    && n.strip_prefix(p.as_str())
                        .is_some_and(|r| r.starts_with('-') || r == ".png");
                hit.then(|| f.clone())
            })
        })
    })
}

/// Whether the game can decode `page`: a readable image header within the limits the
/// viewer decodes with (`formats::texture::check_size`: 16384 pixels a side and 512 MiB
/// as RGBA — one limit, so `check` and the view never disagree about a page). The pixels
/// are not decoded (that would cost a full decode of every page per check run).
fn decodable(files: &Files, page: &FileRef) -> Result<(), String> {
    let bytes = files.read(page).map_err(|e| e.to_string())?;
    if page.file_name().to_ascii_lowercase().ends_with(".pcx") {
        return Ok(());
    }
    let (w, h) = crate::formats::texture::header_dimensions(&bytes)?;
    if w == 0 || h == 0 {
        return Err(format!("it declares {w}×{h} pixels"));
    }
    crate::formats::texture::check_size(w, h).map_err(|e| format!("it declares {e}"))
}

/// Whether the page file `found` is the page `name` asks for (any case; a `.pcx` name
/// as its `.png`), not one found by its `page-NN` number only.
fn same_page(name: &str, found: &str) -> bool {
    let bare = name
        .rsplit(['\\', '/'])
        .next()
        .unwrap_or(name)
        .to_lowercase();
    let found = found.to_lowercase();
    found == bare
        || bare
            .strip_suffix(".pcx")
            .is_some_and(|s| found == format!("{s}.png"))
}

/// `page-12` of `page-12-anything.png`.
fn page_number(name: &str) -> Option<String> {
    let rest = name.strip_prefix("page-")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| format!("page-{}", &rest[..digits]))
}

/// A finding for a walk error (an input that could not be read).
pub fn walk_error(path: &str, message: &str) -> Finding {
    Finding::new(
        "load/unreadable",
        path,
        Location::File,
        Element::File,
        message.to_string(),
    )
}

/// A finding for a walk warning: an archive entry that is not read (a duplicate name,
/// a name that leaves the archive or is also a folder).
pub fn walk_warning(path: &str, message: &str) -> Finding {
    Finding::new(
        "archive/ignored-entry",
        path,
        Location::File,
        Element::File,
        message.to_string(),
    )
}
