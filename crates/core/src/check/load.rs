//! Reading and checking files: the one place `check` loads models (bytes through
//! [`crate::files`], parsed by [`crate::formats::parse`]) and looks textures up in the
//! data roots the way the game does (`texpages/` of the mod, then of each data root).

use super::model_rules::{self, load_error_finding};
use super::{Element, Finding};
use crate::files::{self, EntryKind, FileRef, Lookup};
use crate::formats::{self, LoadOptions};
use crate::model::{Location, Model, TextureRef, TextureRole};

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
#[derive(Debug, Default)]
pub struct Checker {
    /// The options.
    pub options: CheckOptions,
    lookup: Lookup,
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
    /// A checker with these options.
    pub fn new(options: CheckOptions) -> Checker {
        Checker {
            options,
            lookup: Lookup::new(),
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
        let result = files::read(file)
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
            });
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
        let lookup = &mut self.lookup;
        let mut probe = |t: &TextureRef| find_texture(lookup, &roots, t);
        model_rules::check_model(model, &file.to_string(), Some(&mut probe))
    }

    /// The mod-level findings of each input that is a mod (a folder or archive with
    /// `stats/` at its root), over the data roots; allowed rules dropped.
    pub fn check_mods(&mut self, inputs: &[std::path::PathBuf]) -> Vec<Finding> {
        let mut out = Vec::new();
        for input in inputs {
            let root = FileRef::parse(input);
            if files::is_dir(&root) && super::wz_stats::has_stats(&mut self.lookup, &root) {
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
fn find_texture(lookup: &mut Lookup, dirs: &[FileRef], t: &TextureRef) -> bool {
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
    dirs.iter().any(|d| {
        lookup.listing(d).iter().any(|(n, _, k)| {
            *k == EntryKind::File
                && (*n == bare
                    || *n == png
                    || prefix.as_deref().is_some_and(|p| {
                        n.ends_with(".png")
                            && n.strip_prefix(p)
                                .is_some_and(|r| r.starts_with('-') || r == ".png")
                    }))
        })
    })
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
