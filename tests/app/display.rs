//! The display controls of the window driven through egui_kittest with the real layout
//! and command handling (a stand-in for the 3D view, no GPU): the PMF settings reload the
//! model and change its pose, colour modes show their legends, the texture folder is
//! used and saved, an animation without its skeleton says so.

use crate::app_support;
use crate::common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec3;
use std::path::Path;
use vitrine::app::commands::{AppCommand, DocumentCommand, ViewCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::desktop::window::SettingsFile;
use vitrine::formats::pmf::{EulerOrder, RotationUnits};
use vitrine::model::{Model, Pose};
use vitrine::render::{ColourMode, node_colour};
use vitrine_test_needs::vitrine_test;

fn harness(state: AppState) -> Harness<'static, AppState> {
    app_support::harness(state, 1000.0)
}

fn temp_dir(tag: &str) -> tempfile::TempDir {
    app_support::temp_dir(&format!("display-{tag}"))
}

fn open(h: &mut Harness<'static, AppState>, path: &Path) {
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(path.into())),
    );
    h.run();
    assert!(
        h.state().document.load_error.is_none(),
        "{:?}",
        h.state().document.load_error
    );
}

/// The head piece's origin at walk frame 4.
fn head_at_walk_4(model: &Model) -> Vec3 {
    let walk = model.clip_index("walk").expect("walk");
    let pose = Pose::sample(model, Some(walk), model.clips[walk].frame_time(4.0), 0);
    let head = model.nodes.iter().position(|n| n.name == "head").unwrap();
    pose.world[head].transform_point3(Vec3::ZERO)
}

fn manifest_v3(v: &serde_json::Value) -> Vec3 {
    Vec3::from(common::manifest_xyz(v))
}

#[vitrine_test(shared)]
fn pmf_settings_in_the_panel_reload_the_robot_and_change_its_pose() {
    let dir = common::synthetic();
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("MANIFEST.json")).unwrap()).unwrap();
    let truth = &manifest["files"]["pmf/robot.pmf"]["ground_truth"];
    let tol = truth["tolerance"].as_f64().unwrap() as f32;
    let wrong = &truth["wrong_interpretations_head_walk_frame4"];

    let cfg_guard = temp_dir("pmf");

    let cfg = cfg_guard.path().to_path_buf();
    let file = SettingsFile::in_dir(&cfg);
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(Some(file.clone())),
    ));
    h.run();
    open(&mut h, &dir.join("pmf/robot.pmf"));
    h.get_by_label("Transform rules");
    let right = manifest_v3(&truth["head_origin_world_walk_frame4"]);
    let doc = h.state().document.open.as_ref().unwrap();
    assert!(head_at_walk_4(&doc.model).abs_diff_eq(right, tol));
    let generation = doc.generation;
    // The user turns the camera; reloading must keep it.
    let _ = apply(
        h.state_mut(),
        AppCommand::View(ViewCommand::Orbit { dx: 40.0, dy: 10.0 }),
    );
    let camera = h.state().view.camera;

    h.get_by_label("ZYX").click();
    h.run();
    let state = h.state();
    assert_eq!(state.services.load_options().pmf.euler, EulerOrder::Zyx);
    let doc = state.document.open.as_ref().unwrap();
    assert_ne!(doc.generation, generation, "the model was not reloaded");
    assert_eq!(state.view.camera, camera, "reloading moved the camera");
    let head = head_at_walk_4(&doc.model);
    assert!(
        head.abs_diff_eq(manifest_v3(&wrong["zyx"]), tol),
        "ZYX head {head}"
    );
    assert!(!head.abs_diff_eq(right, 0.01));
    h.get_by_label_contains("zyx: R = Rx·Ry·Rz");

    // Back to XYZ and radians: the robot tangles as the manifest says.
    h.get_by_label("XYZ").click();
    h.run();
    h.get_by_label("Radians").click();
    h.run();
    let doc = h.state().document.open.as_ref().unwrap();
    let head = head_at_walk_4(&doc.model);
    assert!(
        head.abs_diff_eq(manifest_v3(&wrong["radians"]), tol),
        "radians head {head}"
    );

    h.state_mut().services.settings.flush().unwrap(); // as the window does within a second
    // Saved, and the next run loads PMF files with it.
    let (saved, warning) = file.load();
    assert_eq!(warning, None);
    assert_eq!(saved.pmf.units, RotationUnits::Radians);
    assert_eq!(saved.pmf.euler, EulerOrder::Xyz);
    let next = AppState::new(saved, vitrine::desktop::window::DesktopHost::new(None));
    assert_eq!(
        next.services.load_options().pmf.units,
        RotationUnits::Radians
    );

    // Reset restores the defaults.
    h.get_by_label("Reset to defaults").click();
    h.run();
    let head = head_at_walk_4(&h.state().document.open.as_ref().unwrap().model);
    assert!(head.abs_diff_eq(right, tol));
}

