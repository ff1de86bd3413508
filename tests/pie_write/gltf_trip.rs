//! PIE → glTF → PIE: a model exported as `vitrine export` does and converted back as
//! `vitrine convert` does (the CLI's own `export_file` and `convert_file`) loads to the
//! same model as its source — [`super::compare_trip`]: counts, positions and UVs to the bit,
//! normals, connectors, levels, ANIMOBJECT and texture-frame animation, shadow meshes,
//! events, page names, the `info --json` details (TYPE and per-level flags, INTERPOLATE,
//! cycles) — and draws the same picture.
//!
//! What the trip does not carry (see [`super::Trip::Gltf`] and [`NOT_CARRIED`]): points
//! no polygon uses (a glTF holds triangles' vertices only; the game never draws them);
//! the order of a level's texture-animated triangles among its others (they come back
//! last); PIE 4 tileset lines 1 and 2 (a glTF material has one base colour); a level
//! with no polygons at all; comments and number formatting. A PIE 2 file comes back as
//! PIE 3/4 with UVs in 0–1 rather than texels (the same model loaded).

use super::{Trip, common, compare_trip, render_support};
use crate::common::image_diff as golden;
use std::path::{Path, PathBuf};
use vitrine::check::{CheckOptions, Checker};
use vitrine::cli::convert::{self, Mode};
use vitrine::cli::export::{self as cli_export, Flush};
use vitrine::export::gltf::{ExportOptions, ImageCache};
use vitrine::export::pie::{PieOptions, PieVersion};
use vitrine::files::{self, FileRef};
use vitrine::formats::{self, LoadOptions, resolve::Resolver};
use vitrine::model::{Format, Model};
use vitrine_test_needs::vitrine_test;

/// The export and the conversion of one run, sharing their caches as a batch does.
struct Exporter {
    resolver: Resolver,
    checker: Checker,
    cache: ImageCache,
    load: LoadOptions,
    dir: PathBuf,
    /// Whether the text goes through convert's check (`convert_file`) or is written as
    /// the writer made it.
    checked: bool,
}

impl Exporter {
    fn new(data_roots: Vec<FileRef>, dir: &Path) -> Exporter {
        let load = LoadOptions {
            data_roots,
            ..LoadOptions::default()
        };
        let checks = CheckOptions {
            data_roots: load.data_roots.clone(),
            allow: Vec::new(),
        };
        Exporter {
            resolver: Resolver::new(files::disk()),
            checker: Checker::new(files::disk(), checks),
            cache: ImageCache::new(files::disk()),
            load,
            dir: dir.to_path_buf(),
            checked: true,
        }
    }

    /// `file` exported to `<n>.glb` (team 0, the default clip, the default scale), then
    /// that converted to `<n>-<version>.pie`; returns the PIE's path.
    fn run(&mut self, file: &FileRef, n: usize, version: PieVersion) -> Result<PathBuf, String> {
        let glb = self.dir.join(format!("{n}.glb"));
        if !glb.is_file() {
            cli_export::export_file(
                &mut self.resolver,
                &mut self.cache,
                file,
                (&glb, Flush::Batch),
                &self.load,
                &ExportOptions::default(),
            )
            .map_err(|e| format!("export: {e}"))?;
        }
        let pie = self.dir.join(format!("{n}-{}.pie", version.number()));
        let options = PieOptions {
            version,
            ..PieOptions::default()
        };
        let glb = files::parse(&glb);
        if self.checked {
            convert::convert_file(
                (&mut self.resolver, &mut self.checker),
                &glb,
                (&pie, None),
                &self.load,
                &options,
                Mode::Batch,
            )
            .map_err(|e| format!("convert: {e}"))?;
        } else {
            let model = formats::load_with(&mut self.resolver, &glb, &self.load)
                .map_err(|e| format!("convert: {e}"))?;
            let written = vitrine::export::pie::write(&model, &options)?;
            std::fs::write(&pie, written.text).map_err(|e| e.to_string())?;
        }
        Ok(pie)
    }
}

/// The PIE at `file` as the loader reads its bytes alone (textures unresolved, as
/// [`compare`] wants both sides).
fn parsed(file: &FileRef) -> Result<Model, String> {
    let bytes = files::read(file).map_err(|e| format!("{file}: {e}"))?;
    formats::parse(
        Format::Pie,
        &bytes,
        &file.to_string(),
        &LoadOptions::default(),
    )
    .map_err(|e| e.to_string())
}

/// The source and the round-tripped file compared as models.
fn same_model(source: &FileRef, written: &Path) -> Result<(), String> {
    let after = parsed(&files::parse(written)).map_err(|e| format!("reads back: {e}"))?;
    let before = without_tileset_lines(parsed(source)?, &after);
    compare_trip(&before, &after, Trip::Gltf)
}

