//! Reading glTF 2.0 and OBJ into the model: the files Blender made from corpus models
//! (and one from scratch) load with their sources' levels, triangles and connectors and
//! pass `vitrine check`; corpus PIE models exported to glTF and read back are the same
//! model (geometry, connectors, shadow meshes, events, animation, texture names, PIE
//! facts), and through OBJ the same geometry; bad files are refused with the file and
//! the place named, never a panic.

use crate::common;

use base64::Engine;
use glam::{Vec2, Vec3};
use serde_json::json;
use std::path::{Path, PathBuf};
use vitrine::check::{CheckOptions, Checker, Level};
use vitrine::export::gltf::{ExportOptions, ImageCache, export, writer};
use vitrine::export::obj::{self, ObjOptions};
use vitrine::files::FileRef;
use vitrine::formats::{self, LoadOptions};
use vitrine::model::details::Details;
use vitrine::model::{Format, Model, NodeKind, Pose};
use vitrine_test_needs::vitrine_test;

fn load(path: &Path) -> Model {
    formats::load_path(path, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn levels(m: &Model) -> Vec<usize> {
    m.nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Level)
        .map(|n| n.mesh.map_or(0, |i| m.meshes[i].triangle_count()))
        .collect()
}

fn blender() -> PathBuf {
    common::shared_dir().join("corpus/blender")
}

/// The source PIE of each Blender file, as SOURCE.md names it.
const SOURCES: &[(&str, &str)] = &[
    ("drmbod13", "data/mp/components/bodies/drmbod13.pie"),
    ("gnmmg1", "data/base/components/weapons/gnmmg1.pie"),
    ("blderik_anim", "data/base/structs/blderik_anim.pie"),
];

#[vitrine_test(shared)]
fn blender_files_load_with_their_sources_levels_triangles_and_connectors() {
    let (dir, wz) = (blender(), common::wz2100());
    for (stem, source) in SOURCES {
        let pie = load(&wz.join(source));
        for ext in ["glb", "obj"] {
            let file = dir.join(format!("{stem}.{ext}"));
            let m = load(&file);
            assert_eq!(
                levels(&m),
                levels(&pie),
                "{}: triangles per level",
                file.display()
            );
            if ext == "glb" {
                // Blender keeps the empties: the connectors, in metres (1/128 of PIE).
                assert_eq!(m.connectors.len(), pie.connectors.len(), "{stem}.glb");
                for (c, p) in m.connectors.iter().zip(&pie.connectors) {
                    let back = c.position * 128.0;
                    assert!(
                        back.abs_diff_eq(p.position, 0.01),
                        "{stem}.glb connector {back} vs {}",
                        p.position
                    );
                }
                let base = m.materials[0].base.expect("a base texture");
                let t = &m.textures[base];
                assert!(t.resolved.is_some(), "{stem}: the packed image is found");
                let bytes = vitrine::files::read(t.resolved.as_ref().unwrap()).unwrap();
                assert!(
                    bytes.starts_with(b"\x89PNG"),
                    "{stem}: the image reads as a PNG"
                );
            }
        }
    }
    // Blender kept blderik's node animation (levels 2 and 3 move).
    let anim = load(&dir.join("blderik_anim.glb"));
    assert_eq!(anim.clips.len(), 1);
    let moving: Vec<usize> = anim.clips[0].node_tracks.iter().map(|t| t.node).collect();
    assert_eq!(moving, [1, 2]);
}

#[vitrine_test(shared)]
fn the_scratch_tank_has_its_levels_connector_turret_turn_and_page() {
    let dir = blender();
    let m = load(&dir.join("scratch-tank.glb"));
    assert_eq!(levels(&m), [12, 14], "a cube body and a cone turret");
    assert_eq!(m.connectors.len(), 1);
    // The empty `connector 1` sits at (0, 0, −0.8) in the file, whatever node holds it.
    let pose = Pose::rest(&m);
    let c = &m.connectors[0];
    let world = pose.world[c.node].transform_point3(c.position);
    assert!(
        world.abs_diff_eq(Vec3::new(0.0, 0.0, -0.8), 1e-5),
        "{world}"
    );
    // The turret turns once about the vertical axis over frames 0–15.
    let clip = &m.clips[0];
    assert_eq!(clip.frame_count, 16);
    let turret = m.nodes.iter().position(|n| n.name == "level 2").unwrap();
    let at = |f: f32| Pose::sample(&m, Some(0), clip.frame_time(f), 0).world[turret];
    let a = at(0.0).transform_vector3(Vec3::X);
    let b = at(8.0).transform_vector3(Vec3::X);
    assert!(
        a.y.abs() < 1e-4 && b.y.abs() < 1e-4,
        "turns about Y: {a} {b}"
    );
    assert!(a.dot(b) < -0.9, "half way through it faces back: {a} {b}");
    // The page is the material's base texture, named as a page; the file carries no
    // team-colour mask (no `*_tcmask` image, no exporter extras).
    let mat = &m.materials[0];
    assert_eq!(
        m.textures[mat.base.unwrap()].name,
        "page-90-scratch-tank.png"
    );
    assert_eq!(mat.tcmask, None);
    // The OBJ: the same geometry, its map_Kd found beside it.
    let o = load(&dir.join("scratch-tank.obj"));
    assert_eq!(levels(&o), [12, 14]);
    let base = o.materials.iter().find_map(|m| m.base).unwrap();
    assert!(o.textures[base].resolved.is_some());
}

#[vitrine_test(shared)]
fn check_finds_no_errors_in_the_blender_files() {
    let dir = blender();
    let mut checker = Checker::new(vitrine::files::disk(), CheckOptions::default());
    let files = common::model_files(&dir);
    assert_eq!(files.len(), 8, "{files:?}");
    for f in files {
        let checked = checker.check_file(&FileRef::from(f.as_path()));
        assert!(checked.model.is_some(), "{}", f.display());
        let errors: Vec<_> = checked
            .findings
            .iter()
            .filter(|x| x.level == Level::Error)
            .map(|x| x.message.clone())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", f.display());
    }
}

/// Corpus PIE models that show each thing the way back must keep (at most `per` each).
fn corpus_selection(per: usize) -> Vec<(PathBuf, Model)> {
    let wz = common::wz2100();
    let mut picked: Vec<(PathBuf, Model)> = Vec::new();
    let mut counts = [0usize; 7];
    // The corpus has no shadow mesh: the project's fixture with one comes first.
    let fixtures = common::model_files(&common::fixtures().join("pie"));
    for f in fixtures.into_iter().chain(common::model_files(&wz)) {
        let Ok(m) = formats::load_path(&f, &LoadOptions::default()) else {
            continue;
        };
        let kinds = [
            !m.connectors.is_empty(),
            !m.shadow_meshes.is_empty(),
            !m.events.is_empty(),
            m.clips.iter().any(|c| !c.node_tracks.is_empty()),
            m.clips
                .iter()
                .any(|c| c.texture_frames.iter().any(|t| !t.team_colour)),
            m.materials.iter().any(|x| x.tcmask.is_some()),
            m.clips.iter().any(|c| !c.visibility.is_empty()),
        ];
        let wanted = kinds.iter().zip(&counts).any(|(&k, &n)| k && n < per);
        if wanted {
            for (k, n) in kinds.iter().zip(counts.iter_mut()) {
                *n += usize::from(*k);
            }
            picked.push((f, m));
        }
    }
    assert!(
        counts.iter().all(|&n| n > 0),
        "the corpus shows every kind: {counts:?}"
    );
    picked
}

/// Each triangle as its corners' (position, UV), rounded, starting at its least corner
/// (the winding kept), all sorted: equal lists are the same surface.
fn triangles(m: &Model, mesh: usize, scale: f32) -> Vec<[[i64; 5]; 3]> {
    let mesh = &m.meshes[mesh];
    let r = |v: f32| (v * 1000.0).round() as i64;
    let mut out: Vec<[[i64; 5]; 3]> = mesh
        .corners
        .chunks_exact(3)
        .map(|t| {
            let c = t.iter().map(|c| {
                let p = mesh.points[c.point as usize] * scale;
                [r(p.x), r(p.y), r(p.z), r(c.uv[0].x), r(c.uv[0].y)]
            });
            let mut c: Vec<_> = c.collect();
            let least = (0..3).min_by_key(|&i| c[i]).unwrap();
            c.rotate_left(least);
            [c[0], c[1], c[2]]
        })
        .collect();
    out.sort();
    out
}

fn shadow_points(m: &Model, node: usize) -> Vec<[i64; 3]> {
    let mut p: Vec<[i64; 3]> = m
        .shadow_meshes
        .iter()
        .filter(|s| s.node == node)
        .flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.to_array().map(|v| (v * 1000.0).round() as i64))
        })
        .collect();
    p.sort();
    p.dedup();
    p
}

