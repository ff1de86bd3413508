//! The PIE writer on real data: every PIE of `../shared/corpus/wz2100` and every model of
//! its `mp.wz`, written again as PIE 3 and as PIE 4, loads to the same model (counts,
//! positions and UVs within the printed precision, normals, connectors, levels,
//! animation frames, shadow meshes, events, texture names) and renders the same
//! picture; `vitrine convert` on files, folders and archives; and the real game
//! (Warzone 2100 4.3.3 through `../shared/tools/wz_game_load.sh`) loading what the
//! writer wrote. Ignored without `../shared` (`#[vitrine_test(shared)]`); the game tests
//! without the game too (`#[vitrine_test(shared, game)]`).

#[path = "support/common/mod.rs"]
mod common;
use vitrine_test_support::render as render_support;

use common::image_diff as golden;

use glam::Vec3;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine::export::pie::{self, PieOptions, PieVersion};
use vitrine::files;
use vitrine::formats::{self, LoadOptions};
use vitrine::model::{Format, Model};
use vitrine_test_needs::vitrine_test;

/// Every PIE of the corpus folder and of `mp.wz`, with its bytes.
fn corpus_models(wz: &Path) -> Vec<(String, Vec<u8>)> {
    let inputs = [wz.join("data"), wz.join("archives/mp.wz")];
    let walk = files::walk::walk(&inputs, |n| n.to_ascii_lowercase().ends_with(".pie"));
    assert!(walk.errors.is_empty(), "{:?}", walk.errors);
    walk.files
        .iter()
        .map(|f| (f.to_string(), files::read(f).expect("corpus file reads")))
        .collect()
}

/// Positions with `-0` and `0` alike (they print the same and are welded).
fn key(p: Vec3) -> [u32; 3] {
    (p + Vec3::ZERO).to_array().map(f32::to_bits)
}

fn near(a: Vec3, b: Vec3, tol: f32) -> bool {
    (a - b).abs().max_element() <= tol * (1.0 + a.abs().max_element())
}

/// What a user would see differ between the model before and after the round trip.
fn compare(before: &Model, after: &Model) -> Result<(), String> {
    compare_trip(before, after, Trip::Pie)
}

/// Which round trip is compared.
#[derive(Clone, Copy, PartialEq)]
enum Trip {
    /// PIE → PIE: every point (unused ones too) and the polygons in file order.
    Pie,
    /// PIE → glTF → PIE: a glTF holds the vertices of triangles only, so a point no
    /// polygon uses (the game never draws it) does not come back; and a level's
    /// texture-animated triangles draw with a material copy of their own (one glTF
    /// primitive each), so they come back after the level's other triangles — the same
    /// triangles, maybe in another order.
    Gltf,
}

/// One triangle's corners as compared: positions, first UVs, animated.
type TriangleKey = [([u32; 3], [u32; 2], bool); 3];

fn triangle_key(m: &vitrine::model::Mesh, t: usize) -> TriangleKey {
    std::array::from_fn(|k| {
        let c = &m.corners[t * 3 + k];
        (
            key(m.corner_position(c)),
            c.uv[0].to_array().map(f32::to_bits),
            c.animated,
        )
    })
}

/// For each triangle of `a`, the triangle of `b` it is compared with: the same index
/// (PIE → PIE), or the same corners wherever it is (through glTF).
fn matching_triangles(
    a: &vitrine::model::Mesh,
    b: &vitrine::model::Mesh,
    trip: Trip,
) -> Vec<usize> {
    let n = a.triangle_count();
    if trip == Trip::Pie {
        return (0..n).collect();
    }
    let mut at: std::collections::HashMap<TriangleKey, Vec<usize>> = Default::default();
    for t in (0..b.triangle_count()).rev() {
        at.entry(triangle_key(b, t)).or_default().push(t);
    }
    (0..n)
        .map(|t| {
            at.get_mut(&triangle_key(a, t))
                .and_then(Vec::pop)
                .unwrap_or(t)
        })
        .collect()
}

