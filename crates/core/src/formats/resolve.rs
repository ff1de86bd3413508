//! Finding the files a model names: textures and event models, for every format, whether
//! the model is a loose file or an entry of a `.wz`/`.zip` archive. All reading goes
//! through [`crate::files`]; this module only knows the search order.
//!
//! Names are matched case-insensitively (they come from Windows and DOS tools). The search
//! order for a texture name (`\` or `/` separated, possibly with folders) follows the game's
//! layering — the model's own mod first, then the data roots in the user's order (a mod
//! over `mp` over `base`):
//! 1. the model's own folder (the whole relative path, then the bare name);
//! 2. `texpages/`, `base/texpages/` and `mp/texpages/` in the model's folder and in each
//!    of its ancestors — inside an archive up to the archive's root (Warzone 2100's
//!    `data/base`, `data/mp` layout, and a `.wz` whose paths start at the data folder);
//! 3. each data root in order (a folder or an archive): the whole relative path, the bare
//!    name, then `texpages/` (a Trespasser data root for `Map\…` paths, a PangYa texture
//!    folder, a Warzone 2100 data folder or `.wz`).
//!
//! In each folder the exact name wins; then a `.pcx` name also tries `.png`; then a PIE
//! page name `page-NN…` matches any `page-NN-….png` / `page-NN.png` (how old engines
//! found renamed pages).

use super::LoadOptions;
use crate::files::{EntryKind, FileRef, Lookup};
use crate::model::{Model, TextureRole};

/// Warzone 2100's model folders (relative to a data folder), searched for `EVENT` models.
pub(crate) const WZ_MODEL_DIRS: &[&str] = &[
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
    lookup: Lookup,
}

impl Resolver {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Looks for the bare `file` (already lower-case) in `dir`, with the `.pcx` and
    /// `page-NN` fallbacks.
    fn find_in(&mut self, dir: &FileRef, file: &str, page_prefix: bool) -> Option<FileRef> {
        let listing = self.lookup.listing(dir);
        let is_file = |k: &EntryKind| *k == EntryKind::File;
        if let Some((_, p, _)) = listing.iter().find(|(n, _, k)| n == file && is_file(k)) {
            return Some(p.clone());
        }
        if let Some(stem) = file.strip_suffix(".pcx") {
            let png = format!("{stem}.png");
            if let Some((_, p, _)) = listing.iter().find(|(n, _, k)| *n == png && is_file(k)) {
                return Some(p.clone());
            }
        }
        if page_prefix && let Some(prefix) = page_number_prefix(file) {
            return listing
                .iter()
                .find(|(n, _, k)| {
                    is_file(k)
                        && n.ends_with(".png")
                        && n.strip_prefix(prefix.as_str())
                            .is_some_and(|rest| rest.starts_with('-') || rest == ".png")
                })
                .map(|(_, p, _)| p.clone());
        }
        None
    }

    /// The whole relative path from `dir`, then the bare name in it.
    fn find_path_or_name(
        &mut self,
        dir: &FileRef,
        components: &[&str],
        bare: &str,
        page_prefix: bool,
    ) -> Option<FileRef> {
        if components.len() > 1
            && let Some(p) = self.lookup.walk(dir, components)
        {
            return Some(p);
        }
        self.find_in(dir, bare, page_prefix)
    }

    /// Resolves a texture `name` for the model `model` (see the module docs for the order).
    pub fn texture(
        &mut self,
        name: &str,
        model: &FileRef,
        roots: &[FileRef],
        page_prefix: bool,
    ) -> Option<FileRef> {
        let components: Vec<&str> = name
            .split(['\\', '/'])
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        let bare = components.last()?.to_lowercase();
        let model_dir = model_dir(model);
        if let Some(p) = self.find_path_or_name(&model_dir, &components, &bare, page_prefix) {
            return Some(p);
        }
        for ancestor in model_dir.ancestors() {
            for sub in ["texpages", "base/texpages", "mp/texpages"] {
                if let Some(p) = self.find_in(&ancestor.join(sub), &bare, page_prefix) {
                    return Some(p);
                }
            }
        }
        for root in roots {
            if let Some(p) = self.find_path_or_name(root, &components, &bare, page_prefix) {
                return Some(p);
            }
            if let Some(p) = self.find_in(&root.join("texpages"), &bare, page_prefix) {
                return Some(p);
            }
        }
        None
    }

    /// Resolves a model file named by another model (PIE `EVENT`): the model's folder,
    /// then Warzone 2100's model folders in each ancestor (`mp` before `base`), then in
    /// each data root.
    pub(crate) fn model_file(
        &mut self,
        name: &str,
        model: &FileRef,
        roots: &[FileRef],
    ) -> Option<FileRef> {
        let bare = name.rsplit(['\\', '/']).next()?.to_lowercase();
        let model_dir = model_dir(model);
        if let Some(p) = self.find_in(&model_dir, &bare, false) {
            return Some(p);
        }
        let mut data_dirs: Vec<FileRef> = Vec::new();
        for ancestor in model_dir.ancestors() {
            for layer in ["", "mp", "base"] {
                data_dirs.push(ancestor.join(layer));
            }
        }
        data_dirs.extend(roots.iter().cloned());
        for data in data_dirs {
            for sub in WZ_MODEL_DIRS {
                if let Some(p) = self.find_in(&data.join(sub), &bare, false) {
                    return Some(p);
                }
            }
        }
        None
    }