#[vitrine_test(shared)]
fn corpus_models_come_back_the_same_through_gltf() {
    // `VITRINE_ROUNDTRIP_ALL=1` takes every corpus model that shows one of the kinds
    // (README's figure), else a few of each kind.
    let all = std::env::var("VITRINE_ROUNDTRIP_ALL").as_deref() == Ok("1");
    let picked = corpus_selection(if all { usize::MAX } else { 4 });
    if picked.is_empty() {
        return;
    }
    let dir = common::temp_dir("gltf-roundtrip");
    let mut cache = ImageCache::new(vitrine::files::disk());
    for (i, (file, pie)) in picked.iter().enumerate() {
        let what = file.display();
        let doc = export(pie, &ExportOptions::default(), &mut cache).unwrap();
        let out = dir.path().join(format!("{i}.glb"));
        writer::write(doc, &out).unwrap();
        let back = load(&out);
        assert_eq!(back.format, Format::Gltf);
        // Levels, in order, with the same surfaces.
        assert_eq!(levels(&back), levels(pie), "{what}: triangles per level");
        for (l, (a, b)) in pie
            .nodes
            .iter()
            .zip(back.nodes.iter().filter(|n| n.kind == NodeKind::Level))
            .enumerate()
        {
            assert_eq!(a.name, b.name, "{what}");
            if let (Some(ma), Some(mb)) = (a.mesh, b.mesh) {
                assert_eq!(
                    triangles(pie, ma, 1.0),
                    triangles(&back, mb, 1.0),
                    "{what}: level {} surface",
                    l + 1
                );
            }
            assert_eq!(
                shadow_points(pie, l),
                shadow_points(&back, l),
                "{what}: shadow of level {}",
                l + 1
            );
        }
        let shadow_tris = |m: &Model| -> Vec<usize> {
            m.shadow_meshes.iter().map(|s| s.triangles.len()).collect()
        };
        assert_eq!(
            shadow_tris(&back),
            shadow_tris(pie),
            "{what}: shadow triangles"
        );
        // Connectors: the file's numbers and the model positions.
        assert_eq!(back.connectors.len(), pie.connectors.len(), "{what}");
        for (a, b) in pie.connectors.iter().zip(&back.connectors) {
            assert_eq!(a.node, b.node, "{what}");
            assert_eq!(a.raw, b.raw, "{what}");
            assert!(a.position.abs_diff_eq(b.position, 1e-3), "{what}");
        }
        // Events and the PIE facts.
        let events = |m: &Model| -> Vec<(u32, String)> {
            m.events.iter().map(|e| (e.kind, e.file.clone())).collect()
        };
        assert_eq!(events(&back), events(pie), "{what}: events");
        // The PIE facts (TYPE, INTERPOLATE, per-level flags, ANIMOBJECT timing, texture
        // animation, EVENT lines), whole.
        let (Details::Pie(facts), Details::Gltf(g)) = (&pie.details, &back.details) else {
            panic!("{what}: details {:?} / {:?}", pie.details, back.details);
        };
        assert_eq!(g.pie.as_ref(), Some(facts), "{what}: PIE facts");
        // Texture page names as the PIE names them (not the team-baked copy's).
        for (a, b) in pie.materials.iter().zip(&back.materials) {
            let name = |m: &Model, t: Option<usize>| t.map(|t| m.textures[t].name.clone());
            assert_eq!(name(&back, b.base), name(pie, a.base), "{what}: page");
            assert_eq!(name(&back, b.tcmask), name(pie, a.tcmask), "{what}: tcmask");
            assert_eq!(b.blend, a.blend, "{what}: blend");
            assert_eq!(b.billboard, a.billboard, "{what}: billboard");
        }
        // Animation: the same frames, every level where the viewer draws it at each one.
        assert_eq!(back.clips.len(), pie.clips.len().min(1), "{what}");
        if let (Some(ca), Some(cb)) = (pie.clips.first(), back.clips.first()) {
            assert_eq!((cb.frame_count, cb.fps), (ca.frame_count, ca.fps), "{what}");
            assert_eq!(cb.events, ca.events, "{what}: cycle events");
            let moving = |t: &vitrine::model::TextureFrameTrack| {
                (t.mesh, t.frames, t.ms_per_frame as i64, t.frame_size)
            };
            let tex = |c: &vitrine::model::Clip| -> Vec<_> {
                c.texture_frames
                    .iter()
                    .filter(|t| !t.team_colour)
                    .map(moving)
                    .collect()
            };
            assert_eq!(tex(cb), tex(ca), "{what}: texture animation");
            for f in 0..ca.frame_count {
                let t = ca.frame_time(f as f32);
                let (pa, pb) = (
                    Pose::sample(pie, Some(0), t, 0),
                    Pose::sample(&back, Some(0), t, 0),
                );
                for n in 0..pie.nodes.len() {
                    assert_eq!(
                        pa.visible[n], pb.visible[n],
                        "{what}: node {n} shown at frame {f}"
                    );
                    if pa.visible[n] {
                        assert!(
                            pa.world[n].abs_diff_eq(pb.world[n], 0.05),
                            "{what}: node {n} at frame {f}: {} vs {}",
                            pa.world[n],
                            pb.world[n]
                        );
                    }
                }
                if pie.meshes.len() == back.meshes.len() {
                    assert_eq!(
                        pa.texture_frame, pb.texture_frame,
                        "{what}: texture frame at {f}"
                    );
                }
            }
        }
        // Written again, it keeps its size (the PIE's scale comes back with it).
        let again = export(&back, &ExportOptions::default(), &mut cache).unwrap();
        let out2 = dir.path().join(format!("{i}-again.glb"));
        writer::write(again, &out2).unwrap();
        let twice = load(&out2);
        for (a, b) in back.meshes.iter().zip(&twice.meshes) {
            assert_eq!(a.bounds(), b.bounds(), "{what}: size after a second trip");
        }
    }
    eprintln!("{} corpus models through glTF and back", picked.len());
}

