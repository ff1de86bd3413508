//! Colour modes and format display on a real (software) GPU: per-node and by-joint
//! colours, the PMF rules changing the picture, TPM textures under a data root and the
//! tail skin coloured by bone, and the PET puppet skinned on the GPU exactly where the
//! CPU reference puts it, neither mirrored nor inside-out.
//!
//! Fixture tests are ignored without an adapter; corpus tests also without `../shared`
//! (`#[vitrine_test(gpu)]`, `#[vitrine_test(shared, gpu)]`).

use crate::common;
use crate::render_support;

use crate::golden;
use glam::{Mat4, Vec2, Vec3};
use render_support::fixtures::{self, add_mesh, mesh_from, quad};
use render_support::{Rig, framed, near, unlit_front};
use std::path::Path;
use vitrine_core::formats::LoadOptions;
use vitrine_core::formats::pmf::{EulerOrder, PmfOptions, RotationUnits};
use vitrine_core::model::{
    Format, Material, Mesh, Model, Node, NodeKind, Pose, Skin, SkinInfluence, skin_positions,
};
use vitrine_render::colour_mode::{UNBOUND, point_joint_nodes};
use vitrine_render::textures::CHECKER_COLOURS;
use vitrine_render::{Camera, ColourMode, Lighting, ViewPreset, ViewSettings, node_colour};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 128;

fn rgb(p: &image::Rgba<u8>) -> [u8; 3] {
    [p.0[0], p.0[1], p.0[2]]
}

fn opaque(c: [u8; 3]) -> [u8; 4] {
    [c[0], c[1], c[2], 255]
}

/// Pixel of a model-space point in a square image of `size` rendered with `camera`.
fn pixel(camera: &Camera, p: Vec3, size: u32) -> (u32, u32) {
    let s = camera
        .project(p, size as f32, size as f32)
        .expect("in front of the camera");
    (s.x as u32, s.y as u32)
}

/// The synthetic PET samples were written with the plain reading of ANIM rotations.
fn as_stored() -> LoadOptions {
    LoadOptions {
        pet_rotations: vitrine_core::formats::pet::PetRotations::AsStored,
        ..LoadOptions::default()
    }
}

