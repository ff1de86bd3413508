//! Finding the files a model names: textures and event models, for every format, whether
//! the model is a loose file or an entry of a `.wz`/`.zip` archive. All reading goes
//! through the [`Files`] the [`Resolver`] is given; this module only knows the search
//! order.
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
use crate::files::{EntryKind, FileRef, Files, Lookup};
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
#[derive(Debug)]
pub struct Resolver {
    lookup: Lookup,
}

impl Resolver {
    /// An empty cache over `files`.
    pub fn new(files: &Files) -> Self {
        Resolver {
            lookup: Lookup::new(files),
        }
    }

    /// What the look-ups (and the loads that use them) read from.
    pub fn files(&self) -> &Files {
        self.lookup.files()
    }

    /// Looks for the bare `file` (already lower-case) in `dir`, with the `.pcx` and
    /// `page-NN` fallbacks ([`texture_in_folder`]).
    fn find_in(&mut self, dir: &FileRef, file: &str, page_prefix: bool) -> Option<FileRef> {
        let listing = self.lookup.listing(dir);
        let files = listing.iter().filter(|(_, _, k)| *k == EntryKind::File);
        let name = texture_in_folder(files.clone().map(|(n, _, _)| n.as_str()), file, page_prefix)?;
        files
            .clone()
            .find(|(n, _, _)| n == name)
            .map(|(_, p, _)| p.clone())
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
        let model_dir = model_dir(self.files(), model);
        let mut folders = texture_folders(&model_dir.ancestors(), FileRef::join).into_iter();
        // The model's own folder: the whole relative path too.
        let own = folders.next()?;
        if let Some(p) = self.find_path_or_name(&own, &components, &bare, page_prefix) {
            return Some(p);
        }
        for dir in folders {
            if let Some(p) = self.find_in(&dir, &bare, page_prefix) {
                return Some(p);
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
        let model_dir = model_dir(self.files(), model);
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

/// The folder a model file is in, as the source sees it whole ([`Files::full_path`]: on
/// disk made absolute, so that the ancestor search — `texpages/` beside a parent folder —
/// also works for `vitrine render body.pie` run in the model's own folder).
fn model_dir(files: &Files, model: &FileRef) -> FileRef {
    match model.parent() {
        Some(FileRef::Disk(p)) => FileRef::Disk(files.full_path(&p)),
        Some(dir) => dir,
        None => model.clone(),
    }
}

/// The folders above a model's where its textures are looked for: Warzone 2100's
/// `texpages/` in a data folder, a mod, or the `data/` above `base/` and `mp/`.
pub const TEXTURE_FOLDERS: [&str; 3] = ["texpages", "base/texpages", "mp/texpages"];

/// Steps 1 and 2 of the search order (the module docs) as folders, in order: the model's
/// own folder, then [`TEXTURE_FOLDERS`] in it and in each folder above it. `ancestors`
/// is the model's folder and those above it, innermost first; `join` names a sub-folder
/// of one. The desktop's look-ups and the page's fetches (by URL) both walk this.
pub fn texture_folders<D: Clone>(ancestors: &[D], join: impl Fn(&D, &str) -> D) -> Vec<D> {
    let own = ancestors.first().cloned();
    let subs = ancestors
        .iter()
        .flat_map(|d| TEXTURE_FOLDERS.map(|sub| join(d, sub)));
    own.into_iter().chain(subs).collect()
}

/// The file of folder `names` (lower-case) that a texture named `bare` (lower-case, no
/// folders) is, the first rule that matches winning: the exact name; a `.pcx` name as
/// `.png`; with `page_prefix` (diffuse pages), a PIE page `page-NN…` as any
/// `page-NN-….png` or `page-NN.png` (how old engines found renamed pages).
pub fn texture_in_folder<'a, I>(names: I, bare: &str, page_prefix: bool) -> Option<&'a str>
where
    I: Iterator<Item = &'a str> + Clone,
{
    if let Some(n) = names.clone().find(|n| *n == bare) {
        return Some(n);
    }
    if let Some(stem) = bare.strip_suffix(".pcx") {
        let png = format!("{stem}.png");
        if let Some(n) = names.clone().find(|n| *n == png) {
            return Some(n);
        }
    }
    let prefix = page_number_prefix(bare).filter(|_| page_prefix)?;
    names.into_iter().find(|n| {
        n.ends_with(".png")
            && n.strip_prefix(prefix.as_str())
                .is_some_and(|rest| rest.starts_with('-') || rest == ".png")
    })
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
    use crate::files::MemorySource;
    use std::path::Path;

    #[test]
    fn a_folder_gives_the_exact_name_then_png_for_pcx_then_the_page_number() {
        let folder = [
            "page-12-player-buildings.png",
            "page-7.png",
            "tank.png",
            "tank.pcx",
        ];
        let find = |bare, prefix| texture_in_folder(folder.iter().copied(), bare, prefix);
        assert_eq!(find("tank.pcx", true), Some("tank.pcx"));
        assert_eq!(find("page-7.pcx", true), Some("page-7.png"));
        assert_eq!(
            find("page-12.png", true),
            Some("page-12-player-buildings.png")
        );
        assert_eq!(
            find("page-12.png", false),
            None,
            "masks match their own name"
        );
        assert_eq!(find("page-1.png", true), None, "page-1 is not page-12");
    }

    #[test]
    fn texture_folders_are_the_models_then_texpages_upwards() {
        let up = ["a/b", "a", ""].map(String::from);
        let folders = texture_folders(&up, |d, s| format!("{d}/{s}"));
        assert_eq!(
            folders,
            [
                "a/b",
                "a/b/texpages",
                "a/b/base/texpages",
                "a/b/mp/texpages",
                "a/texpages",
                "a/base/texpages",
                "a/mp/texpages",
                "/texpages",
                "/base/texpages",
                "/mp/texpages"
            ]
        );
    }

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
        let dir = Path::new("root");
        let tex = dir.join("data/base/texpages");
        let models = dir.join("data/base/structs");
        let map = dir.join("Map/Lab");
        let mut source = MemorySource::new();
        for f in [
            tex.join("page-12-player-buildings.png"),
            tex.join("page-12_tcmask.png"),
            models.join("Crate.BMP"),
            map.join("crate.bmp"),
            map.join("fence.bmp"),
        ] {
            source.insert(f, b"x");
        }
        let model = FileRef::Disk(models.join("blbhq.pie"));
        let disk = |p: std::path::PathBuf| Some(FileRef::Disk(p));
        let mut r = Resolver::new(&Files::new(source));
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
        let root = [FileRef::Disk(dir.to_path_buf())];
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
        let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default();
        for name in ["Components/Bodies/Body.PIE", "texpages/page-1-mod.png"] {
            z.start_file(name, opts).unwrap();
            z.write_all(b"x").unwrap();
        }
        let source = MemorySource::new()
            .with("mods/mod.wz", z.finish().unwrap().into_inner())
            .with("base/texpages/page-2-base.png", b"x".to_vec())
            .with("base/texpages/page-1-base.png", b"x".to_vec());
        let files = Files::new(source);
        let model = files.parse(Path::new("mods/mod.wz!/components/bodies/body.pie"));
        let roots = [FileRef::Disk("base".into())];
        let mut r = Resolver::new(&files);
        assert_eq!(
            r.texture("page-1.png", &model, &roots, true)
                .map(|f| f.to_string()),
            Some("mods/mod.wz!/texpages/page-1-mod.png".to_string()),
            "the mod's own page wins over base's"
        );
        assert_eq!(
            r.texture("page-2.png", &model, &roots, true),
            Some(FileRef::Disk("base/texpages/page-2-base.png".into())),
            "a page only in the lower layer is found there"
        );
    }
}
