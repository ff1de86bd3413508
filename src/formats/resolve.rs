//! Finding the files a model names: textures and event models. Shared by every format.
//!
//! Texture names are matched case-insensitively (they come from Windows and DOS tools).
//! Search order for a name (Windows `\` or `/` separated, possibly with folders):
//! 1. each user texture root, with the whole relative path, then the bare name;
//! 2. the model's own folder (relative path, then bare name);
//! 3. `texpages/`, `base/texpages/` and `mp/texpages/` in the model's folder and in each
//!    of its ancestors (Warzone 2100's `data/base`, `data/mp` layout).
//!
//! In each folder the exact name wins; then a `.pcx` name also tries `.png`; then a PIE
//! page name `page-NN…` matches any `page-NN-….png` / `page-NN.png` (how old engines
//! found renamed pages).

use super::LoadOptions;
use crate::model::{Model, TextureRole};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Warzone 2100's model folders (relative to `data/base` or `data/mp`), searched for
/// `EVENT` models.
const WZ_MODEL_DIRS: &[&str] = &[
    "structs",
    "misc",
    "effects",
    "components/prop",
    "components/weapons",
    "components/bodies",
    "features",
    "misc/micnum",
    "misc/minum",
    "misc/mivnum",
    "misc/researchimds",
];

/// Caches folder listings so a batch of models does not list `texpages/` every time.
#[derive(Debug, Default)]
pub struct Resolver {
    listings: HashMap<PathBuf, Vec<(String, PathBuf)>>,
}

impl Resolver {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// `(lower-case name, path)` of the entries of `dir` (empty if unreadable).
    fn listing(&mut self, dir: &Path) -> &[(String, PathBuf)] {
        self.listings.entry(dir.to_path_buf()).or_insert_with(|| {
            let mut v: Vec<_> = std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| (e.file_name().to_string_lossy().to_lowercase(), e.path()))
                .collect();
            v.sort();
            v
        })
    }

    /// Follows `components` from `dir`, matching each case-insensitively.
    fn walk(&mut self, dir: &Path, components: &[&str]) -> Option<PathBuf> {
        let mut cur = dir.to_path_buf();
        for c in components {
            let want = c.to_lowercase();
            let next = self
                .listing(&cur)
                .iter()
                .find(|(n, _)| *n == want)
                .map(|(_, p)| p.clone())?;
            cur = next;
        }
        cur.is_file().then_some(cur)
    }

    /// Looks for the bare `file` (already lower-case) in `dir`, with the `.pcx` and
    /// `page-NN` fallbacks.
    fn find_in(&mut self, dir: &Path, file: &str, page_prefix: bool) -> Option<PathBuf> {
        let listing = self.listing(dir);
        if let Some((_, p)) = listing.iter().find(|(n, _)| n == file) {
            return Some(p.clone());
        }
        if let Some(stem) = file.strip_suffix(".pcx") {
            let png = format!("{stem}.png");
            if let Some((_, p)) = listing.iter().find(|(n, _)| *n == png) {
                return Some(p.clone());
            }
        }
        if page_prefix && let Some(prefix) = page_number_prefix(file) {
            return listing
                .iter()
                .find(|(n, _)| {
                    n.ends_with(".png")
                        && n.strip_prefix(prefix.as_str())
                            .is_some_and(|rest| rest.starts_with('-') || rest == ".png")
                })
                .map(|(_, p)| p.clone());
        }
        None
    }

    /// Resolves a texture `name` for the model at `model_path`.
    pub fn texture(
        &mut self,
        name: &str,
        model_path: &Path,
        roots: &[PathBuf],
        page_prefix: bool,
    ) -> Option<PathBuf> {
        let components: Vec<&str> = name
            .split(['\\', '/'])
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        let bare = components.last()?.to_lowercase();
        let model_dir = model_dir(model_path);
        let model_dir = model_dir.as_path();
        let mut dirs: Vec<PathBuf> = roots.to_vec();
        dirs.push(model_dir.to_path_buf());
        for dir in &dirs {
            if components.len() > 1
                && let Some(p) = self.walk(dir, &components)
            {
                return Some(p);
            }
            if let Some(p) = self.find_in(dir, &bare, page_prefix) {
                return Some(p);
            }
        }
        for ancestor in model_dir.ancestors() {
            for sub in ["texpages", "base/texpages", "mp/texpages"] {
                let dir = ancestor.join(sub);
                if dir.is_dir()
                    && let Some(p) = self.find_in(&dir, &bare, page_prefix)
                {
                    return Some(p);
                }
            }
        }
        None
    }

    /// Resolves a model file named by another model (PIE `EVENT`): the model's folder,
    /// then Warzone 2100's model folders in each ancestor (`mp` before `base`).
    pub fn model_file(&mut self, name: &str, model_path: &Path) -> Option<PathBuf> {
        let bare = name.rsplit(['\\', '/']).next()?.to_lowercase();
        let model_dir = model_dir(model_path);
        let model_dir = model_dir.as_path();
        if let Some(p) = self.find_in(model_dir, &bare, false) {
            return Some(p);
        }
        for ancestor in model_dir.ancestors() {
            for layer in ["", "mp", "base"] {
                for sub in WZ_MODEL_DIRS {
                    let dir = ancestor.join(layer).join(sub);
                    if dir.is_dir()
                        && let Some(p) = self.find_in(&dir, &bare, false)
                    {
                        return Some(p);
                    }
                }
            }
        }
        None
    }
}