fn load(dir: &Path, file: &str, options: &LoadOptions) -> Model {
    vitrine_test_support::load_path(&dir.join(file), options)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Unlit view (colours come out as the palette's bytes) from `preset`.
fn unlit(preset: ViewPreset, mode: ColourMode) -> ViewSettings {
    let mut v = unlit_front();
    v.camera.set_preset(preset);
    v.colour_mode = mode;
    v
}

/// Unlit view from +Z, the side the in-code quads face.
fn unlit_quads(mode: ColourMode) -> ViewSettings {
    let mut v = unlit_front();
    v.colour_mode = mode;
    v
}

/// Two quads side by side on nodes 0 and 1, both with one grey material.
fn two_quads() -> Model {
    let mut m = Model::new(Format::Pmf, "test");
    m.materials
        .push(Material::new("grey", [0.2, 0.2, 0.2, 1.0]));
    let uv = (Vec2::ZERO, Vec2::ONE);
    add_mesh(
        &mut m,
        "left",
        mesh_from(&quad(-2.0, -1.0, -0.2, 1.0, 0.0, uv.0, uv.1), 0),
        None,
    );
    add_mesh(
        &mut m,
        "right",
        mesh_from(&quad(0.2, -1.0, 2.0, 1.0, 0.0, uv.0, uv.1), 0),
        None,
    );
    m
}

#[vitrine_test(gpu)]
fn per_node_mode_paints_each_node_its_palette_colour() {
    let mut rig = Rig::new();
    let model = two_quads();
    let mut view = unlit_quads(ColourMode::PerNode);
    framed(&mut view.camera, &model, &Pose::rest(&model));
    let left = pixel(&view.camera, Vec3::new(-1.1, 0.0, 0.0), SIZE);
    let right = pixel(&view.camera, Vec3::new(1.1, 0.0, 0.0), SIZE);

    let img = rig.render_pose(&model, &Pose::rest(&model), &view, SIZE);
    for (node, (x, y)) in [(0, left), (1, right)] {
        let got = img.get_pixel(x, y).0;
        assert!(
            near(got, opaque(node_colour(node)), 2),
            "node {node}: {got:?}"
        );
    }
    // Textured: both show the material's grey (linear 0.2 → sRGB 124).
    view.colour_mode = ColourMode::Textured;
    let img = rig.render_pose(&model, &Pose::rest(&model), &view, SIZE);
    for (x, y) in [left, right] {
        assert!(near(img.get_pixel(x, y).0, [124, 124, 124, 255], 2));
    }
}

/// A static mesh named like its skin (the TPM convention): the left quad's points are
/// bound to joint 0 (node 1), the right quad's to nothing.
fn half_bound() -> Model {
    let mut m = two_quads();
    let mut mesh = Mesh {
        name: "body".into(),
        ..mesh_from(
            &[
                quad(-2.0, -1.0, -0.2, 1.0, 0.0, Vec2::ZERO, Vec2::ONE),
                quad(0.2, -1.0, 2.0, 1.0, 0.0, Vec2::ZERO, Vec2::ONE),
            ]
            .concat(),
            0,
        )
    };
    let bound = SkinInfluence {
        joints: [0, 0, 0, 0],
        weights: [1.0, 0.0, 0.0, 0.0],
    };
    mesh.influences = (0..mesh.points.len())
        .map(|i| {
            if i < 6 {
                bound
            } else {
                SkinInfluence::default()
            }
        })
        .collect();
    m.meshes = vec![mesh];
    m.nodes.truncate(1);
    m.nodes[0].name = "body".into();
    m.nodes.push(Node::new("bone", Some(0), NodeKind::Bone));
    m.skins.push(Skin {
        name: "body".into(),
        joints: vec![1],
        inverse_bind: vec![Mat4::IDENTITY],
    });
    m.validate().unwrap();
    m
}

#[vitrine_test(gpu)]
fn by_joint_mode_colours_bound_points_by_their_joint_and_unbound_grey() {
    let mut rig = Rig::new();
    let model = half_bound();
    let mut view = unlit_quads(ColourMode::ByJoint);
    framed(&mut view.camera, &model, &Pose::rest(&model));
    let img = rig.render_pose(&model, &Pose::rest(&model), &view, SIZE);
    let (lx, ly) = pixel(&view.camera, Vec3::new(-1.1, 0.0, 0.0), SIZE);
    let (rx, ry) = pixel(&view.camera, Vec3::new(1.1, 0.0, 0.0), SIZE);
    assert!(
        near(img.get_pixel(lx, ly).0, opaque(node_colour(1)), 2),
        "bound: {:?}",
        img.get_pixel(lx, ly)
    );
    assert!(
        near(img.get_pixel(rx, ry).0, opaque(UNBOUND), 2),
        "unbound: {:?}",
        img.get_pixel(rx, ry)
    );
    // Per node: the whole mesh is its node's colour, bound or not.
    view.colour_mode = ColourMode::PerNode;
    let img = rig.render_pose(&model, &Pose::rest(&model), &view, SIZE);
    assert!(near(img.get_pixel(rx, ry).0, opaque(node_colour(0)), 2));
}

#[vitrine_test(shared, gpu)]
fn colour_modes_golden_images() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let lit = |preset, mode| {
        let mut v = ViewSettings {
            colour_mode: mode,
            ..Default::default()
        };
        v.camera.set_preset(preset);
        v
    };
    let cases = [
        (
            "pmf-robot-per-node",
            "pmf/robot.pmf",
            lit(ViewPreset::Iso, ColourMode::PerNode),
        ),
        (
            "tpm-tail-by-joint",
            "tpm/tail_skin.tpm",
            lit(ViewPreset::Iso, ColourMode::ByJoint),
        ),
        (
            "pet-puppet-by-joint",
            "pet/puppet_v13.pet",
            lit(ViewPreset::Front, ColourMode::ByJoint),
        ),
        (
            "pet-puppet-front",
            "pet/puppet_v13.pet",
            lit(ViewPreset::Front, ColourMode::Textured),
        ),
        (
            "tpm-lab-per-node",
            "tpm/lab_scene.tpm",
            lit(ViewPreset::Iso, ColourMode::PerNode),
        ),
    ];
    for (name, file, view) in cases {
        let model = load(&dir, file, &LoadOptions::default());
        let img = rig.render(&model, &view, SIZE);
        golden::check(name, &img);
    }
}

/// Pixels that are not the background.
fn coverage(img: &image::RgbaImage, bg: [u8; 4]) -> Vec<bool> {
    img.pixels().map(|p| p.0 != bg).collect()
}

/// Fraction of pixels whose coverage differs.
fn mask_difference(a: &[bool], b: &[bool]) -> f64 {
    let diff = a.iter().zip(b).filter(|(x, y)| x != y).count();
    let union = a.iter().zip(b).filter(|(x, y)| **x || **y).count();
    diff as f64 / union.max(1) as f64
}

#[vitrine_test(shared, gpu)]
fn pmf_rules_change_the_walking_robot_but_not_its_rest_pose() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let default = load(&dir, "pmf/robot.pmf", &LoadOptions::default());
    let walk = default.clip_index("walk").expect("walk");
    let at4 = |m: &Model| Pose::sample(m, Some(walk), m.clips[walk].frame_time(4.0), 0);
    // One camera for every render: framed on the default walk pose from the side, where
    // swinging limbs show.
    let mut view = unlit(ViewPreset::Side, ColourMode::PerNode);
    framed(&mut view.camera, &default, &at4(&default));
    let bg = view.background;
    let base = rig.render_pose(&default, &at4(&default), &view, SIZE);
    let base_rest = rig.render_pose(&default, &Pose::rest(&default), &view, SIZE);

    for (what, options) in [
        (
            "radians",
            PmfOptions {
                units: RotationUnits::Radians,
                ..PmfOptions::default()
            },
        ),
        (
            "zyx",
            PmfOptions {
                euler: EulerOrder::Zyx,
                ..PmfOptions::default()
            },
        ),
    ] {
        let opts = LoadOptions {
            pmf: options,
            ..LoadOptions::default()
        };
        let other = load(&dir, "pmf/robot.pmf", &opts);
        let img = rig.render_pose(&other, &at4(&other), &view, SIZE);
        let changed = img
            .pixels()
            .zip(base.pixels())
            .filter(|(a, b)| !near(a.0, b.0, 8))
            .count();
        assert!(
            changed as f64 > 0.01 * (SIZE * SIZE) as f64,
            "{what}: only {changed} pixels changed at walk frame 4"
        );
        let rest = rig.render_pose(&other, &Pose::rest(&other), &view, SIZE);
        let d = mask_difference(&coverage(&rest, bg), &coverage(&base_rest, bg));
        assert!(d < 0.001, "{what}: the rest pose changed ({d})");
    }
    // Radians tangle the robot: its silhouette is not the default one.
    let radians = load(
        &dir,
        "pmf/robot.pmf",
        &LoadOptions {
            pmf: PmfOptions {
                units: RotationUnits::Radians,
                ..PmfOptions::default()
            },
            ..LoadOptions::default()
        },
    );
    let img = rig.render_pose(&radians, &at4(&radians), &view, SIZE);
    let d = mask_difference(&coverage(&img, bg), &coverage(&base, bg));
    assert!(d > 0.2, "radians silhouette differs by only {d}");
}