/// `#RRGGBB` as the legend writes it.
fn hex(c: [u8; 3]) -> String {
    format!("#{:02X}{:02X}{:02X}", c[0], c[1], c[2])
}

#[vitrine_test(shared)]
fn per_piece_colours_show_a_legend_of_every_piece() {
    let dir = common::synthetic();
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    ));
    h.run();
    open(&mut h, &dir.join("pmf/robot.pmf"));
    assert!(h.query_by_label_contains("Legend (").is_none());
    h.get_by_label("Per node / part").click();
    h.run();
    assert_eq!(h.state().view.colour_mode, ColourMode::PerNode);
    assert_eq!(h.state().view_settings().colour_mode, ColourMode::PerNode);
    h.get_by_label("Legend (11 pieces)");
    let names: Vec<String> = h
        .state()
        .document
        .open
        .as_ref()
        .unwrap()
        .model
        .nodes
        .iter()
        .map(|n| n.name.clone())
        .collect();
    let mut previous_y = f32::MIN;
    for (i, name) in names.iter().enumerate() {
        // The swatch carries the colour the renderer uses for that node, in node order.
        let label = format!("{name} colour {}", hex(node_colour(i)));
        let y = h.get_by_label(&label).rect().top();
        assert!(y > previous_y, "{name} out of order");
        previous_y = y;
    }

    // The robot binds no point to a joint: by joint, everything is grey.
    h.get_by_label("By joint (bone)").click();
    h.run();
    h.get_by_label_contains("No point of this model is bound to a joint");
    h.get_by_label("unbound colour #808080");
    // Textured: no legend.
    h.get_by_label("Textured").click();
    h.run();
    assert!(h.query_by_label_contains("Legend (").is_none());
    assert_eq!(h.state().view_settings().colour_mode, ColourMode::Textured);
}

#[vitrine_test(shared)]
fn the_tail_skin_by_bone_lists_its_bones_and_unbound() {
    let dir = common::synthetic();
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    ));
    h.run();
    open(&mut h, &dir.join("tpm/tail_skin.tpm"));
    h.get_by_label("By joint (bone)").click();
    h.run();
    h.get_by_label("Legend (5 joints)");
    let model = &h.state().document.open.as_ref().unwrap().model;
    let bones: Vec<(usize, String)> = (0..4)
        .map(|k| {
            let name = format!("$JTail0{k}");
            let i = model.nodes.iter().position(|n| n.name == name).unwrap();
            (i, name)
        })
        .collect();
    for (i, name) in bones {
        h.get_by_label(&format!("{name} colour {}", hex(node_colour(i))));
    }
    h.get_by_label("unbound colour #808080");
}

#[vitrine_test(shared)]
fn the_colour_mode_is_in_the_view_menu() {
    let dir = common::synthetic();
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    ));
    h.run();
    open(&mut h, &dir.join("pet/puppet_v13.pet"));
    // The menu (the panel has a "View" section too: the menu bar is the topmost).
    let view_menu = h
        .query_all_by_label("View")
        .min_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
        .unwrap();
    view_menu.click();
    h.run();
    h.get_by_label("Colour mode").hover();
    h.run();
    // The submenu's entry (the panel has a toggle of the same name, under the format's
    // own sections: the submenu's is the one right of "Colour mode").
    let submenu_left = h.get_by_label("Colour mode").rect().right();
    let entries = h.query_all_by_label("By joint (bone)").collect::<Vec<_>>();
    assert_eq!(entries.len(), 2, "the submenu did not open");
    entries
        .iter()
        .find(|e| e.rect().left() >= submenu_left - 1.0)
        .expect("an entry in the submenu")
        .click();
    h.run();
    assert_eq!(h.state().view.colour_mode, ColourMode::ByJoint);
    h.get_by_label_contains("joints)");
    let model = &h.state().document.open.as_ref().unwrap().model;
    let head = model
        .nodes
        .iter()
        .position(|n| n.name == "Bip01 Head")
        .unwrap();
    h.get_by_label(&format!("Bip01 Head colour {}", hex(node_colour(head))));
}

