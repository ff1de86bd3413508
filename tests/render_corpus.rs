//! f3d-style image cases on real models of the shared corpus: (model, options) →
//! `tests/golden/<name>.png`, compared with the tolerance written in
//! `render_support/golden.rs`. Skips without `../shared` or without a GPU.

mod common;
mod render_support;

use render_support::{Rig, golden};
use vitrine::formats::{self, LoadOptions};
use vitrine::render::{ViewPreset, ViewSettings};

fn view(preset: ViewPreset, team: usize) -> ViewSettings {
    let mut v = ViewSettings {
        team,
        ..Default::default()
    };
    v.camera.set_preset(preset);
    v
}

#[test]
fn corpus_golden_images() {
    let Some(dir) = common::synthetic() else {
        return;
    };
    let Some(mut rig) = Rig::new() else { return };
    let cases = [
        ("pmf-robot-iso", "pmf/robot.pmf", view(ViewPreset::Iso, 0)),
        (
            "pmf-crate-front",
            "pmf/crate.pmf",
            view(ViewPreset::Front, 0),
        ),
        (
            "tpm-lab-scene-iso",
            "tpm/lab_scene.tpm",
            view(ViewPreset::Iso, 0),
        ),
        (
            "tpm-tail-skin-side",
            "tpm/tail_skin.tpm",
            view(ViewPreset::Side, 0),
        ),
    ];
    for (name, file, view) in cases {
        let model = formats::load_path(&dir.join(file), &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let img = rig.render(&model, &view, 128);
        golden::check(name, &img);
    }
}