#[vitrine_test(shared)]
fn corpus_models_come_back_through_obj_with_their_geometry_and_pages() {
    let picked = corpus_selection(2);
    if picked.is_empty() {
        return;
    }
    let dir = common::temp_dir("obj-roundtrip");
    let mut cache = ImageCache::new(vitrine::files::disk());
    for (i, (file, pie)) in picked.iter().enumerate() {
        let what = file.display();
        let doc = obj::export(pie, &ObjOptions::default(), &mut cache).unwrap();
        let out = dir.path().join(format!("m{i}.obj"));
        let written = obj::write(doc, &out).unwrap();
        assert!(
            written
                .iter()
                .any(|p| p.extension().is_some_and(|e| e == "mtl"))
        );
        let back = load(&out);
        assert_eq!(back.format, Format::Obj);
        assert_eq!(levels(&back), levels(pie), "{what}");
        // At rest, scaled by 1/128: compare in PIE units.
        let mut lb = back.nodes.iter().filter(|n| n.kind == NodeKind::Level);
        for a in pie.nodes.iter().filter(|n| n.kind == NodeKind::Level) {
            let (Some(ma), Some(b)) = (a.mesh, lb.next()) else {
                continue;
            };
            if pie.meshes[ma].triangle_count() == 0 {
                continue;
            }
            assert_eq!(
                triangles(pie, ma, 1.0),
                triangles(&back, b.mesh.unwrap(), 128.0),
                "{what}: {}",
                a.name
            );
        }
        for m in &back.materials {
            if let Some(t) = m.base {
                assert!(
                    back.textures[t].resolved.is_some(),
                    "{what}: {} written beside",
                    back.textures[t].name
                );
            }
        }
    }
}

