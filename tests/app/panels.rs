//! The window's panels driven through egui_kittest, with the real layout and command
//! handling and a stand-in for the 3D view (no GPU needed for these).

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec3;
use std::path::{Path, PathBuf};
use vitrine::app::commands::{AppCommand, DocumentCommand, ViewCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::desktop::window::SettingsFile;
use vitrine::files::FileRef;
use vitrine::model::{Corner, Format, Material, Mesh, Model, Node, NodeKind, Submesh};
use vitrine::render::{TEAM_COLOURS, ViewPreset, clip_points};

fn harness(state: AppState) -> Harness<'static, AppState> {
    app_support::harness(state, 900.0)
}

fn temp_dir(tag: &str) -> tempfile::TempDir {
    app_support::temp_dir(&format!("panel-{tag}"))
}

/// A two-level model: a hull with a turret child, one triangle each.
fn tank() -> Model {
    let mut m = Model::new(Format::Pie, "3");
    m.materials.push(Material::new("paint", [1.0; 4]));
    for (name, y) in [("hull", 0.0), ("turret", 1.0)] {
        m.meshes.push(Mesh {
            name: name.into(),
            points: vec![
                Vec3::new(0.0, y, 0.0),
                Vec3::new(1.0, y, 0.0),
                Vec3::new(0.0, y + 1.0, 0.0),
            ],
            corners: (0..3).map(|i| Corner::new(i, glam::Vec2::ZERO)).collect(),
            submeshes: vec![Submesh {
                first_triangle: 0,
                triangle_count: 1,
                material: 0,
            }],
            ..Mesh::default()
        });
    }
    let mut hull = Node::new("hull", None, NodeKind::Level);
    hull.mesh = Some(0);
    let mut turret = Node::new("turret", Some(0), NodeKind::Level);
    turret.mesh = Some(1);
    m.nodes = vec![hull, turret];
    m.validate().unwrap();
    m
}

#[test]
fn opening_a_model_fills_the_tree() {
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    ));
    h.run();
    h.get_by_label("No model open");
    assert!(h.query_by_label_contains("turret [Level]").is_none());

    h.state_mut()
        .set_document(FileRef::Disk("/models/tank.pie".into()), tank());
    h.run();
    h.get_by_label("tank.pie");
    h.get_by_label_contains("Levels (2)");
    // The hull is a collapsible parent; the turret is its child leaf.
    h.get_by_label_contains("hull [Level] · 1 triangles");
    h.get_by_label_contains("turret [Level] · 1 triangles");
    assert!(h.query_by_label("No model open").is_none());
}

#[test]
fn clicking_a_team_swatch_changes_and_saves_the_setting() {
    let dir_guard = temp_dir("team");
    let dir = dir_guard.path().to_path_buf();
    let file = SettingsFile::in_dir(&dir);
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(Some(file.clone())),
    ));
    h.run();
    assert_eq!(h.state().services.settings.team, 0);
    h.get_by_label("Team colour: green (0)");

    h.get_by_label("cyan").click();
    h.run();
    let cyan = TEAM_COLOURS.iter().position(|t| t.name == "cyan").unwrap();
    assert_eq!(h.state().services.settings.team, cyan);
    h.get_by_label(&format!("Team colour: cyan ({cyan})"));
    h.state_mut().services.settings.flush().unwrap(); // as the window does within a second
    // The choice persists: a new run reads it back.
    let (saved, warning) = file.load();
    assert_eq!(warning, None);
    assert_eq!(saved.team, cyan);
    // And the renderer is asked for it.
    assert_eq!(h.state().view_settings().team, cyan);
}

/// The banner shows `message` in full and the previous model is still open.
fn assert_error_shown_and_model_kept(h: &Harness<'_, AppState>, file: &str) {
    let err = h.state().document.load_error.clone().expect("a load error");
    assert!(err.message.starts_with(file), "{}", err.message);
    h.get_by_label(&format!("Could not open {file}"));
    h.get_by_label(&err.message);
    let doc = h
        .state()
        .document
        .open
        .as_ref()
        .expect("the previous model stays open");
    assert_eq!(doc.path, FileRef::Disk("/models/tank.pie".into()));
    h.get_by_label("tank.pie");
    h.get_by_label_contains("turret [Level]");
}

#[test]
fn a_failed_load_keeps_the_previous_model_and_shows_the_error() {
    let dir_guard = temp_dir("fail");
    let dir = dir_guard.path().to_path_buf();
    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    state.set_document(FileRef::Disk("/models/tank.pie".into()), tank());
    let generation = state.document.open.as_ref().unwrap().generation;
    let mut h = harness(state);
    h.run();

    // A file no loader reads.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not a model").unwrap();
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(notes.as_path().into())),
    );
    h.run();
    assert_error_shown_and_model_kept(&h, "notes.txt");
    assert!(
        h.state()
            .document
            .load_error
            .as_ref()
            .unwrap()
            .message
            .contains("not a model file"),
        "the loader's own words are shown"
    );

    // A model file that is not there.
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(dir.join("gone.pie").into())),
    );
    h.run();
    assert_error_shown_and_model_kept(&h, "gone.pie");
    assert_eq!(
        h.state().document.open.as_ref().unwrap().generation,
        generation
    );
    assert!(
        h.state().services.settings.recent_files.is_empty(),
        "failures are not recent files"
    );

    h.get_by_label("Dismiss").click();
    h.run();
    assert!(h.state().document.load_error.is_none());
    assert!(h.query_by_label("Could not open gone.pie").is_none());
}

