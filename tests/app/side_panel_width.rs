//! The side panel keeps the width it was given whatever is open: long values wrap inside
//! it, what cannot wrap scrolls sideways, and a hierarchy thousands of nodes deep opens
//! (the tree was drawn by recursion, which a deep enough chain ran off the stack).

use crate::app_support::{self, view_rect};
use crate::common;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use vitrine::app::commands::{AppCommand, DocumentCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::state::AppState;
use vitrine::render::TEAM_COLOURS;
use vitrine_test_needs::vitrine_test;

fn harness() -> egui_kittest::Harness<'static, AppState> {
    let mut h = app_support::fresh_harness(900.0);
    h.run_steps(8);
    h
}

fn open(h: &mut egui_kittest::Harness<'static, AppState>, file: &Path) {
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(file.into())),
    );
    h.run_steps(8);
}

/// The files of `dir` (sorted) whose extension is one of `exts`.
fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)))
        })
        .collect();
    v.sort();
    v
}

/// A glTF whose nodes are one chain `n` deep, a triangle at its end.
fn deep_chain(dir: &Path, n: usize) -> PathBuf {
    let nodes: Vec<String> = (0..n)
        .map(|i| {
            if i + 1 < n {
                format!(
                    r#"{{"name":"joint{i}","translation":[0,0.01,0],"children":[{}]}}"#,
                    i + 1
                )
            } else {
                format!(r#"{{"name":"joint{i}","mesh":0}}"#)
            }
        })
        .collect();
    // Three points (0,0,0), (1,0,0), (0,1,0) as little-endian floats.
    let points: Vec<u8> = [0f32, 0., 0., 1., 0., 0., 0., 1., 0.]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64_encode(&points)
    );
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],"nodes":[{}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}}],
"bufferViews":[{{"buffer":0,"byteLength":36}}],"buffers":[{{"byteLength":36,"uri":"{uri}"}}]}}"#,
        nodes.join(",")
    );
    let path = dir.join(format!("chain{n}.gltf"));
    std::fs::write(&path, json).unwrap();
    path
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[vitrine_test(shared)]
fn the_side_panel_keeps_its_width_whatever_model_is_open() {
    let dir = app_support::temp_dir("side-panel-width");
    let fixtures = common::fixtures();
    let mut models = files(&fixtures.join("pie"), &["pie"]);
    models.extend(files(&fixtures.join("tpm"), &["tpm"]));
    models.push(deep_chain(dir.path(), 300));
    let synthetic = common::synthetic();
    for (folder, exts) in [
        ("pet", &["pet", "bpet", "mpet", "apet"][..]),
        ("pmf", &["pmf"]),
        ("tpm", &["tpm"]),
    ] {
        models.extend(files(&synthetic.join(folder), exts));
    }
    models.extend(
        files(&common::wz2100().join("data/base/structs"), &["pie"])
            .into_iter()
            .take(40),
    );
    let mut h = harness();
    let width = view_rect().left();
    assert!(
        (300.0..=400.0).contains(&width),
        "the panel starts at about its default width, not {width}"
    );
    for model in &models {
        open(&mut h, model);
        let now = view_rect().left();
        assert!(
            (now - width).abs() < 0.5,
            "{} widened the side panel from {width} to {now}",
            model.display()
        );
    }
    // The team swatches fit the panel (a swatch past its edge could not be clicked).
    for team in TEAM_COLOURS {
        let right = h.get_by_label(team.name).rect().right();
        assert!(
            right < width,
            "the {} swatch ends at {right}, past {width}",
            team.name
        );
    }
}

#[test]
fn a_hierarchy_thousands_of_nodes_deep_opens() {
    let dir = app_support::temp_dir("side-panel-deep");
    let chain = deep_chain(dir.path(), 3000);
    let mut h = harness();
    let width = view_rect().left();
    open(&mut h, &chain);
    assert!(
        h.state().document.load_error.is_none(),
        "{:?}",
        h.state().document.load_error
    );
    // The rows below the panel's bottom only take their space: the last is not laid
    // out until the panel is scrolled down to it.
    assert!(h.query_by_label_contains("joint2999 [Part]").is_none());
    // Scrolled to the end, the last joint's row, past the deepest indent, says how
    // deep it is.
    let panel = egui::pos2(view_rect().left() / 2.0, 400.0);
    h.event(egui::Event::PointerMoved(panel));
    for _ in 0..40 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Page,
            delta: egui::vec2(0.0, -1000.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(1);
        if h.query_by_label_contains("joint2999 [Part] · 1 triangles")
            .is_some()
        {
            break;
        }
    }
    h.get_by_label_contains("joint2999 [Part] · 1 triangles");
    h.get_by_label("2999");
    assert!((view_rect().left() - width).abs() < 0.5);
}