/// A one-mesh glTF JSON: `positions`, `indices` (u16) and optional UVs in one buffer,
/// as a `data:` URI; `material` and `images` added as given.
fn tiny_gltf(
    positions: &[[f32; 3]],
    indices: &[u16],
    images: serde_json::Value,
) -> serde_json::Value {
    let mut bin: Vec<u8> = positions
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let index_at = bin.len();
    bin.extend(indices.iter().flat_map(|i| i.to_le_bytes()));
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bin)
    );
    let mut doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "level 1", "mesh": 0}],
        "meshes": [{"name": "body", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"byteLength": bin.len(), "uri": uri}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": index_at},
            {"buffer": 0, "byteOffset": index_at, "byteLength": indices.len() * 2}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": positions.len(), "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 1, "componentType": 5123, "count": indices.len(), "type": "SCALAR"}
        ]
    });
    if images.is_array() {
        doc["images"] = images;
        doc["textures"] = json!([{"source": 0}]);
        doc["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
        doc["meshes"][0]["primitives"][0]["material"] = json!(0);
    }
    doc
}

const SQUARE: [[f32; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [1.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
];

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, bytes).unwrap();
    p
}

fn load_err(path: &Path) -> String {
    match formats::load_path(path, &LoadOptions::default()) {
        Ok(_) => panic!("{} loaded", path.display()),
        Err(e) => e.to_string(),
    }
}

