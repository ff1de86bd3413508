//! The writer on small models: what the game's loader needs of the text, and models
//! that come back the same through Vitrine's loader.

use super::*;
use crate::formats::pie;

const BOX: &str = "PIE 3\nTYPE 10200\nTEXTURE 0 page-11-player-buildings.png 0 0\n\
EVENT 2 firing.pie\nLEVELS 2\nLEVEL 1\nPOINTS 4\n\t0 0 0\n\t10 0 0\n\t10 10 0\n\t0 0 0\n\
POLYGONS 2\n\t200 3 0 1 2 0 0 1 0 1 1\n\t4200 3 3 2 1 8 1 0.125 0.25 0 0.5 1 0.5 1 1\n\
CONNECTORS 1\n\t-8 -14 24\n\
LEVEL 2\nPOINTS 3\n\t0 0 0\n\t0 5 0\n\t5 0 0\n\
POLYGONS 1\n\t200 3 0 1 2 0.5 0.5 0.25 0.25 0 1\n\
ANIMOBJECT 80 3 2\n\t0 1000 2000 3000 0 0 0 1 1 1\n\t1 0 0 0 0 90000 0 -1 -1 -1\n\
SHADOWPOINTS 3\n\t0 0 0\n\t1 0 0\n\t0 1 0\nSHADOWPOLYGONS 1\n\t0 3 0 1 2\n";

fn written(src: &str, version: PieVersion) -> (String, crate::model::Model) {
    let model = pie::parse(src.as_bytes()).unwrap();
    let options = PieOptions {
        version,
        ..PieOptions::default()
    };
    let out = write(&model, &options).unwrap();
    (out.text.clone(), pie::parse(out.text.as_bytes()).unwrap())
}

#[test]
fn records_are_tab_indented_and_normals_match_polygons() {
    let (text, _) = written(BOX, PieVersion::V3);
    assert!(text.starts_with("PIE 3\nTYPE 10200\n"), "{text}");
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        let words: Vec<&str> = l.split_whitespace().collect();
        let count = |w: &[&str]| w[1].parse::<usize>().unwrap();
        if matches!(words[0], "POINTS" | "NORMALS" | "POLYGONS" | "CONNECTORS") {
            for _ in 0..count(&words) {
                let r = lines.next().unwrap();
                assert!(r.starts_with('\t') && !r.starts_with("\t\t"), "{r:?}");
                if words[0] == "NORMALS" {
                    assert_eq!(r.split_whitespace().count(), 9, "{r}");
                }
            }
        }
        if words[0] == "POLYGONS" {
            assert!(text.contains(&format!("NORMALS {}", words[1])));
        }
    }
}

#[test]
fn a_pie_comes_back_the_same() {
    for version in [PieVersion::V3, PieVersion::V4] {
        let before = pie::parse(BOX.as_bytes()).unwrap();
        let (text, after) = written(BOX, version);
        // Level 1's duplicate point (0 0 0) is welded.
        assert_eq!(after.meshes[0].points.len(), 3, "{text}");
        assert_eq!(after.meshes.len(), 2);
        for (a, b) in before.meshes.iter().zip(&after.meshes) {
            assert_eq!(a.corners.len(), b.corners.len());
            for (ca, cb) in a.corners.iter().zip(&b.corners) {
                assert_eq!(a.points[ca.point as usize], b.points[cb.point as usize]);
                assert_eq!(ca.uv, cb.uv);
                assert_eq!(ca.animated, cb.animated);
            }
        }
        assert_eq!(before.connectors, after.connectors);
        assert_eq!(before.shadow_meshes, after.shadow_meshes);
        assert_eq!(before.events, after.events);
        let mut details = before.details.to_json();
        details["levels"][0]["points"] = 3.into();
        assert_eq!(details, after.details.to_json(), "{text}");
        assert_eq!(
            before.clips[0].texture_frames,
            after.clips[0].texture_frames
        );
        let (tb, ta) = (
            &before.clips[0].node_tracks[0],
            &after.clips[0].node_tracks[0],
        );
        assert_eq!(tb.period, ta.period);
        let (rb, ra) = (tb.rotation.as_ref().unwrap(), ta.rotation.as_ref().unwrap());
        for (x, y) in rb.values.iter().zip(&ra.values) {
            assert!(x.abs_diff_eq(*y, 1e-6) || x.abs_diff_eq(-*y, 1e-6));
        }
        assert_eq!(before.clips[0].visibility, after.clips[0].visibility);
    }
}

#[test]
fn pie4_names_the_mask_and_overrides_levels() {
    let src = "PIE 4\nTYPE 10200\nTEXTURE 0 page-11-a.png 0 0\nTCMASK 0 page-11-mask.png\n\
LEVELS 2\nLEVEL 1\nPOINTS 3\n\t0 0 0\n\t1 0 0\n\t0 1 0\nPOLYGONS 1\n\t200 3 0 1 2 0 0 1 0 0 1\n\
LEVEL 2\nTYPE 10202\nTEXTURE 0 page-12-b.png 0 0\nPOINTS 3\n\t0 0 0\n\t1 0 0\n\t0 1 0\n\
POLYGONS 1\n\t200 3 0 1 2 0 0 1 0 0 1\n";
    let before = pie::parse(src.as_bytes()).unwrap();
    let (text, after) = written(src, PieVersion::V4);
    assert!(text.contains("TCMASK 0 page-11-mask.png"), "{text}");
    assert!(
        text.contains("LEVEL 2\nTYPE 10202\nTEXTURE 0 page-12-b.png 0 0\n"),
        "{text}"
    );
    assert_eq!(before.materials, after.materials);
    // PIE 3 cannot: the warnings say so.
    let model = pie::parse(src.as_bytes()).unwrap();
    let out = write(&model, &PieOptions::default()).unwrap();
    assert!(
        out.warnings.iter().any(|w| w.contains("level 2")),
        "{:?}",
        out.warnings
    );
    assert!(
        out.warnings.iter().any(|w| w.contains("page-11-mask.png")),
        "{:?}",
        out.warnings
    );
    assert!(!out.text.contains("TCMASK"));
}