/// The folder a model file is in, absolute where possible, so that the ancestor search
/// (`texpages/` beside a parent folder) also works for `vitrine render body.pie` run in
/// the model's own folder.
fn model_dir(model_path: &Path) -> PathBuf {
    let parent = match model_path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf())
}

/// `page-12` for `page-12-player-buildings.png` or `page-12.png`; `None` otherwise.
fn page_number_prefix(file: &str) -> Option<String> {
    let rest = file.strip_prefix("page-")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| format!("page-{}", &rest[..digits]))
}

/// Resolves every texture and event file of `model`, loaded from `path`; a texture that
/// cannot be found gets a warning (the renderer shows a checkerboard).
pub fn resolve_model(model: &mut Model, path: &Path, options: &LoadOptions) {
    resolve_model_with(&mut Resolver::new(), model, path, options);
}

/// [`resolve_model`] with a caller-owned cache (batch rendering).
pub fn resolve_model_with(
    resolver: &mut Resolver,
    model: &mut Model,
    path: &Path,
    options: &LoadOptions,
) {
    let mut missing = Vec::new();
    for t in &mut model.textures {
        // The page-NN fallback is for diffuse pages; masks must match their own name.
        let page_prefix = t.role == TextureRole::Base;
        t.resolved = resolver.texture(&t.name, path, &options.texture_roots, page_prefix);
        if t.resolved.is_none() {
            missing.push(format!(
                "{:?} texture {} not found; showing a checkerboard",
                t.role, t.name
            ));
        }
    }
    for m in missing {
        model.warn(crate::model::Location::File, m.to_lowercase_first());
    }
    for e in &mut model.events {
        e.resolved = resolver.model_file(&e.file, path);
        if e.resolved.is_none() {
            let msg = format!("event {} model {} not found", e.kind, e.file);
            model.diagnostics.push(crate::model::Diagnostic::warning(
                crate::model::Location::File,
                msg,
            ));
        }
    }
}

trait LowerFirst {
    fn to_lowercase_first(&self) -> String;
}

impl LowerFirst for String {
    fn to_lowercase_first(&self) -> String {
        let mut c = self.chars();
        match c.next() {
            Some(f) => f.to_lowercase().chain(c).collect(),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_prefixes() {
        assert_eq!(
            page_number_prefix("page-12.png").as_deref(),
            Some("page-12")
        );
        assert_eq!(
            page_number_prefix("page-7-barbarians-arizona.png").as_deref(),
            Some("page-7")
        );
        assert_eq!(page_number_prefix("helirotor.png"), None);
    }

    #[test]
    fn finds_case_insensitively_with_fallbacks() {
        let dir = std::env::temp_dir().join(format!("vitrine-resolve-{}", std::process::id()));
        let tex = dir.join("data/base/texpages");
        let models = dir.join("data/base/structs");
        let map = dir.join("Map/Lab");
        for d in [&tex, &models, &map] {
            std::fs::create_dir_all(d).unwrap();
        }
        for f in [
            tex.join("page-12-player-buildings.png"),
            tex.join("page-12_tcmask.png"),
            models.join("Crate.BMP"),
            map.join("crate.bmp"),
        ] {
            std::fs::write(f, b"x").unwrap();
        }
        let model = models.join("blbhq.pie");
        let mut r = Resolver::new();
        let cases: &[(&str, bool, Option<PathBuf>)] = &[
            (
                "page-12.png",
                true,
                Some(tex.join("page-12-player-buildings.png")),
            ),
            (
                "PAGE-12_TCMASK.PNG",
                false,
                Some(tex.join("page-12_tcmask.png")),
            ),
            ("page-12.png", false, None),
            ("page-13.png", true, None),
            ("Map\\lab\\crate.bmp", false, Some(models.join("Crate.BMP"))),
        ];
        for (name, prefix, want) in cases {
            assert_eq!(&r.texture(name, &model, &[], *prefix), want, "{name}");
        }
        // A data root wins, with the whole relative path.
        assert_eq!(
            r.texture(
                "Map\\Lab\\Crate.BMP",
                &model,
                std::slice::from_ref(&dir),
                false
            ),
            Some(map.join("crate.bmp"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