#[vitrine_test(shared)]
fn a_truncated_glb_is_refused_at_every_length_naming_file_and_offset() {
    let dir = common::temp_dir("glb-truncated");
    // A real .glb: Blender's scratch tank.
    let bytes = std::fs::read(blender().join("scratch-tank.glb")).unwrap();
    for cut in (0..bytes.len()).step_by(7).chain([bytes.len() - 1]) {
        assert!(
            formats::parse(
                Format::Gltf,
                &bytes[..cut],
                "cut.glb",
                &LoadOptions::default()
            )
            .is_err(),
            "{cut} bytes of {} load",
            bytes.len()
        );
    }
    let p = write(dir.path(), "tank.glb", &bytes[..bytes.len() / 2]);
    let e = load_err(&p);
    assert!(e.starts_with("tank.glb @0x"), "{e}");
    assert!(e.contains("truncated .glb"), "{e}");
}

#[test]
fn uris_that_leave_the_folder_and_missing_buffers_are_refused() {
    let dir = common::temp_dir("gltf-uris");
    write(dir.path(), "secret.bin", &[0; 64]);
    let mut doc = tiny_gltf(&SQUARE, &[0, 1, 2], json!(null));
    doc["buffers"][0]["uri"] = json!("../secret.bin");
    let p = write(dir.path(), "sub/escape.gltf", doc.to_string().as_bytes());
    let e = load_err(&p);
    assert!(
        e.contains("escape.gltf") && e.contains("leaves the glTF's folder"),
        "{e}"
    );

    let doc = tiny_gltf(
        &SQUARE,
        &[0, 1, 2],
        json!([{"uri": "../../etc/passwd.png"}]),
    );
    let p = write(dir.path(), "sub/image.gltf", doc.to_string().as_bytes());
    assert!(load_err(&p).contains("image 0: URI"), "{}", load_err(&p));

    let mut doc = tiny_gltf(&SQUARE, &[0, 1, 2], json!(null));
    doc["buffers"][0]["uri"] = json!("gone.bin");
    let p = write(dir.path(), "missing.gltf", doc.to_string().as_bytes());
    let e = load_err(&p);
    assert!(e.contains("missing.gltf") && e.contains("buffer 0"), "{e}");
}