/// `model` without the pages of PIE 4's tileset lines 1 and 2 that `after` lacks (the
/// urban and rockies pages the game swaps in; no material draws them): a glTF material
/// has one base colour, the page of the tileset the model was loaded with, so they do
/// not come back. (The pages the rules script swaps in come back: the loader derives
/// them from the page name.)
fn without_tileset_lines(mut model: Model, after: &Model) -> Model {
    let keep: Vec<bool> = model
        .textures
        .iter()
        .map(|t| {
            !matches!(t.tileset, Some(1 | 2))
                || after
                    .textures
                    .iter()
                    .any(|a| (a.role, &a.name, a.tileset) == (t.role, &t.name, t.tileset))
        })
        .collect();
    let mut index = Vec::with_capacity(keep.len());
    let mut next = 0;
    for &k in &keep {
        index.push(next);
        next += usize::from(k);
    }
    let mut k = keep.iter();
    model.textures.retain(|_| *k.next().unwrap());
    for m in &mut model.materials {
        for slot in [
            &mut m.base,
            &mut m.tcmask,
            &mut m.normal,
            &mut m.specular,
            &mut m.opacity,
            &mut m.bump,
        ] {
            *slot = slot.map(|i| index[i]);
        }
    }
    model
}

/// Draws `a` and `b` (resolved, textures from the data roots) from the Iso view at
/// `size`²; `Err` names how many pixels differ.
///
/// Tolerance: the golden images' rule — a pixel matches within 6 of 255 per channel, and
/// 1 % of the pixels may fail that — because both sides are the same model drawn by the
/// same renderer on the same device, so anything beyond MSAA and filtering noise is a
/// changed model (a 128× size, a lost page or frame shows on most pixels).
fn same_picture(
    rig: &mut render_support::Rig,
    a: &Model,
    b: &Model,
    size: u32,
) -> Result<(), String> {
    let mut view = vitrine::render::ViewSettings::default();
    view.camera.set_preset(vitrine::render::ViewPreset::Iso);
    // Framed on the source, so a changed size shows as a changed picture.
    let pose = vitrine::model::Pose::rest(a);
    render_support::framed(&mut view.camera, a, &pose);
    let before = rig.render_pose(a, &pose, &view, size);
    let after = rig.render_pose(b, &vitrine::model::Pose::rest(b), &view, size);
    let d = common::image_diff::diff(&after, &before);
    let outliers = d.count_over(golden::CHANNEL_TOLERANCE);
    let allowed = (d.pixels() as f64 * golden::MAX_OUTLIER_FRACTION) as usize;
    if d.pixels() == 0 || outliers > allowed {
        return Err(format!(
            "picture: {outliers} of {} pixels differ by more than {} (worst {}; allowed \
             {allowed})",
            d.pixels(),
            golden::CHANNEL_TOLERANCE,
            d.max()
        ));
    }
    Ok(())
}

/// The fixtures that load cleanly and show what PIE holds: plain levels, connectors
/// and events, a shadow mesh, ANIMOBJECT with hidden frames, texture-frame animation
/// (timed and team colour), a derived team-colour mask, authored normals, PIE 4
/// per-level settings, a PIE 2 file.
const FIXTURES: [&str; 12] = [
    "cube.pie",
    "events.pie",
    "shadow_mesh.pie",
    "shadow_plate.pie",
    "animobject_hidden.pie",
    "interpolate_both.pie",
    "texanim_effect.pie",
    "texanim_teamcolour.pie",
    "tcmask_derived.pie",
    "normals.pie",
    "pie4_overrides.pie",
    "pie2_uv_texels.pie",
];

/// The fixtures through glTF and back, as PIE 3 and PIE 4 (PIE 4 only where the source
/// has per-level settings PIE 3 cannot hold): the same model, and, with a GPU, the same
/// picture. Runs without the corpus.
#[test]
fn fixtures_come_back_the_same_through_gltf() {
    fixtures_trip(None);
}

/// The same trip drawn: each fixture's round-tripped PIE draws the picture its source
/// draws.
#[vitrine_test(gpu)]
fn fixtures_come_back_drawing_the_same_picture() {
    fixtures_trip(Some(&mut render_support::Rig::new()));
}

