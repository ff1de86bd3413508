//! Writing the site's files: `site.wz` (and checking it alone reproduces every model and
//! design), the web page copied from its build, thumbnails, `site.json`.

use super::collect::{Collected, Item, assembly_lines, model_lines};
use crate::files::FileRef;
use crate::formats::LoadOptions;
use crate::wz::{self, Design, PartFinder, Stats, TurretPose};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The files of the built web page publish copies: (name in the page folder, name in
/// the site). The page itself, and the engines it fetches when a map needs them
/// (`web/build.sh`: the script engine, the KTX2 transcoder, and their loader).
pub const PAGE_FILES: [(&str, &str); 9] = [
    ("index.html", "view.html"),
    ("vitrine.js", "vitrine.js"),
    ("vitrine_bg.wasm", "vitrine_bg.wasm"),
    ("icon.png", "icon.png"),
    ("vitrine_engines.js", "vitrine_engines.js"),
    ("vitrine_script.js", "vitrine_script.js"),
    ("vitrine_script_bg.wasm", "vitrine_script_bg.wasm"),
    ("vitrine_ktx2.js", "vitrine_ktx2.js"),
    ("vitrine_ktx2_bg.wasm", "vitrine_ktx2_bg.wasm"),
];

/// The thumbnails' size in pixels.
pub const THUMB_SIZE: u32 = 256;

/// Whether a file is stored as it is in `site.wz` (already compressed) rather than
/// deflated.
fn stored(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [
        ".png", ".jpg", ".jpeg", ".ktx2", ".wz", ".zip", ".ogg", ".opus",
    ]
    .iter()
    .any(|e| lower.ends_with(e))
}

/// Writes `site.wz` (one zip: each file at its site path, text deflated, PNG and JPEG
/// pages stored) to `path` atomically; returns its size in bytes.
///
/// # Errors
/// A file that cannot be read, or the write.
pub fn write_site_wz(path: &Path, c: &Collected) -> Result<u64, String> {
    use zip::write::SimpleFileOptions;
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, source) in &c.files {
        let bytes = crate::files::read(source).map_err(|e| format!("{source}: {e}"))?;
        let method = if stored(name) {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let opts = SimpleFileOptions::default()
            .compression_method(method)
            .large_file(false);
        z.start_file(name.as_str(), opts)
            .and_then(|()| z.write_all(&bytes).map_err(Into::into))
            .map_err(|e| format!("{}: {name}: {e}", path.display()))?;
    }
    let bytes = z
        .finish()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .into_inner();
    crate::files::atomic::write(path, &bytes).map_err(|e| e.to_string())?;
    Ok(bytes.len() as u64)
}

/// Reopens `site_wz` as the only data root, reloads every model and reassembles every
/// design, and compares what each resolved with what it resolved from the inputs.
/// Returns one message per difference, naming the model and the file.
pub fn verify(site_wz: &Path, c: &Collected, options: &LoadOptions) -> Vec<String> {
    let files = crate::files::disk();
    let root = FileRef::archive_root(site_wz);
    let options = LoadOptions {
        data_roots: vec![root.clone()],
        ..options.clone()
    };
    let site = |f: &FileRef| match f {
        FileRef::Entry { archive, path } if archive == site_wz => path.clone(),
        f => format!("(outside site.wz: {f})"),
    };
    let mut problems = Vec::new();
    let mut compare = |what: &str, item: &Item, got: Result<Vec<String>, String>| match got {
        Err(e) => problems.push(format!(
            "{what} {}: not reproduced from site.wz: {e}",
            item.id
        )),
        Ok(got) if got != item.expected => {
            let missing: Vec<&String> = item.expected.iter().filter(|l| !got.contains(l)).collect();
            let extra: Vec<&String> = got.iter().filter(|l| !item.expected.contains(l)).collect();
            problems.push(format!(
                "{what} {}: site.wz alone resolves differently: expected {missing:?}, got {extra:?}",
                item.id
            ));
        }
        Ok(_) => {}
    };
    let models = c.models.iter().map(|i| ("model", i));
    for (what, item) in models.chain(c.maps.iter().map(|i| ("map", i))) {
        let file = root.join(&item.id);
        let got = vitrine_core::formats::load(files, &file, &options)
            .map(|m| model_lines(&m, &site))
            .map_err(|e| e.to_string());
        compare(what, item, got);
    }
    if c.templates.is_empty() && c.structures.is_empty() {
        return problems;
    }
    let roots = [root];
    let (stats, _) = Stats::load(files, &roots);
    let mut finder = PartFinder::new(files, &roots);
    for (what, items) in [("template", &c.templates), ("structure", &c.structures)] {
        for item in items {
            let design = match what {
                "template" => Design::Template {
                    id: item.id.clone(),
                },
                _ => Design::Structure {
                    id: item.id.clone(),
                },
            };
            let got = wz::assemble(&stats, &mut finder, &design, TurretPose::default())
                .map(|a| assembly_lines(&a, &site));
            compare(what, item, got);
        }
    }
    problems
}

/// Copies the web page's files into `site` (its `index.html` as `view.html`).
///
/// # Errors
/// A file that cannot be read or written.
pub fn copy_page(page: &Path, site: &Path) -> Result<(), String> {
    for (from, to) in PAGE_FILES {
        let bytes = std::fs::read(page.join(from))
            .map_err(|e| format!("{}: {e}", page.join(from).display()))?;
        super::output::write(site, to, &bytes)?;
    }
    Ok(())
}

/// The thumbnail file (relative to the site) of a tile: `thumbs/<kind>-<name>.png`, its
/// name made safe and unique among `taken` ([`crate::files::names::UniqueNames`]); a
/// suffix given is noted on standard error.
pub fn thumb_name(kind: &str, id: &str, taken: &mut crate::files::names::UniqueNames) -> String {
    let named = taken.take(&format!("{kind}-{id}"), "png", kind);
    if let Some(note) = &named.note {
        eprintln!("note: thumbnail {note}");
    }
    format!("thumbs/{}", named.file)
}

/// Renders the thumbnails `jobs` ((item, file relative to `site`)) with the renderer
/// `vitrine render` uses. `Ok(n)` pictures written; `Err` when there is no GPU adapter
/// (nothing is written then).
///
/// # Errors
/// No GPU adapter. A model that fails to render is a warning (its tile has no picture).
pub fn render_thumbnails(
    site: &Path,
    jobs: &[(&Item, &str)],
    warnings: &mut Vec<String>,
) -> Result<Vec<PathBuf>, String> {
    use crate::render::{Gpu, RenderTarget, SceneRenderer, ViewPreset, ViewSettings};
    let gpu = Gpu::headless().map_err(|e| e.to_string())?;
    let samples = 4;
    let mut scene =
        SceneRenderer::with_samples(&gpu.device, &gpu.queue, samples, crate::files::disk());
    let target = RenderTarget::with_samples(&gpu.device, THUMB_SIZE, THUMB_SIZE, samples);
    let mut view = ViewSettings::default();
    view.camera.set_preset(ViewPreset::Iso);
    view.background = [0, 0, 0, 0];
    let mut written = Vec::new();
    for (item, rel) in jobs {
        let out = match super::output::inside(site, rel) {
            Ok(out) => out,
            Err(e) => {
                warnings.push(format!("{}: thumbnail: {e}", item.id));
                continue;
            }
        };
        let img = crate::render::batch::render_framed(
            &gpu.device,
            &gpu.queue,
            &mut scene,
            &target,
            (&item.model, None),
            &view,
        );
        match img.and_then(|img| write_png(&out, &img)) {
            Ok(()) => written.push(out),
            Err(e) => warnings.push(format!("{}: thumbnail: {e}", item.id)),
        }
    }
    warnings.extend(scene.warnings().iter().cloned());
    Ok(written)
}

/// Writes `img` as a well-compressed PNG (the thumbnails are downloaded by every
/// visitor; `vitrine render` favours speed instead).
fn write_png(path: &Path, img: &image::RgbaImage) -> Result<(), String> {
    let best = image::codecs::png::CompressionType::Best;
    let bytes = vitrine_core::export::encode_png(img, best)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    crate::files::atomic::write(path, &bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_names_the_model_and_the_file_site_wz_lacks() {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("mod");
        std::fs::create_dir_all(m.join("texpages")).unwrap();
        std::fs::create_dir_all(m.join("components/bodies")).unwrap();
        let cube = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pie/cube.pie");
        std::fs::copy(cube, m.join("components/bodies/a.pie")).unwrap();
        let mut png = Vec::new();
        image::RgbaImage::new(2, 2)
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        std::fs::write(m.join("texpages/page-90-fixture.png"), png).unwrap();
        let options = LoadOptions::default();
        let mut c = super::super::collect::collect(&[m.join("components/bodies/a.pie")], &options);
        assert!(c.problems.is_empty(), "{:?}", c.problems);
        assert!(c.files.contains_key("texpages/page-90-fixture.png"));
        let site_wz = dir.path().join("site.wz");
        write_site_wz(&site_wz, &c).unwrap();
        assert!(verify(&site_wz, &c, &options).is_empty());

        c.files.remove("texpages/page-90-fixture.png");
        write_site_wz(&site_wz, &c).unwrap();
        let problems = verify(&site_wz, &c, &options);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("components/bodies/a.pie")
                && problems[0].contains("texpages/page-90-fixture.png"),
            "{problems:?}"
        );
    }
}
