//! `vitrine publish`: a self-contained static site that shows a mod to forum readers.
//!
//! ```text
//! SITE/index.html        the gallery (static HTML + CSS, no script): a tile per model,
//!                        droid template, structure and map, each linking into the viewer
//! SITE/thumbs/*.png      the tiles' pictures (256×256, the renderer `vitrine render` uses)
//! SITE/view.html, vitrine.js, vitrine_bg.wasm, icon.png    the web viewer (its build)
//! SITE/vitrine_engines.js, vitrine_{script,ktx2}{.js,_bg.wasm}
//!                        the engines the viewer fetches when a map needs them
//! SITE/site.wz           one zip of exactly the files the models need, at their paths
//!                        in the game's data folder
//! SITE/site.json         the same lists for tools
//! ```
//!
//! [`collect`] finds what is needed by loading everything with the core through a
//! recording file source; [`site`] writes `site.wz` and then checks that `site.wz` alone,
//! as the only data root, reproduces every model's textures and every design's parts.
//!
//! The output folder: a new or empty one, or one publish wrote before (it has a
//! `site.json` by Vitrine); `--force` allows any. Only the files publish writes are
//! replaced; thumbnails the previous `site.json` listed and this run did not write are
//! removed. Nothing else in the folder is touched, and nothing outside it: a symbolic
//! link under it is refused, never followed ([`output`]).

pub mod collect;
pub mod collection;
pub mod gallery_html;
pub mod output;
pub mod serve;
pub mod site;

use crate::cli::exit;
use crate::cli::publish::PublishArgs;
use std::path::{Path, PathBuf};

/// One tile of the gallery (and one entry of `site.json`).
#[derive(Debug, Clone)]
pub struct Tile {
    /// The model's path in `site.wz`, or the stats id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its picture, relative to the site (`None`: no picture).
    pub thumb: Option<String>,
    /// Where the tile leads: `view.html?url=site.wz#model=…` or `#design=…`.
    pub link: String,
    /// Lines of facts under its name (a map of a collection: players and tileset,
    /// author, licence).
    pub facts: Vec<String>,
}

/// `vitrine X.Y.Z`.
pub fn generator() -> String {
    format!("vitrine {}", env!("CARGO_PKG_VERSION"))
}

/// The message when no built web page is found.
pub const NO_PAGE: &str = "the web page is not built: run `web/build.sh target/web` (a few \
    minutes) or pass --page DIR";

/// The built web page: `--page`, else `$VITRINE_WEB_DIR`, else `web/` next to the
/// program, else `../share/vitrine/web` from the program's folder (a package's
/// `/usr/share/vitrine/web`, [`installed_pages`]), else `target/web` of the source
/// checkout it was built from.
///
/// # Errors
/// [`NO_PAGE`], or which of the page's files a given folder lacks.
pub fn find_page(page: Option<&Path>) -> Result<PathBuf, String> {
    let complete = |d: &Path| site::PAGE_FILES.iter().all(|(f, _)| d.join(f).is_file());
    let given = page
        .map(Path::to_path_buf)
        .or_else(|| std::env::var_os("VITRINE_WEB_DIR").map(PathBuf::from));
    if let Some(d) = given {
        if complete(&d) {
            return Ok(d);
        }
        let missing: Vec<&str> = site::PAGE_FILES
            .iter()
            .map(|(f, _)| *f)
            .filter(|f| !d.join(f).is_file())
            .collect();
        return Err(format!(
            "{}: not a built web page (no {}): {NO_PAGE}",
            d.display(),
            missing.join(", ")
        ));
    }
    let installed = std::env::current_exe()
        .map(|e| installed_pages(&e))
        .unwrap_or_default();
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web");
    installed
        .into_iter()
        .chain([checkout])
        .find(|d| complete(d))
        .ok_or_else(|| NO_PAGE.to_string())
}

/// Where an installed program's page is, for the program at `exe`: `web/` beside it
/// (the unpacked tarball), then `../share/vitrine/web` (a package: `/usr/bin/vitrine`
/// and `/usr/share/vitrine/web`, or any other prefix).
pub fn installed_pages(exe: &Path) -> Vec<PathBuf> {
    let Some(dir) = exe.parent() else {
        return Vec::new();
    };
    let mut found = vec![dir.join("web")];
    if let Some(prefix) = dir.parent() {
        found.push(prefix.join("share/vitrine/web"));
    }
    found
}

/// The viewer link of a tile (a map opens as its `game.map`, as a model does).
fn link(kind: &str, id: &str) -> String {
    let encode = crate::files::percent_encode;
    match kind {
        "model" | "map" => format!("view.html?url=site.wz#model={}", encode(id)),
        k => format!("view.html?url=site.wz#design={k}:{}", encode(id)),
    }
}

