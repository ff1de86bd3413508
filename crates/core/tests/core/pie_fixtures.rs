//! The PIE loader on hand-written fixtures (`tests/fixtures/pie/`), one per quirk of the
//! format: what a user of `vitrine info` or the viewer would see for each.

use crate::common;

use glam::{Quat, Vec2, Vec3};
use std::path::PathBuf;
use vitrine_core::formats::{self, ErrorKind, LoadOptions};
use vitrine_core::model::{Billboard, BlendMode, Location, Model, Pose, TextureRole};

fn path(name: &str) -> PathBuf {
    common::fixtures().join("pie").join(name)
}

fn load(name: &str) -> Model {
    common::load_path(&path(name), &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn load_err(name: &str) -> formats::LoadError {
    match common::load_path(&path(name), &LoadOptions::default()) {
        Ok(_) => panic!("{name} loaded but should fail"),
        Err(e) => e,
    }
}

fn warnings(m: &Model) -> Vec<String> {
    m.diagnostics.iter().map(|d| d.display_with("f")).collect()
}

fn texture(m: &Model, role: TextureRole, tileset: u8) -> &vitrine_core::model::TextureRef {
    m.textures
        .iter()
        .find(|t| t.role == role && t.tileset == Some(tileset))
        .unwrap_or_else(|| {
            panic!(
                "no {role:?} texture for tileset {tileset}: {:?}",
                m.textures
            )
        })
}

#[test]
fn line_endings_blanks_and_end_of_file_quirks_load_the_same_cube() {
    let reference = load("cube.pie");
    assert_eq!(reference.meshes[0].points.len(), 8);
    assert_eq!(reference.meshes[0].triangle_count(), 12);
    for name in [
        "crlf.pie",
        "cr_only.pie",
        "ctrl_z.pie",
        "no_final_newline.pie",
        "trailing_blanks.pie",
    ] {
        let m = load(name);
        assert!(m.diagnostics.is_empty(), "{name}: {:?}", warnings(&m));
        assert_eq!(m.meshes[0].points, reference.meshes[0].points, "{name}");
        assert_eq!(m.meshes[0].corners, reference.meshes[0].corners, "{name}");
        assert_eq!(m.connectors, reference.connectors, "{name}");
        assert_eq!(m.textures[0].name, "page-90-fixture.png", "{name}");
        assert!(m.textures[0].resolved.is_some(), "{name}");
    }
}

#[test]
fn errors_name_the_same_line_whatever_the_line_endings() {
    // Break point 3's x (line 10 of cube.pie; the blank-line variants have one more line
    // before it) and check every variant names the line an editor shows.
    for (name, line) in [
        ("cube.pie", 10),
        ("crlf.pie", 11),
        ("cr_only.pie", 11),
        ("ctrl_z.pie", 11),
    ] {
        let bytes = std::fs::read(path(name)).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let broken = text.replacen("\t-10 20 -10", "\tX 20 -10", 1);
        assert_ne!(broken, text, "{name}");
        let e = formats::parse(
            vitrine_core::model::Format::Pie,
            broken.as_bytes(),
            name,
            &Default::default(),
        )
        .unwrap_err();
        assert_eq!(e.location, Location::Line(line), "{name}: {e}");
        assert_eq!(e.kind, ErrorKind::BadValue, "{name}: {e}");
        assert!(
            e.to_string()
                .starts_with(&format!("{name}:{line}: point 3 x")),
            "{e}"
        );
    }
}

#[test]
fn legacy_1999_file_several_records_per_line_ngons_bsp_and_a_spaced_texture_name() {
    let m = load("legacy_1999.pie");
    assert_eq!(m.version, "2");
    let mesh = &m.meshes[0];
    assert_eq!(mesh.points.len(), 9);
    // In the file's own axes (the model mirrors PIE's left-handed X).
    assert_eq!(
        m.axes.point_to_file(mesh.points[4]),
        Vec3::new(-10.0, 0.0, 10.0)
    );
    // quad + quad + pentagon (3) + degenerate + one more = 9 triangles.
    assert_eq!(mesh.triangle_count(), 9);
    // Corners in the file's order: the X mirror swapped each triangle's last two.
    let file_corner = |t: usize, k: usize| &mesh.corners[t * 3 + [0, 2, 1][k]];
    let tri = |t: usize| -> [u32; 3] { std::array::from_fn(|k| file_corner(t, k).point) };
    assert_eq!(tri(0), [3, 2, 1]);
    assert_eq!(tri(1), [3, 1, 0]);
    // The pentagon 3 7 8 6 2 fans around its first point.
    assert_eq!([tri(4), tri(5), tri(6)], [[3, 7, 8], [3, 8, 6], [3, 6, 2]]);
    // UVs follow the fan; PIE 2 texels are divided by 256.
    assert_eq!(file_corner(4, 2).uv[0], Vec2::new(0.25, 0.125));
    assert_eq!(file_corner(6, 2).uv[0], Vec2::new(0.0, 0.25));
    // The degenerate triangle is kept.
    assert_eq!(tri(7), [0, 0, 1]);
    // The texture name with a space, found through the page-NN fallback.
    let base = texture(&m, TextureRole::Base, 0);
    assert_eq!(base.name, "page-90-fixture urban.pcx");
    assert!(base.resolved.is_some());
    let w = warnings(&m);
    assert!(w.iter().any(|w| w.contains("legacy BSP block")), "{w:?}");
    // Both connectors were on one line after the BSP block; z up in the file.
    assert_eq!(m.connectors.len(), 2);
    assert_eq!(m.connectors[1].raw, [5.0, -5.0, 10.0]);
    assert_eq!(
        m.axes.point_to_file(m.connectors[1].position),
        Vec3::new(5.0, 10.0, -5.0)
    );
    assert_eq!(m.connectors[1].position, Vec3::new(-5.0, 10.0, -5.0));
}

#[test]
fn pie2_uvs_are_texels_of_a_256_page() {
    let m = load("pie2_uv_texels.pie");
    // In the file's corner order (the X mirror swapped each triangle's last two).
    let uv: Vec<Vec2> = m.meshes[0]
        .corners
        .chunks_exact(3)
        .flat_map(|t| [t[0].uv[0], t[2].uv[0], t[1].uv[0]])
        .collect();
    assert_eq!(
        uv,
        vec![
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.5, 0.0)
        ]
    );
}

#[test]
fn notexture_models_have_no_base_texture() {
    let m = load("notexture.pie");
    assert!(m.textures.is_empty(), "{:?}", m.textures);
    assert_eq!(m.materials[0].base, None);
    assert!(
        m.properties
            .iter()
            .any(|p| p.key == "Texture" && p.value.contains("NOTEXTURE")),
        "{:?}",
        m.properties
    );
}

#[test]
fn pie4_comments_tcmask_tilesets_and_per_level_overrides() {
    let m = load("pie4_overrides.pie");
    assert_eq!(m.version, "4");
    assert!(m.diagnostics.is_empty(), "{:?}", warnings(&m));
    assert_eq!(m.nodes.len(), 2);
    assert_eq!(m.nodes[1].name, "level 2");
    let l1 = &m.materials[0];
    let name = |i: Option<usize>| i.map(|i| m.textures[i].name.as_str());
    assert_eq!(name(l1.base), Some("page-90-fixture.png"));
    assert_eq!(name(l1.tcmask), Some("page-90_tcmask.png"));
    assert_eq!(name(l1.normal), Some("page-90_nm.png"));
    assert_eq!(l1.blend, BlendMode::AlphaBlend);
    assert_eq!(
        texture(&m, TextureRole::Base, 1).name,
        "page-90-fixture-urban.png"
    );
    assert!(
        m.textures.iter().all(|t| t.resolved.is_some()),
        "{:?}",
        m.textures
    );
    // Level 2: TYPE 202 (additive), its own tileset-0 page, INTERPOLATE 0.
    let l2 = &m.materials[1];
    assert_eq!(name(l2.base), Some("page-90-fixture-urban.png"));
    assert_eq!(l2.blend, BlendMode::Additive);
    assert_eq!(
        m.axes.point_to_file(m.meshes[1].points[1]),
        Vec3::new(10.0, 20.0, 0.0)
    );
    let keys: Vec<&str> = m.properties.iter().map(|p| p.key.as_str()).collect();
    assert!(keys.contains(&"Level 2 type flags"), "{keys:?}");
    assert!(keys.contains(&"Level 2 interpolate"), "{keys:?}");
    assert_eq!(m.details.to_json()["type_flags"], "0x10200");
    assert_eq!(m.details.to_json()["levels"][1]["triangles"], 1);
}

#[test]
fn tcmask_is_derived_from_the_page_when_type_has_0x10000() {
    let m = load("tcmask_derived.pie");
    let mask = m.materials[0].tcmask.map(|i| &m.textures[i]).unwrap();
    assert_eq!(mask.role, TextureRole::Tcmask);
    assert_eq!(mask.name, "page-90_tcmask.png");
    assert!(mask.resolved.is_some());
    // Without the flag there is no mask.
    assert_eq!(load("cube.pie").materials[0].tcmask, None);
}

#[test]
fn shadow_mesh_is_kept_apart_from_the_render_mesh() {
    let m = load("shadow_mesh.pie");
    assert_eq!(m.shadow_meshes.len(), 1);
    let s = &m.shadow_meshes[0];
    assert_eq!((s.node, s.points.len(), s.triangles.len()), (0, 8, 12));
    assert_eq!(m.axes.point_to_file(s.points[6]), Vec3::new(8.0, 18.0, 8.0));
    assert_eq!(m.meshes[0].points.len(), 8);
    assert_eq!(m.details.to_json()["levels"][0]["shadow_points"], 8);
    assert_eq!(m.details.to_json()["levels"][0]["shadow_triangles"], 12);
    assert!(m.materials[0].tcmask.is_some());
}

#[test]
fn normals_are_used_when_they_match_and_dropped_with_a_warning_otherwise() {
    let m = load("normals.pie");
    assert!(
        m.meshes[0]
            .corners
            .iter()
            .all(|c| c.normal == Some(Vec3::NEG_Z))
    );
    let m = load("normals_mismatch.pie");
    assert!(m.meshes[0].corners.iter().all(|c| c.normal.is_none()));
    let w = warnings(&m);
    assert_eq!(
        w,
        vec!["f:11: NORMALS 1 does not match POLYGONS 2; normals dropped, face normals used"]
    );
    // Face normals from the winding then face -Z like the authored ones.
    assert_eq!(m.meshes[0].face_normal(0), Vec3::NEG_Z);
}

/// Equal rotations (q and −q are the same rotation).
fn same_rotation(a: Quat, b: Quat) -> bool {
    a.dot(b).abs() > 1.0 - 1e-5
}

#[test]
fn animobject_keyframes_axes_and_hidden_frames() {
    let m = load("animobject_hidden.pie");
    assert_eq!(m.clips.len(), 1);
    let clip = &m.clips[0];
    assert_eq!(clip.name, "levels + texture animation");
    assert_eq!((clip.fps, clip.frame_count, clip.looping), (4.0, 3, false));
    // Frame 1 of level 1: position (1000 2000 3000) → model (1, 3, 2); rotX 90° → pitch −90°.
    let pose = Pose::sample(&m, Some(0), clip.frame_time(1.0), 0);
    // Compared in the game's (unmirrored) axes.
    let (_, r, t) = m
        .axes
        .matrix_to_file(pose.world[0])
        .to_scale_rotation_translation();
    assert!(t.abs_diff_eq(Vec3::new(1.0, 3.0, 2.0), 1e-5), "{t}");
    assert!(
        same_rotation(r, Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
        "{r}"
    );
    // Frame 2: scale 2, yaw −45° (the file's third rotation value).
    let pose = Pose::sample(&m, Some(0), clip.frame_time(2.0), 0);
    let (s, r, _) = m
        .axes
        .matrix_to_file(pose.world[0])
        .to_scale_rotation_translation();
    assert!(s.abs_diff_eq(Vec3::splat(2.0), 1e-5), "{s}");
    assert!(
        same_rotation(r, Quat::from_rotation_y(-std::f32::consts::FRAC_PI_4)),
        "{r}"
    );
    // Level 2 is hidden in frames 0 and 2 (scale −1), shown in frame 1.
    let shown: Vec<bool> = (0..3)
        .map(|f| Pose::sample(&m, Some(0), clip.frame_time(f as f32 + 0.5), 0).visible[1])
        .collect();
    assert_eq!(shown, vec![false, true, false]);
    assert_eq!(m.details.to_json()["levels"][1]["animation"]["frames"], 3);
    assert_eq!(
        m.details.to_json()["levels"][1]["animation"]["ms_per_frame"],
        250
    );
    assert_eq!(m.details.to_json()["levels"][1]["animation"]["cycles"], 1);
    // EVENT 3 names a model beside this one.
    assert_eq!(m.events[0].kind, 3);
    assert!(m.events[0].resolved.is_some());
}

#[test]
fn texture_animation_of_an_effect() {
    let m = load("texanim_effect.pie");
    let clip = &m.clips[0];
    assert_eq!(clip.fps, 1000.0 / 300.0);
    let t = &clip.texture_frames[0];
    assert_eq!((t.mesh, t.frames, t.ms_per_frame), (0, 4, 300.0));
    assert_eq!(t.frame_size, Vec2::new(0.5, 0.5));
    assert!(!t.team_colour);
    assert!(m.meshes[0].corners.iter().all(|c| c.animated));
    // Frame 3 of a 2×2 grid of half-page cells is the bottom right one.
    let pose = Pose::sample(&m, Some(0), 0.95, 0);
    assert_eq!(pose.texture_offset[0], Vec2::new(0.5, 0.5));
    // TYPE 222: additive, pitch-to-camera billboard; the quad stands in XY, so it turns
    // to the screen as the game's effect sprites do.
    assert_eq!(m.materials[0].blend, BlendMode::Additive);
    assert_eq!(m.materials[0].billboard, Billboard::Screen);
}

#[test]
fn legacy_eight_frame_blocks_are_team_colours() {
    let m = load("texanim_teamcolour.pie");
    let t = &m.clips[0].texture_frames[0];
    assert!(t.team_colour);
    assert_eq!(t.frame_size, Vec2::new(0.125, 0.0625));
    let animated: Vec<bool> = m.meshes[0].corners.iter().map(|c| c.animated).collect();
    assert_eq!(animated, vec![false, false, false, true, true, true]);
    // The frame is the team, not the time.
    let pose = Pose::sample(&m, Some(0), 0.0, 5);
    assert_eq!(pose.texture_frame[0], 5);
}

#[test]
fn events_are_listed_and_resolved_beside_the_model() {
    let m = load("events.pie");
    let ev: Vec<(u32, &str, bool)> = m
        .events
        .iter()
        .map(|e| (e.kind, e.file.as_str(), e.resolved.is_some()))
        .collect();
    assert_eq!(
        ev,
        vec![(1, "cube.pie", true), (2, "missing_firing.pie", false)]
    );
    assert_eq!(m.details.to_json()["events"][1]["type"], 2);
    assert_eq!(
        m.details.to_json()["events"][1]["file"],
        "missing_firing.pie"
    );
    assert!(
        warnings(&m)
            .iter()
            .any(|w| w.contains("missing_firing.pie"))
    );
}

#[test]
fn errors_name_file_line_and_what_was_wrong() {
    let e = load_err("bad_index.pie");
    assert_eq!(
        e.to_string(),
        "bad_index.pie:60: polygon 12 uses point 52, but POINTS declared 40"
    );
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);
    let e = load_err("level_out_of_sequence.pie");
    assert_eq!(
        e.to_string(),
        "level_out_of_sequence.pie:12: LEVEL 3 out of sequence: expected LEVEL 2"
    );
    let e = load_err("version_5.pie");
    assert_eq!(e.kind, ErrorKind::UnsupportedVersion);
    assert_eq!(e.location, Location::Line(1));
}