#[test]
fn an_index_past_the_vertices_is_refused_naming_the_element() {
    let dir = common::temp_dir("gltf-index");
    let doc = tiny_gltf(&SQUARE, &[0, 1, 7], json!(null));
    let p = write(dir.path(), "bad-index.gltf", doc.to_string().as_bytes());
    let e = load_err(&p);
    assert!(e.contains("bad-index.gltf"), "{e}");
    assert!(
        e.contains("index 7 (element 2 of accessor 1) is past its 4 vertices"),
        "{e}"
    );
    // An accessor that claims more elements than its view holds.
    let mut doc = tiny_gltf(&SQUARE, &[0, 1, 2], json!(null));
    doc["accessors"][0]["count"] = json!(1_000_000_000u64);
    let p = write(dir.path(), "huge.gltf", doc.to_string().as_bytes());
    let e = load_err(&p);
    assert!(
        e.contains("accessor 0") && e.contains("buffer view 0"),
        "{e}"
    );
}

#[test]
fn quads_and_ngons_are_triangulated_and_strips_and_fans_read() {
    let dir = common::temp_dir("quads");
    let obj = "o level 1\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 1.5 0\n\
               vt 0 0\nvt 1 1\nf 1/1 2/1 3/2 4/2\nf 4 3 5 1 2\n";
    let p = write(dir.path(), "quad.obj", obj.as_bytes());
    let m = load(&p);
    assert_eq!(levels(&m), [2 + 3], "a quad and a pentagon");
    // V is flipped to the model's top-left origin; the winding is kept (facing +Z).
    assert_eq!(m.meshes[0].corners[2].uv[0], Vec2::new(1.0, 0.0));
    assert!(m.meshes[0].face_normal(0).abs_diff_eq(Vec3::Z, 1e-6));
    // A glTF triangle fan of the square: two triangles.
    let mut doc = tiny_gltf(&SQUARE, &[0, 1, 2, 3], json!(null));
    doc["meshes"][0]["primitives"][0]["mode"] = json!(6);
    let p = write(dir.path(), "fan.gltf", doc.to_string().as_bytes());
    let m = load(&p);
    assert_eq!(levels(&m), [2]);
    assert!(m.meshes[0].face_normal(1).abs_diff_eq(Vec3::Z, 1e-6));
    // A bad OBJ index names its line.
    let p = write(dir.path(), "bad.obj", b"v 0 0 0\nv 1 0 0\nf 1 2 3\n");
    let e = load_err(&p);
    assert!(
        e.starts_with("bad.obj:3:") && e.contains("vertex 3 does not exist"),
        "{e}"
    );
}