#[vitrine_test(shared, gpu)]
fn pmf_sidecar_texture_shows_and_per_piece_colours_still_switch_on() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let tmp_guard = fixtures::temp_dir("pmf-sidecar");
    let tmp = tmp_guard.path().to_path_buf();
    std::fs::copy(dir.join("pmf/crate.pmf"), tmp.join("crate.pmf")).unwrap();
    let paint = [40, 200, 90];
    let png = image::RgbaImage::from_pixel(8, 8, image::Rgba(opaque(paint)));
    fixtures::write_png(&tmp, "crate.png", &png);
    let model = load(&tmp, "crate.pmf", &LoadOptions::default());
    assert!(model.textures[0].resolved.is_some(), "crate.png not found");

    let mut view = unlit(ViewPreset::Front, ColourMode::Textured);
    framed(&mut view.camera, &model, &Pose::rest(&model));
    let centre = (SIZE / 2, SIZE / 2);
    let img = rig.render_pose(&model, &Pose::rest(&model), &view, SIZE);
    let got = img.get_pixel(centre.0, centre.1).0;
    assert!(near(got, opaque(paint), 2), "textured: {got:?}");

    view.colour_mode = ColourMode::PerNode;
    let img = rig.render_pose(&model, &Pose::rest(&model), &view, SIZE);
    let got = rgb(img.get_pixel(centre.0, centre.1));
    let nodes: Vec<[u8; 3]> = (0..model.nodes.len()).map(node_colour).collect();
    assert!(
        nodes.iter().any(|c| near(opaque(*c), opaque(got), 2)),
        "per piece: {got:?} is no piece's colour"
    );
}