/// Runs `vitrine publish`; returns the exit code.
pub fn run(args: &PublishArgs) -> i32 {
    let fail = |e: &str| {
        eprintln!("vitrine publish: {e}");
        exit::FAILED
    };
    let page = match find_page(args.page.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    if let Some(packages) = collection::packages(&args.inputs) {
        return collection::run(args, &page, &packages);
    }
    let out = &args.output;
    let old_thumbs = match output::prepare(out, args.force) {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    let start = std::time::Instant::now();
    let options = args.load.options();
    let c = collect::collect(&args.inputs, &options);
    for w in &c.warnings {
        eprintln!("warning: {w}");
    }
    let mut problems = c.problems.clone();
    if c.models.is_empty() && c.templates.is_empty() && c.structures.is_empty() && c.maps.is_empty()
    {
        for p in &problems {
            eprintln!("error: {p}");
        }
        return fail("nothing to publish: no input model or map loaded");
    }

    // Tiles and their thumbnails.
    let mut taken = crate::files::names::UniqueNames::new();
    let mut tiles: [Vec<Tile>; 4] = Default::default();
    let mut jobs = Vec::new();
    for (n, (kind, items)) in [
        ("model", &c.models),
        ("template", &c.templates),
        ("structure", &c.structures),
        ("map", &c.maps),
    ]
    .into_iter()
    .enumerate()
    {
        for item in items {
            let thumb = site::thumb_name(kind, &item.id, &mut taken);
            jobs.push((item, thumb.clone()));
            tiles[n].push(Tile {
                id: item.id.clone(),
                name: item.name.clone(),
                thumb: Some(thumb),
                link: link(kind, &item.id),
                facts: Vec::new(),
            });
        }
    }
    // Every path written is checked before any is: a link met refuses the whole run.
    if let Some(e) = jobs.iter().find_map(|(_, t)| output::inside(out, t).err()) {
        return fail(&e);
    }
    let site_wz = match output::inside(out, "site.wz") {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let size = match site::write_site_wz(&site_wz, &c) {
        Ok(s) => s,
        Err(e) => return fail(&e),
    };
    problems.extend(site::verify(&site_wz, &c, &options));

    let mut warnings = Vec::new();
    let written: Vec<PathBuf> = if args.no_thumbnails {
        Vec::new()
    } else {
        let refs: Vec<_> = jobs.iter().map(|(i, t)| (*i, t.as_str())).collect();
        match site::render_thumbnails(out, &refs, &mut warnings) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("warning: no thumbnails: {e} (the tiles have no pictures)");
                Vec::new()
            }
        }
    };
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    for t in tiles.iter_mut().flatten() {
        if t.thumb
            .as_ref()
            .is_some_and(|p| !written.contains(&out.join(p)))
        {
            t.thumb = None;
        }
    }
    if let Err(e) = output::remove_old_thumbs(out, &old_thumbs, &written) {
        return fail(&e);
    }

    if let Err(e) = site::copy_page(&page, out) {
        return fail(&e);
    }
    let title = args.title.clone().unwrap_or_else(|| {
        args.inputs
            .first()
            .map(|p| crate::files::file_name(p))
            .unwrap_or_else(|| "A mod".into())
    });
    let text = gallery_html::PageText {
        title,
        author: args.author.clone(),
        licence: args.licence.clone(),
        generator: generator(),
    };
    let [models, templates, structures, maps] = &tiles;
    let html = gallery_html::page(
        &text,
        &gallery_html::Sections {
            models,
            templates,
            structures,
            maps,
        },
    );
    let list = |tiles: &[Tile], key: &str| -> Vec<serde_json::Value> {
        tiles
            .iter()
            .map(|t| {
                serde_json::json!({ key: t.id, "name": t.name, "thumb": t.thumb, "link": t.link })
            })
            .collect()
    };
    let json = serde_json::json!({
        "generator": text.generator,
        "title": text.title,
        "author": text.author,
        "licence": text.licence,
        "models": list(models, "path"),
        "templates": list(templates, "id"),
        "structures": list(structures, "id"),
        "maps": list(maps, "path"),
        "files": c.files.keys().collect::<Vec<_>>(),
    });
    let json = serde_json::to_vec_pretty(&json).unwrap_or_default();
    for (name, bytes) in [("index.html", html.as_bytes()), ("site.json", &json)] {
        if let Err(e) = output::write(out, name, bytes) {
            return fail(&e);
        }
    }
    let n = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    eprintln!(
        "published {}, {}, {}, {} ({}, site.wz {:.1} MiB, {}) to {} in {:.1} s",
        n(models.len(), "model"),
        n(templates.len(), "template"),
        n(structures.len(), "structure"),
        n(maps.len(), "map"),
        n(c.files.len(), "file"),
        size as f64 / 1048576.0,
        n(written.len(), "thumbnail"),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    for p in &problems {
        eprintln!("error: {p}");
    }
    let code = if problems.is_empty() {
        exit::OK
    } else {
        eprintln!("{} problems", problems.len());
        exit::FAILED
    };
    if args.serve
        && let Err(e) = serve::serve(out, args.port)
    {
        return fail(&e);
    }
    code
}
