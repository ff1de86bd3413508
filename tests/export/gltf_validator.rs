//! The Khronos glTF-Validator (npm `gltf-validator`, pinned in
//! `tools/gltf-validator/package.json`, installed by `.ci/run`) reports zero errors for
//! the export of every synthetic model and of a representative set of the Warzone 2100
//! corpus (every TYPE, every animation kind, events, connectors, every kind of map; at
//! least 50 files), as `.glb` and as `.gltf` with files beside it. Every warning code it
//! reports must be one README lists.
//!
//! Skips loudly without Node or the package, unless VITRINE_REQUIRE_GLTF_VALIDATOR=1
//! (CI sets it), where their absence fails the test.

use crate::common;
use crate::gltf_support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine::export::gltf::{ClipChoice, ExportOptions, ImageCache, export, writer};
use vitrine::formats::{self, LoadOptions};
use vitrine::model::{BlendMode, Model};
use vitrine_test_needs::vitrine_test;

/// Warning codes the validator may report for Vitrine's exports; README's "glTF export"
/// section lists each with its reason.
const DOCUMENTED_WARNINGS: &[&str] = &["MESH_PRIMITIVE_GENERATED_TANGENT_SPACE"];

/// At least this many corpus files are validated.
const CORPUS_FILES: usize = 50;

fn validator() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/gltf-validator");
    let installed = dir
        .join("node_modules/gltf-validator/package.json")
        .is_file();
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if installed && node {
        return Some(dir.join("validate.mjs"));
    }
    let why = format!(
        "the glTF validator is not installed (node found: {node}; package found: {installed}); \
         run `npm ci --prefix tools/gltf-validator`"
    );
    if std::env::var("VITRINE_REQUIRE_GLTF_VALIDATOR").as_deref() == Ok("1") {
        panic!("VITRINE_REQUIRE_GLTF_VALIDATOR=1 but {why}");
    }
    eprintln!("SKIPPED: {why}");
    None
}

/// What a corpus model shows that an exporter could get wrong.
fn kinds(model: &Model) -> Vec<String> {
    let mut k = vec![format!("version {}", model.version)];
    if let vitrine::model::Details::Pie(d) = &model.details {
        k.push(format!("type {}", d.type_flags));
    }
    let clips = &model.clips;
    let mut add = |cond: bool, name: &str| {
        if cond {
            k.push(name.to_string());
        }
    };
    add(
        clips.iter().any(|c| !c.node_tracks.is_empty()),
        "animobject",
    );
    add(
        clips.iter().any(|c| !c.visibility.is_empty()),
        "hidden frames",
    );
    add(
        clips.iter().flat_map(|c| &c.node_tracks).any(|t| {
            t.rotation
                .as_ref()
                .is_some_and(|r| r.interpolation == vitrine::model::Interpolation::Step)
        }),
        "step interpolation",
    );
    add(
        clips
            .iter()
            .flat_map(|c| &c.texture_frames)
            .any(|t| !t.team_colour),
        "texture animation",
    );
    add(
        clips
            .iter()
            .flat_map(|c| &c.texture_frames)
            .any(|t| t.team_colour),
        "team colour frames",
    );
    add(!model.events.is_empty(), "events");
    add(!model.connectors.is_empty(), "connectors");
    add(!model.shadow_meshes.is_empty(), "shadow mesh");
    let mats = &model.materials;
    add(mats.iter().any(|m| m.tcmask.is_some()), "tcmask");
    add(mats.iter().any(|m| m.normal.is_some()), "normal map");
    add(mats.iter().any(|m| m.specular.is_some()), "specular map");
    add(
        mats.iter().any(|m| m.blend == BlendMode::Additive),
        "additive",
    );
    add(
        mats.iter().any(|m| m.blend == BlendMode::Premultiplied),
        "premultiplied",
    );
    add(mats.iter().any(|m| m.double_sided), "double sided");
    add(
        model.textures.iter().any(|t| t.resolved.is_none()),
        "missing texture",
    );
    k
}

/// Every model file under `dir` (sorted), not descending into `bad/`.
fn model_files(dir: &Path) -> Vec<PathBuf> {
    let walk = vitrine::files::walk::walk(&[dir.to_path_buf()], |n| {
        formats::is_model_path(Path::new(n))
    });
    walk.files
        .iter()
        .filter_map(|f| f.as_disk().map(Path::to_path_buf))
        .filter(|p| !p.components().any(|c| c.as_os_str() == "bad"))
        .collect()
}