/// Pixels of the checkerboard placeholder's magenta (its other colour is black, which
/// shadows also are).
fn checker_pixels(img: &image::RgbaImage) -> usize {
    img.pixels()
        .filter(|p| near(p.0, CHECKER_COLOURS[0], 3))
        .count()
}

#[vitrine_test(shared, gpu)]
fn tpm_textures_resolve_beside_the_file_and_under_a_data_root() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let view = unlit(ViewPreset::Iso, ColourMode::Textured);

    // Beside the file: every colour map is found and no checkerboard shows.
    let beside = load(&dir, "tpm/lab_scene.tpm", &LoadOptions::default());
    assert!(beside.textures.iter().all(|t| t.resolved.is_some()));
    let img = rig.render(&beside, &view, SIZE);
    assert_eq!(checker_pixels(&img), 0, "a texture shows as a checkerboard");

    // Alone in a folder: missing, shown as the checkerboard.
    let tmp_guard = fixtures::temp_dir("tpm-root");
    let tmp = tmp_guard.path().to_path_buf();
    let alone = tmp.join("models");
    std::fs::create_dir_all(&alone).unwrap();
    std::fs::copy(dir.join("tpm/lab_scene.tpm"), alone.join("lab_scene.tpm")).unwrap();
    let missing = load(&alone, "lab_scene.tpm", &LoadOptions::default());
    assert!(missing.textures.iter().all(|t| t.resolved.is_none()));
    let img = rig.render(&missing, &view, SIZE);
    assert!(
        checker_pixels(&img) > 100,
        "no checkerboard for missing maps"
    );

    // A Trespasser data root holding Map/Lab/<files> (other case than the TPM writes):
    // found through the whole relative path, and the render matches the one beside.
    let root = tmp.join("data");
    let lab = root.join("map").join("LAB");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&lab).unwrap();
    std::fs::copy(dir.join("tpm/crate.bmp"), lab.join("CRATE.bmp")).unwrap();
    // Bare names (`fence.bmp`) are looked up at the root itself.
    for f in ["fence.bmp", "fence_alpha.bmp"] {
        std::fs::copy(dir.join("tpm").join(f), root.join(f.to_uppercase())).unwrap();
    }
    let options = LoadOptions {
        data_roots: vec![root.as_path().into()],
        ..LoadOptions::default()
    };
    let rooted = load(&alone, "lab_scene.tpm", &options);
    for t in &rooted.textures {
        let p = t
            .resolved
            .as_ref()
            .unwrap_or_else(|| panic!("{} missing", t.name));
        assert!(p.disk_file().starts_with(&root), "{} found at {p}", t.name);
    }
    let with_root = rig.render(&rooted, &view, SIZE);
    let reference = rig.render(&beside, &view, SIZE);
    let differing = with_root
        .pixels()
        .zip(reference.pixels())
        .filter(|(a, b)| !near(a.0, b.0, 2))
        .count();
    assert_eq!(
        differing, 0,
        "the data-root render differs from the reference"
    );
}

