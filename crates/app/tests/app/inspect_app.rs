//! Inspection in the window, driven through egui_kittest with the real layout, command
//! handling and view input (picking), and a stand-in for the GPU image; the view settings
//! the window would hand the renderer are then rendered headless to check the picture.

use crate::app_support;
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::{Vec2, Vec3};
use vitrine_app::inspect::view_inspect::{pick_at, view_inspect_ui};
use vitrine_app::state::AppState;
use vitrine_app::viewport::camera_input;
use vitrine_core::model::{Corner, Format, Material, Mesh, Model, Node, NodeKind, Submesh};
use vitrine_render::{RenderTarget, SceneRenderer};
use vitrine_test_needs::vitrine_test;

/// The view's rectangle in the last frame (the stand-in records it).
static VIEW_RECT: std::sync::Mutex<Option<egui::Rect>> = std::sync::Mutex::new(None);

/// The app's frame ([`app_support::run_frame`]) with the real view's input (camera and
/// picking) on a plain area.
fn frame(ui: &mut egui::Ui, state: &mut AppState) {
    app_support::run_frame(ui, state, |ui, state| {
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
        *VIEW_RECT.lock().unwrap() = Some(rect);
        let mut out = camera_input(ui, &response);
        out.extend(view_inspect_ui(ui, &response, state));
        out
    });
}

/// A hull box (level 1) with a turret box (level 2, its child) on top; both white.
fn tank() -> Model {
    let mut m = Model::new(Format::Pie, "3");
    m.materials.push(Material::new("paint", [1.0; 4]));
    let boxes = [
        ("hull", Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.8, 1.0)),
        (
            "turret",
            Vec3::new(-0.4, 0.8, -0.4),
            Vec3::new(0.4, 1.6, 0.4),
        ),
    ];
    for (i, (name, lo, hi)) in boxes.into_iter().enumerate() {
        let c = |x: usize, y: usize, z: usize| {
            Vec3::new(
                if x == 1 { hi.x } else { lo.x },
                if y == 1 { hi.y } else { lo.y },
                if z == 1 { hi.z } else { lo.z },
            )
        };
        let faces = [
            [c(1, 0, 1), c(1, 0, 0), c(1, 1, 0), c(1, 1, 1)],
            [c(0, 0, 0), c(0, 0, 1), c(0, 1, 1), c(0, 1, 0)],
            [c(0, 1, 1), c(1, 1, 1), c(1, 1, 0), c(0, 1, 0)],
            [c(0, 0, 0), c(1, 0, 0), c(1, 0, 1), c(0, 0, 1)],
            [c(0, 0, 1), c(1, 0, 1), c(1, 1, 1), c(0, 1, 1)],
            [c(1, 0, 0), c(0, 0, 0), c(0, 1, 0), c(1, 1, 0)],
        ];
        let mut mesh = Mesh {
            name: name.into(),
            ..Mesh::default()
        };
        for q in faces {
            for k in [0, 1, 2, 0, 2, 3] {
                mesh.corners
                    .push(Corner::new(mesh.points.len() as u32, Vec2::ZERO));
                mesh.points.push(q[k]);
            }
        }
        mesh.submeshes.push(Submesh {
            first_triangle: 0,
            triangle_count: 12,
            material: 0,
        });
        m.meshes.push(mesh);
        let mut n = Node::new(name, (i == 1).then_some(0), NodeKind::Level);
        n.mesh = Some(i);
        m.nodes.push(n);
    }
    m.validate().unwrap();
    m
}

/// A press and release of the primary button at `pos`.
fn click_at(h: &mut Harness<'static, AppState>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    h.run();
    h.drop_at(pos);
    h.run();
}

fn harness() -> Harness<'static, AppState> {
    let mut state = app_support::fresh_state();
    state.set_document(
        vitrine_core::files::FileRef::Disk("/models/tank.pie".into()),
        tank(),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1100.0, 800.0))
        .build_ui_state(frame, state);
    h.run();
    h
}

/// Renders what the window's renderer would get for this state; counts bright pixels
/// above the hull's top in the picture (the turret).
fn turret_pixels(state: &AppState) -> usize {
    let gpu = crate::common::gpu();
    let doc = state.document.open.as_ref().unwrap();
    let mut scene = SceneRenderer::new(&gpu.device, &gpu.queue, vitrine_test_support::disk());
    scene.set_model(&gpu.device, &gpu.queue, &doc.model);
    let mut view = state.view_settings();
    // Looking from +Z towards −Z.
    (view.camera.yaw, view.camera.pitch) = (0.0, 0.0);
    view.camera
        .frame(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 1.6, 1.0));
    let target = RenderTarget::new(&gpu.device, 100, 100);
    scene.render(&gpu.device, &gpu.queue, &target, &doc.pose, &view);
    let img = target.read_rgba(&gpu.device, &gpu.queue).unwrap();
    let top = view
        .camera
        .project(Vec3::new(0.0, 0.85, 1.0), 100.0, 100.0)
        .expect("the hull's top is in view");
    img.enumerate_pixels()
        .filter(|(_, y, p)| (*y as f32) < top.y && p.0[0] > 150)
        .count()
}