#[derive(Debug)]
struct Dropped(PathBuf);

impl eframe::egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn dropping_a_file_opens_it() {
    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    state.set_document(FileRef::Disk("/models/tank.pie".into()), tank());
    let mut h = harness(state);
    h.run();
    let dropped = PathBuf::from("/nowhere/dropped.pmf");
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(dropped.clone())));
    h.run();
    let err = h
        .state()
        .document
        .load_error
        .clone()
        .expect("the drop was opened");
    assert_eq!(err.path, FileRef::Disk(dropped));
    h.get_by_label("Could not open dropped.pmf");
}

#[test]
fn view_keys_and_buttons_drive_the_camera() {
    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    state.set_document(FileRef::Disk("/models/tank.pie".into()), tank());
    let mut h = harness(state);
    h.run();
    assert!(!h.state().view.camera.orthographic);
    // The side panel's buttons.
    h.get_by_label("Orthographic").click();
    h.run();
    assert!(h.state().view.camera.orthographic);
    h.get_by_label("Front").click();
    h.run();
    let mut front = vitrine::render::Camera::default();
    front.set_preset(ViewPreset::Front);
    assert_eq!(h.state().view.camera.direction(), front.direction());

    // The view's keys: 5 toggles the projection back, 3 is the side view.
    h.key_press(eframe::egui::Key::Num5);
    h.run();
    assert!(!h.state().view.camera.orthographic);
    h.key_press(eframe::egui::Key::Num3);
    h.run();
    let mut side = front;
    side.set_preset(ViewPreset::Side);
    assert_eq!(h.state().view.camera.direction(), side.direction());

    // Zoomed out then F frames the model again, for the current view direction.
    let mut framed = h.state().view.camera;
    let doc = h.state().document.open.as_ref().unwrap();
    let points = clip_points(&doc.model, doc.playback.clip, 0);
    framed.frame_points(&points, h.state().view.aspect);
    let _ = apply(h.state_mut(), AppCommand::View(ViewCommand::Zoom(-5.0)));
    assert!(h.state().view.camera.distance > framed.distance * 1.5);
    h.key_press(eframe::egui::Key::F);
    h.run();
    assert_eq!(h.state().view.camera, framed);

    // A left drag across the view orbits: the yaw changes, the target stays.
    let (yaw, target) = (h.state().view.camera.yaw, h.state().view.camera.target);
    let start = eframe::egui::pos2(700.0, 400.0);
    h.hover_at(start);
    h.drag_at(start);
    h.run();
    for i in 1..=5 {
        h.hover_at(start + eframe::egui::vec2(20.0 * i as f32, 0.0));
        h.run();
    }
    h.drop_at(start + eframe::egui::vec2(100.0, 0.0));
    h.run();
    assert!(
        h.state().view.camera.yaw < yaw - 0.5,
        "yaw {yaw} -> {}",
        h.state().view.camera.yaw
    );
    assert_eq!(h.state().view.camera.target, target);
}

use crate::app_support;
use crate::common;
use vitrine_test_needs::vitrine_test;

#[vitrine_test(shared)]
fn opening_a_real_file_fills_the_tree_and_a_bad_one_keeps_it() {
    let dir = common::synthetic();
    let mut h = harness(AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    ));
    h.run();
    let robot = std::fs::canonicalize(dir.join("pmf/robot.pmf")).unwrap();
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(robot.as_path().into())),
    );
    h.run();
    assert!(
        h.state().document.load_error.is_none(),
        "{:?}",
        h.state().document.load_error
    );
    h.get_by_label("robot.pmf");
    h.get_by_label_contains("Pieces (11)");
    // The tree nests as the file does: pelvis > torso > upper_arm_l > forearm_l.
    let x = |name: &str| {
        h.get_by_label_contains(&format!("{name} [Piece]"))
            .rect()
            .left()
    };
    let (pelvis, torso, arm, forearm) = (x("pelvis"), x("torso"), x("upper_arm_l"), x("forearm_l"));
    assert!(
        pelvis < torso && torso < arm && arm < forearm,
        "{pelvis} {torso} {arm} {forearm}"
    );
    assert_eq!(
        h.state().services.settings.recent_files,
        vec![robot.clone()]
    );

    // A corrupt file: the loader's error with its offset is shown, the robot stays.
    let bad = dir.join("bad/pmf_child_count_0xFFFFFFFF.pmf");
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(bad.into())),
    );
    h.run();
    let err = h.state().document.load_error.clone().expect("an error");
    assert!(err.message.contains("@0x"), "{}", err.message);
    h.get_by_label(&err.message);
    h.get_by_label("robot.pmf");
    h.get_by_label_contains("forearm_l [Piece]");
    assert_eq!(
        h.state().document.open.as_ref().unwrap().path,
        robot.as_path().into()
    );
}