#[vitrine_test(shared, gpu)]
fn tpm_tail_coloured_by_bone_has_a_grey_unbound_tip() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let model = load(&dir, "tpm/tail_skin.tpm", &LoadOptions::default());
    let mesh = model
        .meshes
        .iter()
        .position(|m| m.name == "Tail")
        .expect("Tail");
    let joints = point_joint_nodes(&model, mesh);
    let tip = joints
        .iter()
        .position(Option::is_none)
        .expect("an unbound point");
    assert_eq!(joints.iter().filter(|j| j.is_none()).count(), 1);

    let pose = Pose::rest(&model);
    let world = skin_positions(&model, mesh, &pose);
    let mut view = unlit(ViewPreset::Front, ColourMode::ByJoint);
    framed(&mut view.camera, &model, &pose);
    // Near the tip (an eighth of the way to the last ring of bound points), seen close
    // up so the thin tip covers many pixels: grey.
    let ring: Vec<Vec3> = (0..world.len())
        .filter(|&i| joints[i].is_some() && joints[i] == joints[tip - 1])
        .map(|i| world[i])
        .collect();
    let ring_centre = ring.iter().copied().sum::<Vec3>() / ring.len() as f32;
    let near_tip = world[tip].lerp(ring_centre, 0.12);
    let mut close = view.clone();
    close.camera.target = near_tip;
    close.camera.distance = 0.06 / (close.camera.fov_y * 0.5).tan();
    let zoomed = rig.render_pose(&model, &pose, &close, SIZE);
    let got = rgb(zoomed.get_pixel(SIZE / 2, SIZE / 2));
    let spread = got.iter().max().unwrap() - got.iter().min().unwrap();
    assert!(
        spread < 30 && near(opaque(got), opaque(UNBOUND), 30),
        "near the unbound tip {got:?} is not grey"
    );
    // A tenth of the way from the first bone's ring of points to the next ring: that
    // bone's colour, blending only slightly into the next.
    let ring_of = |joint: Option<usize>| {
        let pts: Vec<Vec3> = (0..world.len())
            .filter(|&i| joints[i] == joint)
            .map(|i| world[i])
            .collect();
        pts.iter().copied().sum::<Vec3>() / pts.len() as f32
    };
    let first = joints.iter().position(Option::is_some).unwrap();
    let second = joints
        .iter()
        .position(|j| j.is_some() && *j != joints[first])
        .unwrap();
    let p = ring_of(joints[first]).lerp(ring_of(joints[second]), 0.1);
    // The ring centres lie on the tail's axis; look at the surface in front of it.
    let mut close = view.clone();
    close.camera.target = p;
    close.camera.distance = 0.06 / (close.camera.fov_y * 0.5).tan();
    let zoomed = rig.render_pose(&model, &pose, &close, SIZE);
    let got = zoomed.get_pixel(SIZE / 2, SIZE / 2).0;
    let want = node_colour(joints[first].unwrap());
    assert!(
        near(got, opaque(want), 30),
        "first bone: {got:?} vs {want:?}"
    );
}

/// The puppet at timeline frame `frame`.
fn puppet_pose(model: &Model, frame: f32) -> Pose {
    Pose::sample(model, Some(0), model.clips[0].frame_time(frame), 0)
}

/// `model` with every mesh replaced by its CPU-skinned positions in `pose`, drawn static
/// at the origin: what the GPU must draw.
fn cpu_skinned(model: &Model, pose: &Pose) -> Model {
    let mut out = model.clone();
    out.nodes = Vec::new();
    out.skins = Vec::new();
    out.clips = Vec::new();
    out.collision_boxes = Vec::new();
    for (i, mesh) in out.meshes.iter_mut().enumerate() {
        mesh.points = skin_positions(model, i, pose);
        mesh.skin = None;
        mesh.influences = Vec::new();
    }
    for i in 0..out.meshes.len() {
        let mut n = Node::new(format!("mesh {i}"), None, NodeKind::Part);
        n.mesh = Some(i);
        out.nodes.push(n);
    }
    out.validate().unwrap();
    out
}

#[vitrine_test(shared, gpu)]
fn pet_puppet_gpu_skinning_matches_the_cpu_reference() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let mut model = load(&dir, "pet/puppet_v13.pet", &as_stored());
    assert!(model.meshes.iter().any(|m| m.skin.is_some()), "not skinned");
    // Solid: the cape's alpha mask would cut holes where points lie.
    for m in &mut model.materials {
        m.opacity = None;
        m.blend = vitrine_core::model::BlendMode::Opaque;
    }
    let posed = puppet_pose(&model, 35.0);
    let reference = cpu_skinned(&model, &posed);

    let mut view = unlit(ViewPreset::Iso, ColourMode::PerNode);
    framed(&mut view.camera, &reference, &Pose::rest(&reference));
    let bg = view.background;
    let gpu = rig.render_pose(&model, &posed, &view, 256);
    let cpu = rig.render_pose(&reference, &Pose::rest(&reference), &view, 256);
    let rest = rig.render_pose(&model, &Pose::rest(&model), &view, 256);
    let (g, c) = (coverage(&gpu, bg), coverage(&cpu, bg));
    let d = mask_difference(&g, &c);
    assert!(d < 0.02, "GPU and CPU skinning silhouettes differ by {d}");
    // The frame is a real pose: the rest silhouette differs clearly.
    let d_rest = mask_difference(&coverage(&rest, bg), &c);
    assert!(
        d_rest > 0.05,
        "frame 35 looks like the rest pose ({d_rest})"
    );
    // Every CPU-skinned point lands on the GPU's figure (within a pixel).
    for (mi, mesh) in reference.meshes.iter().enumerate() {
        for p in &mesh.points {
            let (x, y) = pixel(&view.camera, *p, 256);
            let covered = (-1i32..=1).any(|dy| {
                (-1i32..=1).any(|dx| {
                    let (px, py) = ((x as i32 + dx) as u32, (y as i32 + dy) as u32);
                    px < 256 && py < 256 && g[(py * 256 + px) as usize]
                })
            });
            assert!(
                covered,
                "mesh {mi}: point {p} at ({x}, {y}) is off the GPU figure"
            );
        }
    }
}