#[test]
fn other_formats_are_scaled_mirrored_and_named_like_pages() {
    use crate::model::{
        Corner, Format, Material, Mesh, Model, Node, NodeKind, Submesh, TextureRef, TextureRole,
    };
    use glam::{Vec2, Vec3};
    let mut m = Model::new(Format::Tpm, "1");
    m.textures.push(TextureRef::new(
        TextureRole::Base,
        "Map\\Lab\\rock wall.bmp",
    ));
    let mut mat = Material::new("m", [1.0; 4]);
    mat.base = Some(0);
    m.materials.push(mat);
    m.meshes.push(Mesh {
        name: "rock".into(),
        points: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
        corners: (0..3)
            .map(|i| Corner::new(i, Vec2::new(i as f32 * 0.5, 0.0)))
            .collect(),
        submeshes: vec![Submesh {
            first_triangle: 0,
            triangle_count: 1,
            material: 0,
        }],
        uv_sets: 1,
        ..Mesh::default()
    });
    let mut node = Node::new("rock", None, NodeKind::Instance);
    node.mesh = Some(0);
    node.translation = Vec3::new(0.0, 0.0, 1.0);
    m.nodes.push(node);
    let out = write(&m, &PieOptions::default()).unwrap();
    assert!(
        out.text.contains("TEXTURE 0 rock_wall.png 0 0"),
        "{}",
        out.text
    );
    assert!(out.warnings.iter().any(|w| w.contains("rock_wall.png")));
    let back = pie::parse(out.text.as_bytes()).unwrap();
    // 128 PIE units per model unit; the node's translation baked in; facing kept.
    let p: Vec<Vec3> = back.meshes[0]
        .corners
        .iter()
        .map(|c| back.meshes[0].points[c.point as usize])
        .collect();
    assert_eq!(
        p,
        vec![
            Vec3::new(0.0, 0.0, 128.0),
            Vec3::new(128.0, 0.0, 128.0),
            Vec3::new(0.0, 128.0, 128.0)
        ]
    );
    assert!(back.meshes[0].face_normal(0).z > 0.99);
}

#[test]
fn nothing_to_write_is_an_error() {
    let m = crate::model::Model::new(crate::model::Format::Pie, "3");
    assert!(write(&m, &PieOptions::default()).is_err());
    let bad = PieOptions {
        scale: Some(0.0),
        ..PieOptions::default()
    };
    let model = pie::parse(BOX.as_bytes()).unwrap();
    assert!(write(&model, &bad).unwrap_err().contains("scale"));
}

/// What the model knows about its units sets the scale, not its format's name: a glTF
/// `vitrine export` made of a PIE is read back in PIE units (its scale undone), so it is
/// written at 1 and comes back with the PIE's own numbers; one made of another format,
/// and a glTF from elsewhere, are in model units and get 128.
#[test]
fn a_gltf_exported_from_a_pie_is_written_in_its_own_units() {
    use crate::export::gltf::{ExportOptions, ImageCache, export, writer};
    use crate::files::{Files, MemorySource};
    use crate::model::details::{Details, GltfDetails, GltfSource};
    let source = pie::parse(BOX.as_bytes()).unwrap();
    let files = Files::new(MemorySource::new());
    let doc = export(
        &source,
        &ExportOptions::default(),
        &mut ImageCache::new(&files),
    )
    .unwrap();
    let mut glb = Vec::new();
    writer::write_with(doc, "box.glb".as_ref(), |_, bytes| {
        glb = bytes.to_vec();
        Ok(())
    })
    .unwrap();
    let gltf = crate::formats::gltf::parse(&glb).unwrap();
    assert_eq!(default_scale(&gltf), 1.0);
    let back = pie::parse(
        write(&gltf, &PieOptions::default())
            .unwrap()
            .text
            .as_bytes(),
    )
    .unwrap();
    for (a, b) in source.meshes.iter().zip(&back.meshes) {
        let welded = |m: &crate::model::Mesh| {
            let mut p: Vec<[i64; 3]> = m
                .points
                .iter()
                .map(|p| p.to_array().map(|v| (v * 1000.0).round() as i64))
                .collect();
            p.sort();
            p.dedup();
            p
        };
        assert_eq!(welded(a), welded(b), "the PIE's own numbers");
    }
    assert_eq!(back.events, source.events, "EVENT file names kept");

    let from = |format: Option<&str>| {
        let mut m = crate::model::Model::new(crate::model::Format::Gltf, "2.0");
        m.details = Details::Gltf(GltfDetails {
            generator: String::new(),
            levels: 0,
            connectors: 0,
            shadow_meshes: 0,
            source: format.map(|f| GltfSource {
                format: f.into(),
                scale: 1.0,
            }),
            pie: None,
        });
        default_scale(&m)
    };
    assert_eq!(
        from(None),
        128.0,
        "a glTF from Blender: one unit = one tile"
    );
    assert_eq!(from(Some("pmf")), 128.0, "exported from a PMF: its units");
    assert_eq!(from(Some("pie")), 1.0);
}