#[test]
fn untextured_models_load_and_non_ascii_page_names_are_found() {
    let dir = common::temp_dir("textures");
    // No texture at all: a plain material, nothing missing.
    let p = write(
        dir.path(),
        "plain.gltf",
        tiny_gltf(&SQUARE, &[0, 1, 2], json!(null))
            .to_string()
            .as_bytes(),
    );
    let m = load(&p);
    assert_eq!(m.materials.len(), 1);
    assert_eq!(m.materials[0].base, None);
    assert!(m.textures.is_empty());
    let mut checker = Checker::new(vitrine::files::disk(), CheckOptions::default());
    let checked = checker.check_file(&FileRef::from(p.as_path()));
    assert!(checked.findings.iter().all(|f| f.level != Level::Error));

    // A page beside the file, its name not ASCII (percent-encoded in the URI).
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(2, 2, image::Rgba([200, 10, 10, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    write(dir.path(), "página-tëst.png", &png);
    let doc = tiny_gltf(
        &SQUARE,
        &[0, 1, 2],
        json!([{"uri": "p%C3%A1gina-t%C3%ABst.png"}]),
    );
    let p = write(dir.path(), "accents.gltf", doc.to_string().as_bytes());
    let m = load(&p);
    let t = &m.textures[m.materials[0].base.unwrap()];
    assert_eq!(t.name, "página-tëst.png");
    assert!(t.resolved.is_some(), "found beside the glTF");
    // And in an OBJ's MTL.
    write(
        dir.path(),
        "accents.mtl",
        "newmtl pág\nmap_Kd página-tëst.png\n".as_bytes(),
    );
    let obj = "mtllib accents.mtl\no level_1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nusemtl pág\nf 1/1 2/1 3/1\n";
    let p = write(dir.path(), "accents.obj", obj.as_bytes());
    let m = load(&p);
    let t = &m.textures[m.materials.iter().find_map(|x| x.base).unwrap()];
    assert_eq!(t.name, "página-tëst.png");
    assert!(t.resolved.is_some());
    // A page named but absent: a warning naming it, the model still loads.
    let obj = obj.replace("accents.mtl", "gone.mtl");
    let p = write(dir.path(), "gone.obj", obj.as_bytes());
    let m = load(&p);
    assert!(
        m.diagnostics.iter().any(|d| d.message.contains("gone.mtl")),
        "{:?}",
        m.diagnostics
    );
}

#[test]
fn images_in_data_uris_and_tcmask_images_are_read() {
    let dir = common::temp_dir("data-uri");
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(2, 2, image::Rgba([0, 0, 0, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let mut doc = tiny_gltf(
        &SQUARE,
        &[0, 1, 2],
        json!([{"uri": uri, "name": "page-7-tank"}, {"uri": uri, "name": "page-7_tcmask"}]),
    );
    doc["textures"] = json!([{"source": 0}, {"source": 1}]);
    let p = write(dir.path(), "packed.gltf", doc.to_string().as_bytes());
    let m = load(&p);
    let mat = &m.materials[0];
    let base = &m.textures[mat.base.unwrap()];
    assert_eq!(base.name, "page-7-tank.png");
    let tcmask = &m.textures[mat.tcmask.expect("the *_tcmask image is the mask")];
    assert_eq!(tcmask.name, "page-7_tcmask.png");
    for t in [base, tcmask] {
        let bytes = vitrine::files::read(t.resolved.as_ref().unwrap()).unwrap();
        assert_eq!(bytes, png, "the data: URI decodes to the PNG");
    }
}

#[vitrine_test(shared)]
fn export_to_obj_writes_the_obj_its_mtl_and_the_team_baked_page() {
    let wz = common::wz2100();
    let source = wz.join("data/base/components/bodies/drtrans.pie");
    let dir = common::temp_dir("obj-cli");
    let out = dir.path().join("transport.obj");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .env("VITRINE_CONFIG_DIR", dir.path())
        .args(["export", "--team", "red"])
        .arg(&source)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let mtl = std::fs::read_to_string(dir.path().join("transport.mtl")).unwrap();
    let map = mtl
        .lines()
        .find_map(|l| l.strip_prefix("map_Kd "))
        .expect("the MTL names the page");
    assert!(
        map.starts_with("transport-") && map.ends_with("-team4.png"),
        "{map}"
    );
    let page = image::open(dir.path().join(map))
        .expect("the page PNG")
        .to_rgba8();
    // Baked: the red team's page differs from the page as the game ships it.
    let pie = load(&source);
    let shipped = pie.textures[pie.materials[0].base.unwrap()]
        .resolved
        .clone()
        .unwrap();
    let shipped = image::load_from_memory(&vitrine::files::read(&shipped).unwrap())
        .unwrap()
        .to_rgba8();
    assert_eq!(page.dimensions(), shipped.dimensions());
    assert_ne!(
        page.as_raw(),
        shipped.as_raw(),
        "the team colour is baked in"
    );
    // Read back: the transport's triangles at 1/128 scale, textured.
    let back = load(&out);
    assert_eq!(levels(&back), levels(&pie));
    let base = back.materials[0].base.expect("textured");
    assert!(back.textures[base].resolved.is_some());
    // Nothing half-written is left beside it.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("transport"))
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}