#[vitrine_test(shared, gpu)]
fn pet_puppet_is_neither_mirrored_nor_inside_out() {
    let dir = common::synthetic();
    let mut rig = Rig::new();
    let model = load(&dir, "pet/puppet_v13.pet", &as_stored());
    let pose = Pose::rest(&model);

    // Inside-out test: only the light from the camera's side lights the figure (no
    // ambient), faces are culled as authored. Drawn right, the faces seen are those
    // turned towards the light; inside out, they would be the far faces, turned away.
    // Colour per node, so brightness is lighting only.
    let mut view = unlit(ViewPreset::Front, ColourMode::PerNode);
    view.lighting = Lighting {
        ambient: 0.0,
        diffuse: 1.0,
        specular: 0.0,
        ..Lighting::DEFAULT
    };
    framed(&mut view.camera, &model, &pose);
    let bg = view.background;
    let brightness = |img: &image::RgbaImage| {
        let covered: Vec<u32> = img
            .pixels()
            .filter(|p| p.0 != bg)
            .map(|p| p.0[..3].iter().map(|&c| c as u32).sum::<u32>())
            .collect();
        covered.iter().sum::<u32>() as f64 / covered.len().max(1) as f64 / 3.0
    };
    let front = brightness(&rig.render_pose(&model, &pose, &view, SIZE));
    // The control: the same figure with every triangle's winding reversed (normals kept)
    // shows its far faces, turned away from the light: clearly darker.
    let mut flipped = model.clone();
    for m in &mut flipped.meshes {
        for tri in m.corners.chunks_exact_mut(3) {
            tri.swap(1, 2);
        }
    }
    let inside_out = brightness(&rig.render_pose(&flipped, &pose, &view, SIZE));
    assert!(
        front > 1.5 * inside_out && front > 100.0,
        "mean brightness {front:.0} as loaded vs {inside_out:.0} inside out"
    );

    // Mirror test: coloured by joint, unlit, the pixel where the CPU puts the left
    // forearm's points shows the left forearm's colour (a mirrored image would show the
    // right one there).
    let mut view = unlit(ViewPreset::Front, ColourMode::ByJoint);
    framed(&mut view.camera, &model, &pose);
    let img = rig.render_pose(&model, &pose, &view, 256);
    let mesh = model.meshes.iter().position(|m| m.skin.is_some()).unwrap();
    let joints = point_joint_nodes(&model, mesh);
    let world = skin_positions(&model, mesh, &pose);
    for side in ["L", "R"] {
        let node = model
            .nodes
            .iter()
            .position(|n| n.name == format!("Bip01 {side} Forearm"))
            .expect("forearm bone");
        let pts: Vec<Vec3> = (0..world.len())
            .filter(|&i| joints[i] == Some(node))
            .map(|i| world[i])
            .collect();
        assert!(!pts.is_empty(), "no point bound to the {side} forearm");
        let centre = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
        let (x, y) = pixel(&view.camera, centre, 256);
        let got = img.get_pixel(x, y).0;
        assert!(
            near(got, opaque(node_colour(node)), 24),
            "{side} forearm at ({x}, {y}): {got:?}, want {:?}",
            node_colour(node)
        );
    }
    // And the figure faces the viewer of the front view with its left hand on the
    // viewer's right (a person, not a mirror image): left = up × facing.
    let l = model
        .nodes
        .iter()
        .position(|n| n.name == "Bip01 L Forearm")
        .unwrap();
    let r = model
        .nodes
        .iter()
        .position(|n| n.name == "Bip01 R Forearm")
        .unwrap();
    let origin = |n: usize| pose.world[n].transform_point3(Vec3::ZERO);
    let (lx, _) = pixel(&view.camera, origin(l), 256);
    let (rx, _) = pixel(&view.camera, origin(r), 256);
    assert!(lx > rx, "left forearm at x {lx}, right at {rx}");
}