    /// A Warzone 2100 model file by its bare name (`drlbod01.pie`), searched in each
    /// data root's model folders in order: how the game finds the files its stats name.
    pub fn wz_model(&mut self, name: &str, roots: &[FileRef]) -> Option<FileRef> {
        let bare = name.rsplit(['\\', '/']).next()?.to_lowercase();
        for root in roots {
            for sub in WZ_MODEL_DIRS {
                if let Some(p) = self.find_in(&root.join(sub), &bare, false) {
                    return Some(p);
                }
            }
        }
        None
    }
}

/// The folder a model file is in. On disk it is made absolute where possible, so that
/// the ancestor search (`texpages/` beside a parent folder) also works for
/// `vitrine render body.pie` run in the model's own folder.
fn model_dir(model: &FileRef) -> FileRef {
    match model.parent() {
        Some(FileRef::Disk(p)) => FileRef::Disk(std::path::absolute(&p).unwrap_or(p)),
        Some(dir) => dir,
        None => model.clone(),
    }
}

/// `page-12` for `page-12-player-buildings.png` or `page-12.png`; `None` otherwise.
fn page_number_prefix(file: &str) -> Option<String> {
    let rest = file.strip_prefix("page-")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| format!("page-{}", &rest[..digits]))
}

/// Resolves every texture and event file of `model`, loaded from `file`, through
/// `resolver`'s cached listings; a texture that cannot be found gets a warning (the
/// renderer shows a checkerboard).
pub(crate) fn resolve_model_with(
    resolver: &mut Resolver,
    model: &mut Model,
    file: &FileRef,
    options: &LoadOptions,
) {
    let mut missing = Vec::new();
    for t in &mut model.textures {
        if t.resolved.is_some() {
            // Found by the loader (an image packed in a glTF, a sidecar).
            continue;
        }
        // The page-NN fallback is for diffuse pages; masks must match their own name.
        let page_prefix = t.role == TextureRole::Base;
        t.resolved = resolver.texture(&t.name, file, &options.data_roots, page_prefix);
        if t.resolved.is_none() {
            missing.push(format!(
                "{} texture {} not found; showing a checkerboard",
                t.role.name(),
                t.name
            ));
        }
    }
    for m in missing {
        model.warn(crate::model::Location::File, m);
    }
    for e in &mut model.events {
        e.resolved = resolver.model_file(&e.file, file, &options.data_roots);
        if e.resolved.is_none() {
            let msg = format!("event {} model {} not found", e.kind, e.file);
            model.diagnostics.push(crate::model::Diagnostic::warning(
                crate::model::Location::File,
                msg,
            ));
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
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().canonicalize().unwrap();
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
            map.join("fence.bmp"),
        ] {
            std::fs::write(f, b"x").unwrap();
        }
        let model = FileRef::Disk(models.join("blbhq.pie"));
        let disk = |p: std::path::PathBuf| Some(FileRef::Disk(p));
        let mut r = Resolver::new();
        let cases: &[(&str, bool, Option<FileRef>)] = &[
            (
                "page-12.png",
                true,
                disk(tex.join("page-12-player-buildings.png")),
            ),
            (
                "PAGE-12_TCMASK.PNG",
                false,
                disk(tex.join("page-12_tcmask.png")),
            ),
            ("page-12.png", false, None),
            ("page-13.png", true, None),
            ("Map\\lab\\crate.bmp", false, disk(models.join("Crate.BMP"))),
            ("Map\\lab\\fence.bmp", false, None),
        ];
        for (name, prefix, want) in cases {
            assert_eq!(&r.texture(name, &model, &[], *prefix), want, "{name}");
        }
        // The model's own folder wins over a data root (a mod over base); a name found
        // only under the root resolves there, with the whole relative path.
        let root = [FileRef::Disk(dir.clone())];
        assert_eq!(
            r.texture("Map\\Lab\\Crate.BMP", &model, &root, false),
            disk(models.join("Crate.BMP"))
        );
        assert_eq!(
            r.texture("Map\\Lab\\Fence.BMP", &model, &root, false),
            disk(map.join("fence.bmp"))
        );
    }

    #[test]
    fn resolves_inside_an_archive_then_in_a_lower_layer() {
        use std::io::Write;
        let tmp = tempfile::tempdir().unwrap();
        let wz = tmp.path().join("mod.wz");
        let mut z = zip::ZipWriter::new(std::fs::File::create(&wz).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        for name in ["Components/Bodies/Body.PIE", "texpages/page-1-mod.png"] {
            z.start_file(name, opts).unwrap();
            z.write_all(b"x").unwrap();
        }
        z.finish().unwrap();
        let base = tmp.path().join("base");
        std::fs::create_dir_all(base.join("texpages")).unwrap();
        std::fs::write(base.join("texpages/page-2-base.png"), b"x").unwrap();
        std::fs::write(base.join("texpages/page-1-base.png"), b"x").unwrap();
        let model = FileRef::parse(&tmp.path().join("mod.wz!/components/bodies/body.pie"));
        let roots = [FileRef::Disk(base.clone())];
        let mut r = Resolver::new();
        assert_eq!(
            r.texture("page-1.png", &model, &roots, true)
                .map(|f| f.to_string()),
            Some(format!("{}!/texpages/page-1-mod.png", wz.display())),
            "the mod's own page wins over base's"
        );
        assert_eq!(
            r.texture("page-2.png", &model, &roots, true),
            Some(FileRef::Disk(base.join("texpages/page-2-base.png"))),
            "a page only in the lower layer is found there"
        );
    }
}