/// Picks corpus files: the first of each kind, then evenly spread ones up to the count.
fn representative(files: &[PathBuf]) -> (Vec<(PathBuf, Model)>, BTreeSet<String>) {
    let mut picked: BTreeMap<PathBuf, Model> = BTreeMap::new();
    let mut covered = BTreeSet::new();
    let mut all = Vec::new();
    for f in files {
        let Ok(model) = formats::load_path(f, &LoadOptions::default()) else {
            continue;
        };
        let new: Vec<String> = kinds(&model)
            .into_iter()
            .filter(|k| !covered.contains(k))
            .collect();
        if !new.is_empty() {
            covered.extend(new);
            picked.insert(f.clone(), model);
        } else {
            all.push(f.clone());
        }
    }
    let need = CORPUS_FILES.saturating_sub(picked.len());
    if need > 0 && !all.is_empty() {
        let step = (all.len() / need).max(1);
        for f in all.iter().step_by(step).take(need) {
            let model = formats::load_path(f, &LoadOptions::default()).expect("loaded before");
            picked.insert(f.clone(), model);
        }
    }
    (picked.into_iter().collect(), covered)
}

#[vitrine_test(shared)]
fn validator_reports_no_errors_for_synthetic_and_corpus_exports() {
    let Some(script) = validator() else { return };
    let shared = common::shared_dir();
    let out_guard = common::temp_dir("gltf-validate");
    let out = out_guard.path().to_path_buf();

    let synthetic = model_files(&shared.join("corpus/synthetic"));
    assert!(synthetic.len() >= 10, "synthetic models: {synthetic:?}");
    // The project's own fixtures that load (they cover what the corpus lacks).
    let fixtures: Vec<(PathBuf, Model)> = model_files(&common::fixtures())
        .into_iter()
        .filter_map(|p| {
            formats::load_path(&p, &LoadOptions::default())
                .ok()
                .map(|m| (p, m))
        })
        .collect();
    assert!(fixtures.len() >= 10, "{} fixtures load", fixtures.len());
    // Every blend mode and a missing texture, built in code.
    std::fs::create_dir_all(&out).unwrap();
    let blend = (
        out.join("blend-modes.model"),
        gltf_support::blend_model(&out),
    );
    let (corpus, covered) = representative(&model_files(&shared.join("corpus/wz2100/data")));
    assert!(
        corpus.len() >= CORPUS_FILES,
        "{} corpus files",
        corpus.len()
    );
    for kind in [
        "animobject",
        "hidden frames",
        "texture animation",
        "team colour frames",
        "events",
        "connectors",
        "tcmask",
        "normal map",
        "specular map",
        "additive",
        "type 0x10200",
    ] {
        assert!(
            covered.contains(kind),
            "no corpus file with {kind}; covered: {covered:?}"
        );
    }

    let mut cache = ImageCache::new(vitrine::files::disk());
    let options = ExportOptions {
        clips: ClipChoice::All,
        ..Default::default()
    };
    let mut written = Vec::new();
    let models = synthetic
        .iter()
        .map(|p| {
            (
                p.clone(),
                formats::load_path(p, &LoadOptions::default()).expect("loads"),
            )
        })
        .chain(fixtures)
        .chain([blend])
        .chain(corpus);
    for (i, (path, model)) in models.enumerate() {
        let doc = export(&model, &options, &mut cache).expect("exports");
        // Every fifth as .gltf with its files beside it; the rest as .glb.
        let ext = if i % 5 == 0 { "gltf" } else { "glb" };
        let stem = path.file_stem().unwrap().to_string_lossy();
        let target = out.join(format!("{i:03}-{stem}.{ext}"));
        writer::write(doc, &target).expect("writes");
        written.push((path, target));
    }

    // A broken export (a rotation that is not a unit quaternion) shows the validator is
    // really looking: it must report an error for it.
    let mut broken = export(&gltf_support::blend_model(&out), &options, &mut cache).unwrap();
    broken.root.nodes[0].rotation = Some(gltf_json::scene::UnitQuaternion([0.0, 0.0, 0.0, 2.0]));
    let broken_path = out.join("broken.glb");
    writer::write(broken, &broken_path).unwrap();

    let output = Command::new("node")
        .arg(&script)
        .arg(&broken_path)
        .args(written.iter().map(|(_, t)| t))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "validator failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut reports: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(reports.len(), written.len() + 1);
    let broken = reports.remove(0);
    assert!(
        broken["errors"].as_u64().unwrap_or(0) > 0,
        "the broken file passed: {broken}"
    );
    let mut warnings = BTreeSet::new();
    for ((source, target), r) in written.iter().zip(&reports) {
        let issues = r["issues"].as_array().expect("issues");
        let errors: Vec<_> = issues.iter().filter(|i| i["severity"] == "error").collect();
        assert!(
            errors.is_empty() && r["errors"] == 0,
            "{} (from {}): {errors:#?}",
            target.display(),
            source.display()
        );
        for i in issues.iter().filter(|i| i["severity"] == "warning") {
            warnings.insert(i["code"].as_str().unwrap_or("?").to_string());
        }
    }
    for w in &warnings {
        assert!(
            DOCUMENTED_WARNINGS.contains(&w.as_str()),
            "validator warning {w} is not listed in README (and DOCUMENTED_WARNINGS)"
        );
    }
    eprintln!(
        "validated {} exports: 0 errors; warnings: {warnings:?}",
        written.len()
    );
}