/// [`compare`] for `trip`.
fn compare_trip(before: &Model, after: &Model, trip: Trip) -> Result<(), String> {
    let count = |m: &Model| (m.nodes.len(), m.meshes.len(), m.clips.len());
    if count(before) != count(after) {
        return Err(format!(
            "levels/clips {:?} → {:?}",
            count(before),
            count(after)
        ));
    }
    for (i, (a, b)) in before.meshes.iter().zip(&after.meshes).enumerate() {
        let welded: HashSet<[u32; 3]> = match trip {
            Trip::Pie => a.points.iter().map(|p| key(*p)).collect(),
            Trip::Gltf => a
                .corners
                .iter()
                .map(|c| key(a.corner_position(c)))
                .collect(),
        };
        if (a.triangle_count(), welded.len()) != (b.triangle_count(), b.points.len()) {
            return Err(format!(
                "level {}: {} triangles / {} distinct points → {} / {}",
                i + 1,
                a.triangle_count(),
                welded.len(),
                b.triangle_count(),
                b.points.len()
            ));
        }
        let (na, nb) = (a.shading_normals(), b.shading_normals());
        let matching = matching_triangles(a, b, trip);
        for (k, ca) in a.corners.iter().enumerate() {
            let kb = matching[k / 3] * 3 + k % 3;
            let cb = &b.corners[kb];
            let (pa, pb) = (a.corner_position(ca), b.corner_position(cb));
            if key(pa) != key(pb) || ca.uv[0] != cb.uv[0] || ca.animated != cb.animated {
                return Err(format!(
                    "level {} corner {k}: {pa} {} → {pb} {}",
                    i + 1,
                    ca.uv[0],
                    cb.uv[0]
                ));
            }
            if a.face_normal(k / 3) != Vec3::ZERO && !near(na[k], nb[kb], 1e-5) {
                return Err(format!(
                    "level {} corner {k}: normal {} → {}",
                    i + 1,
                    na[k],
                    nb[kb]
                ));
            }
        }
    }
    if before.connectors != after.connectors {
        return Err(format!(
            "connectors {:?} → {:?}",
            before.connectors, after.connectors
        ));
    }
    if let Some(e) = shadow_difference(before, after) {
        return Err(e);
    }
    if before.events != after.events {
        return Err(format!("events {:?} → {:?}", before.events, after.events));
    }
    let names = |m: &Model| {
        m.textures
            .iter()
            .map(|t| (t.role, t.name.clone(), t.tileset))
            .collect::<Vec<_>>()
    };
    if names(before) != names(after) || before.materials != after.materials {
        return Err(format!("textures {:?} → {:?}", names(before), names(after)));
    }
    for (ca, cb) in before.clips.iter().zip(&after.clips) {
        if (ca.fps, ca.frame_count, ca.looping) != (cb.fps, cb.frame_count, cb.looping)
            || ca.visibility != cb.visibility
            || ca.texture_frames != cb.texture_frames
            || ca.events != cb.events
            || ca.node_tracks.len() != cb.node_tracks.len()
        {
            return Err(format!("clip {:?} differs", ca.name));
        }
        for (ta, tb) in ca.node_tracks.iter().zip(&cb.node_tracks) {
            let (Some(ra), Some(rb)) = (&ta.rotation, &tb.rotation) else {
                return Err("a track lost its rotation".into());
            };
            let (Some(xa), Some(xb)) = (&ta.translation, &tb.translation) else {
                return Err("a track lost its translation".into());
            };
            let (Some(sa), Some(sb)) = (&ta.scale, &tb.scale) else {
                return Err("a track lost its scale".into());
            };
            let same_keys = ta.node == tb.node
                && ta.period == tb.period
                && ra.times == rb.times
                && xa.interpolation == xb.interpolation
                && sa.values == sb.values;
            let moves = xa
                .values
                .iter()
                .zip(&xb.values)
                .all(|(p, q)| near(*p, *q, 1e-6));
            let turns = ra
                .values
                .iter()
                .zip(&rb.values)
                .all(|(p, q)| p.abs_diff_eq(*q, 2e-5) || p.abs_diff_eq(-*q, 2e-5));
            if !(same_keys && moves && turns) {
                return Err(format!("level {} ANIMOBJECT frames differ", ta.node + 1));
            }
        }
    }
    let (before_details, after_details) = (before.details.to_json(), after.details.to_json());
    let mut details = before_details.clone();
    for (i, l) in after_details["levels"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        details["levels"][i]["points"] = l["points"].clone();
    }
    if details != after_details {
        return Err(format!("details {before_details} → {after_details}"));
    }
    Ok(())
}