#[vitrine_test(shared)]
fn the_texture_folder_is_used_saved_and_cleared() {
    let dir = common::synthetic();
    let tmp_guard = temp_dir("texroot");
    let tmp = tmp_guard.path().to_path_buf();
    let models = tmp.join("models");
    let root = tmp.join("trespasser");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::create_dir_all(root.join("Map").join("Lab")).unwrap();
    std::fs::copy(dir.join("tpm/lab_scene.tpm"), models.join("lab_scene.tpm")).unwrap();
    std::fs::copy(
        dir.join("tpm/crate.bmp"),
        root.join("Map").join("Lab").join("Crate.bmp"),
    )
    .unwrap();
    let cfg = tmp.join("cfg");
    let file = SettingsFile::in_dir(&cfg);
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(Some(file.clone())),
    ));
    h.run();
    open(&mut h, &models.join("lab_scene.tpm"));
    let crate_tex = |h: &Harness<'static, AppState>| {
        let m = &h.state().document.open.as_ref().unwrap().model;
        m.textures
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case("Map\\Lab\\Crate.BMP"))
            .expect("the crate texture")
            .resolved
            .clone()
    };
    assert_eq!(crate_tex(&h), None);
    h.get_by_label_contains("Textures (3, 3 missing)");

    // The dialog's answer (the dialog itself is the window's business).
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::SetDataRoots(vec![root.clone()])),
    );
    h.run();
    let found = crate_tex(&h).expect("found under the data root");
    assert!(found.disk_file().starts_with(&root), "{found}");
    h.get_by_label_contains("Textures (3, 2 missing)");
    h.state_mut().services.settings.flush().unwrap(); // as the window does within a second
    assert_eq!(file.load().0.data_roots, std::slice::from_ref(&root));
    assert_eq!(
        AppState::new(
            file.load().0,
            vitrine::desktop::window::DesktopHost::new(None)
        )
        .services
        .load_options()
        .data_roots,
        vec![vitrine::files::FileRef::Disk(root.clone())]
    );
    h.get_by_label("Data roots").click();
    h.run();
    h.get_by_label_contains("1. trespasser  folder in");

    h.get_by_label("Remove").click();
    h.run();
    assert_eq!(crate_tex(&h), None);
    h.state_mut().services.settings.flush().unwrap(); // as the window does within a second
    assert!(file.load().0.data_roots.is_empty());
}

#[vitrine_test(shared)]
fn an_animation_without_its_skeleton_says_so() {
    let dir = common::synthetic();
    let tmp_guard = temp_dir("apet");
    let tmp = tmp_guard.path().to_path_buf();
    std::fs::copy(
        dir.join("pet/kuma_motion.apet"),
        tmp.join("kuma_motion.apet"),
    )
    .unwrap();
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    ));
    h.run();
    open(&mut h, &tmp.join("kuma_motion.apet"));
    h.get_by_label("No skeleton");
    h.get_by_label_contains("kuma_motion.apet is an animation");

    // With its skeleton and body beside it, the same file assembles a character.
    for f in ["kuma_skel.bpet", "kuma_body.mpet"] {
        std::fs::copy(dir.join("pet").join(f), tmp.join(f)).unwrap();
    }
    open(&mut h, &tmp.join("kuma_motion.apet"));
    assert!(h.query_by_label("No skeleton").is_none());
    open(&mut h, &dir.join("pet/puppet_v13.pet"));
    assert!(h.query_by_label("No skeleton").is_none());
}