/// Every fixture through glTF and back as PIE 3 and PIE 4: the same model, and with `rig`
/// the same picture.
fn fixtures_trip(mut rig: Option<&mut render_support::Rig>) {
    let tmp = common::temp_dir("pie-gltf-pie");
    let dir = common::fixtures().join("pie");
    // The fixtures' pages are in `tests/fixtures/pie/texpages`.
    let mut trip = Exporter::new(vec![files::parse(&dir)], tmp.path());
    // Written as the writer makes it: the fixtures' EVENT models are in no game model
    // folder, so convert's check refuses their sources too (the corpus test below
    // goes through the check).
    trip.checked = false;
    let mut failures = Vec::new();
    for (n, name) in FIXTURES.iter().enumerate() {
        let source = files::parse(&dir.join(name));
        // Per-level TYPE, INTERPOLATE and pages: PIE 4 only (PIE 3 warns and drops them).
        let versions: &[PieVersion] =
            if ["pie4_overrides.pie", "interpolate_both.pie"].contains(name) {
                &[PieVersion::V4]
            } else {
                &[PieVersion::V3, PieVersion::V4]
            };
        for &version in versions {
            let result = trip
                .run(&source, n, version)
                .and_then(|pie| same_model(&source, &pie).map(|()| pie))
                .and_then(|pie| match rig.as_deref_mut() {
                    Some(rig) => {
                        let a = formats::load(&source, &trip.load).map_err(|e| e.to_string())?;
                        let b = formats::load(&files::parse(&pie), &trip.load)
                            .map_err(|e| e.to_string())?;
                        same_picture(rig, &a, &b, 64)
                    }
                    None => Ok(()),
                });
            if let Err(e) = result {
                failures.push(format!("{name} (PIE {}): {e}", version.number()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Corpus models that cannot come back through glTF, with why; each must still fail
/// with `error` (so a fix shows, and nothing else goes wrong with them unseen).
const NOT_CARRIED: [(&str, &str, &str); 1] = [(
    "base/components/prop/prslvtl1.pie",
    "its one level is empty (POINTS 0, POLYGONS 0): a glTF mesh needs a triangle, so \
     the glTF has a `level 1` node without a mesh (and no material), and a model \
     without a mesh is no PIE",
    "the model has no mesh to write as a PIE level",
)];

/// Every PIE of the corpus folder (855, pages from its texpages) and of `mp.wz` (102,
/// pages from data/base) exported as glTF and converted back to PIE 3 and PIE 4 loads to
/// the same model, and the PIE 3 draws the same picture at 48² (small, to keep ~2000
/// renders quick; a 128× size or a lost page changes most of a 48² picture).
#[vitrine_test(shared, gpu)]
fn every_corpus_model_comes_back_the_same_through_gltf() {
    let wz = common::wz2100();
    let started = std::time::Instant::now();
    let inputs = [wz.join("data"), wz.join("archives/mp.wz")];
    let walk = files::walk::walk(&inputs, |n| n.to_ascii_lowercase().ends_with(".pie"));
    assert!(walk.errors.is_empty(), "{:?}", walk.errors);
    assert_eq!(
        walk.files.len(),
        855 + 102,
        "the corpus's 855 and mp.wz's 102"
    );
    let tmp = common::temp_dir("pie-gltf-pie-corpus");
    let data = wz.join("data");
    let roots = vec![
        files::parse(&data.join("mp")),
        files::parse(&data.join("base")),
    ];
    let mut trip = Exporter::new(roots, tmp.path());
    let mut rig = render_support::Rig::new();
    let (mut failures, mut clean, mut drawn, mut known) = (Vec::new(), 0, 0, 0);
    for (n, source) in walk.files.iter().enumerate() {
        let name = source.to_string().replace('\\', "/");
        if let Some((_, why, error)) = NOT_CARRIED.iter().find(|(f, ..)| name.ends_with(f)) {
            match trip.run(source, n, PieVersion::V3) {
                Err(e) if e.contains(error) => known += 1,
                other => failures.push(format!(
                    "{source}: expected to fail with {error:?} ({why}), got {other:?}"
                )),
            }
            continue;
        }
        let mut ok = true;
        for version in [PieVersion::V3, PieVersion::V4] {
            let result = trip
                .run(source, n, version)
                .and_then(|pie| same_model(source, &pie).map(|()| pie));
            let pie = match result {
                Ok(pie) => pie,
                Err(e) => {
                    failures.push(format!("{source} (PIE {}): {e}", version.number()));
                    ok = false;
                    continue;
                }
            };
            if version == PieVersion::V3 {
                let loaded = |f: &FileRef| formats::load(f, &trip.load).map_err(|e| e.to_string());
                match loaded(source)
                    .and_then(|a| Ok((a, loaded(&files::parse(&pie))?)))
                    .and_then(|(a, b)| same_picture(&mut rig, &a, &b, 48))
                {
                    Ok(()) => drawn += 1,
                    Err(e) => {
                        failures.push(format!("{source} (PIE 3): {e}"));
                        ok = false;
                    }
                }
            }
        }
        clean += usize::from(ok);
        let _ = std::fs::remove_file(tmp.path().join(format!("{n}.glb")));
    }
    eprintln!(
        "PIE → glTF → PIE: {clean} of {} models the same as PIE 3 and PIE 4 ({drawn} drawn \
         alike; {known} not carried, as NOT_CARRIED says), {:.1} s",
        walk.files.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