/// Shadow meshes compared as shapes: the same level, the same distinct points and each
/// triangle's corners at the same places (a glTF trip may number the points otherwise).
fn shadow_difference(before: &Model, after: &Model) -> Option<String> {
    if before.shadow_meshes.len() != after.shadow_meshes.len() {
        return Some(format!(
            "shadow meshes {} → {}",
            before.shadow_meshes.len(),
            after.shadow_meshes.len()
        ));
    }
    for (a, b) in before.shadow_meshes.iter().zip(&after.shadow_meshes) {
        let level = a.node + 1;
        let distinct = |s: &vitrine::model::ShadowMesh| {
            s.points.iter().map(|p| key(*p)).collect::<HashSet<_>>()
        };
        let corners = |s: &vitrine::model::ShadowMesh| -> Vec<[[u32; 3]; 3]> {
            s.triangles
                .iter()
                .map(|t| t.map(|i| key(s.points[i as usize])))
                .collect()
        };
        if a.node != b.node || distinct(a) != distinct(b) {
            return Some(format!("level {level}: shadow mesh points differ"));
        }
        if corners(a) != corners(b) {
            return Some(format!("level {level}: shadow mesh triangles differ"));
        }
    }
    None
}

fn write(model: &Model, version: PieVersion) -> String {
    let options = PieOptions {
        version,
        ..PieOptions::default()
    };
    pie::write(model, &options)
        .expect("a PIE model writes")
        .text
}