#[vitrine_test(gpu)]
fn the_eye_toggle_hides_a_level_and_the_view_loses_it() {
    let mut h = harness();
    assert!(h.state().view_settings().node_mask.is_empty());
    let before = turret_pixels(h.state());
    h.get_by_label("Show turret").click();
    h.run();
    assert_eq!(h.state().view_settings().node_mask, [true, false]);
    let after = turret_pixels(h.state());
    assert!(before > 200, "turret not drawn at first ({before} px)");
    assert_eq!(after, 0, "hidden turret still drawn");
    // Hiding the hull hides its child too; Show all brings both back.
    h.get_by_label("Show turret").click();
    h.get_by_label("Show hull").click();
    h.run();
    assert_eq!(h.state().view_settings().node_mask, [false, false]);
    h.get_by_label("Show all").click();
    h.run();
    assert!(h.state().view_settings().node_mask.iter().all(|&v| v));
}

#[test]
fn selecting_in_the_tree_tints_and_isolate_shows_only_the_selection() {
    let mut h = harness();
    h.get_by_label_contains("turret [Level]").click();
    h.run();
    assert_eq!(h.state().view_settings().selected, Some(1));
    h.get_by_label("Selected: turret (Esc to clear)");
    h.get_by_label("Isolate").click();
    h.run();
    assert_eq!(h.state().view_settings().node_mask, [false, true]);
    // Esc clears the selection and leaves isolate.
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().view_settings().selected, None);
    assert!(h.state().view_settings().node_mask.is_empty());
}

#[test]
fn escape_closes_an_open_menu_and_keeps_the_selection() {
    let mut h = harness();
    h.get_by_label_contains("turret [Level]").click();
    h.run();
    assert_eq!(h.state().view_settings().selected, Some(1));
    h.get_by_label("File").click();
    h.run();
    assert!(
        h.query_by_label_contains("Export glTF").is_some(),
        "File menu not open"
    );
    // The first Escape is the menu's: it closes and the selection stays.
    h.key_press(Key::Escape);
    h.run();
    assert!(
        h.query_by_label_contains("Export glTF").is_none(),
        "File menu still open"
    );
    assert_eq!(h.state().view_settings().selected, Some(1));
    // With no menu open, Escape clears the selection as before.
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().view_settings().selected, None);
}

#[test]
fn clicking_the_view_picks_the_part_under_the_cursor() {
    let mut h = harness();
    let rect = VIEW_RECT.lock().unwrap().expect("view laid out");
    let camera = h.state().view.camera;
    let at = |p: Vec3| {
        let q = camera.project(p, rect.width(), rect.height()).unwrap();
        rect.min + egui::vec2(q.x, q.y)
    };
    // What the hover names: the turret's top centre, the hull's front.
    let turret = at(Vec3::new(0.0, 1.6, 0.0));
    let hull = at(Vec3::new(0.8, 0.1, 1.0));
    assert_eq!(pick_at(h.state(), rect, turret).map(|x| x.node), Some(1));
    assert_eq!(pick_at(h.state(), rect, hull).map(|x| x.node), Some(0));
    click_at(&mut h, turret);
    assert_eq!(h.state().document.inspect.selected, Some(1));
    click_at(&mut h, hull);
    assert_eq!(h.state().document.inspect.selected, Some(0));
    // Empty background clears it.
    click_at(&mut h, rect.min + egui::vec2(5.0, 5.0));
    assert_eq!(h.state().document.inspect.selected, None);
}

#[test]
fn overlay_keys_and_menu_toggle_persisted_settings() {
    let mut h = harness();
    h.key_press(Key::N);
    h.key_press(Key::S);
    h.run();
    let s = &h.state().services.settings;
    assert!(s.overlays.normals && s.shadows);
    // The side panel's toggle turns it off again, and the slider appears with normals.
    assert!(h.query_all_by_label("Normal length").next().is_some());
    h.get_by_label("Normals").click();
    h.run();
    assert!(!h.state().services.settings.overlays.normals);
    assert!(h.query_all_by_label("Normal length").next().is_none());
}