#[vitrine_test(shared)]
fn every_corpus_model_round_trips_through_pie3_and_pie4() {
    let wz = common::wz2100();
    let models = corpus_models(&wz);
    assert_eq!(
        models.len(),
        855 + 102,
        "the corpus's 855 PIE files and mp.wz's 102"
    );
    let mut failures = Vec::new();
    let mut clean = [0usize; 2];
    for (name, bytes) in &models {
        let before = formats::parse(Format::Pie, bytes, name, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        for (v, version) in [PieVersion::V3, PieVersion::V4].into_iter().enumerate() {
            let text = write(&before, version);
            let result =
                formats::parse(Format::Pie, text.as_bytes(), name, &LoadOptions::default())
                    .map_err(|e| e.to_string())
                    .and_then(|after| {
                        if after.version != version.number().to_string() {
                            return Err(format!("version {}", after.version));
                        }
                        compare(&before, &after)
                    });
            match result {
                Ok(()) => clean[v] += 1,
                Err(e) => failures.push(format!("{name} (PIE {}): {e}", version.number())),
            }
        }
    }
    eprintln!(
        "round trips: {} of {} clean as PIE 3, {} of {} as PIE 4",
        clean[0],
        models.len(),
        clean[1],
        models.len()
    );
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Originals and their PIE 3 rewrites render alike (the golden comparison's tolerance):
/// an animated cyborg, the derrick, texture animation, team colour, the largest model,
/// connectors and events.
#[vitrine_test(shared, gpu)]
fn rewritten_models_render_like_their_sources() {
    let wz = common::wz2100();
    let mut rig = render_support::Rig::new();
    let tmp = common::temp_dir("pie-render");
    let data = wz.join("data");
    let options = LoadOptions {
        data_roots: vec![
            files::parse(&data.join("mp")),
            files::parse(&data.join("base")),
        ],
        ..LoadOptions::default()
    };
    let sample = [
        "mp/components/bodies/drtrans.pie",
        "base/components/bodies/cybd_std.pie",
        "base/components/bodies/exbloke.pie",
        "base/structs/blderik_anim.pie",
        "base/components/bodies/drlbod01.pie",
        "mp/components/prop/prhnaval1.pie",
        "base/effects/fxheli01.pie",
        "base/structs/blbhq.pie",
    ];
    for rel in sample {
        let src = data.join(rel);
        if !src.is_file() {
            panic!("{rel}: not in the corpus");
        }
        let before = formats::load_path(&src, &options).unwrap_or_else(|e| panic!("{e}"));
        let out = tmp.path().join(rel.replace('/', "_"));
        std::fs::write(&out, write(&before, PieVersion::V3)).unwrap();
        let after = formats::load_path(&out, &options).unwrap_or_else(|e| panic!("{e}"));
        let mut view = vitrine::render::ViewSettings::default();
        view.camera.set_preset(vitrine::render::ViewPreset::Iso);
        let a = rig.render(&before, &view, 128);
        let b = rig.render(&after, &view, 128);
        // The golden images' rule for two renders.
        let d = common::image_diff::diff(&b, &a);
        let outliers = d.count_over(golden::CHANNEL_TOLERANCE);
        let allowed = (d.pixels() as f64 * golden::MAX_OUTLIER_FRACTION) as usize;
        assert!(
            d.pixels() > 0 && outliers <= allowed,
            "{rel}: {outliers} of {} pixels differ (worst {}; allowed {allowed})",
            d.pixels(),
            d.max()
        );
        assert!(
            a.pixels().any(|p| p.0 != a.get_pixel(0, 0).0),
            "{rel}: rendered nothing"
        );
    }
}

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

/// `vitrine convert` of an archive mirrors its paths; `--dry-run` writes nothing; a
/// model the check refuses is not written and the exit code says so.
#[vitrine_test(shared)]
fn convert_command_writes_checks_and_mirrors_paths() {
    let wz = common::wz2100();
    let tmp = common::temp_dir("pie-convert");
    let out = tmp.path().join("mp");
    let status = vitrine()
        .arg("convert")
        .arg(wz.join("archives/mp.wz"))
        .arg("-o")
        .arg(&out)
        .args(["--pie", "4", "--data"])
        .arg(wz.join("data/base"))
        .status()
        .unwrap();
    assert!(status.success());
    let body = out.join("components/bodies/drmbod13.pie");
    let text = std::fs::read_to_string(&body).expect("mirrored path");
    assert!(text.starts_with("PIE 4\n"), "{text}");
    let written: Vec<PathBuf> = common::model_files(&out);
    assert_eq!(written.len(), 102);

    let dry = tmp.path().join("dry");
    let o = vitrine()
        .args(["convert", "--dry-run", "-o"])
        .arg(dry.join("x.pie"))
        .arg(&body)
        .arg("--data")
        .arg(wz.join("data/base"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("dry run"));
    assert!(!dry.exists(), "a dry run writes nothing");

    // A texture name the game refuses (no .png): the check stops the write.
    let bad = tmp.path().join("bad.pie");
    let o = vitrine()
        .arg("convert")
        .arg(&body)
        .arg("-o")
        .arg(&bad)
        .args(["--texture", "page-11-x.bmp"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("pie/texture-extension"), "{err}");
    assert!(!bad.exists(), "nothing half-written");
}

/// The game's own loader reads every PIE 3 the writer made of the models a skirmish
/// loads (mp over base, written over the same paths in a mod): no complaint.
#[vitrine_test(shared, game)]
fn the_game_loads_every_written_model() {
    let wz = common::wz2100();
    let game = game::game_checker();
    let tmp = common::temp_dir("pie-game");
    let mod_dir = tmp.path().join("mod");
    for layer in ["base", "mp"] {
        let o = vitrine()
            .arg("convert")
            .arg(wz.join("data").join(layer))
            .arg("-o")
            .arg(&mod_dir)
            .arg("--data")
            .arg(wz.join("data/mp"))
            .arg("--data")
            .arg(wz.join("data/base"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let report = game::run_game(&game, &mod_dir, &[]);
    let ok = report.lines().filter(|l| l.starts_with("OK ")).count();
    let bad: Vec<&str> = report
        .lines()
        .filter(|l| !l.starts_with("OK ") && !l.starts_with("NOT-LOADED ") && game::is_verdict(l))
        .collect();
    eprintln!("the game read {ok} written models cleanly");
    assert!(bad.is_empty(), "the game complained:\n{}", bad.join("\n"));
    assert!(
        ok >= 600,
        "only {ok} models were read by the game:\n{report}"
    );
}

#[path = "pie_write/blender.rs"]
mod blender;
#[path = "pie_write/game.rs"]
mod game;
#[path = "pie_write/gltf_trip.rs"]
mod gltf_trip;
#[path = "pie_write/mutations.rs"]
mod mutations;
#[path = "pie_write/pack.rs"]
mod pack;
