//! The TPM loader against `../shared/corpus/synthetic` (facts in its `MANIFEST.json`,
//! written by a generator that shares no code with this program), the spec's own
//! examples typed in as a fixture, and a mutation run for robustness.

use crate::common;

use common::Rng;
use glam::{Mat4, Vec3};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use vitrine_core::formats::{self, ErrorKind, LoadOptions};
use vitrine_core::model::{Format, Location, Model, NodeKind, Pose};
use vitrine_test_needs::vitrine_test;

fn manifest(dir: &Path) -> Value {
    common::manifest(dir)
}

fn load(path: &Path) -> Model {
    common::load_path(path, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().expect("string").to_string())
        .collect()
}

fn vec3(v: &Value) -> Vec3 {
    let a: Vec<f32> = v
        .as_array()
        .unwrap_or_else(|| panic!("not a vec3: {v}"))
        .iter()
        .map(|x| x.as_f64().expect("number") as f32)
        .collect();
    Vec3::new(a[0], a[1], a[2])
}

fn node(model: &Model, name: &str) -> usize {
    model
        .nodes
        .iter()
        .position(|n| n.name == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

/// File-axes world position of every point of the mesh at node `node`, at rest.
fn world_points_in_file_axes(model: &Model, node: usize) -> Vec<Vec3> {
    let pose = Pose::rest(model);
    let mesh = &model.meshes[model.nodes[node].mesh.expect("node has a mesh")];
    mesh.points
        .iter()
        .map(|&p| {
            model
                .axes
                .point_to_file(pose.world[node].transform_point3(p))
        })
        .collect()
}

/// The manifest's instance rule, computed here from its own words:
/// `T(position) · Rz · Ry · Rx · S(scale)`, degrees, file axes.
fn expected_instance_matrix(inst: &Value) -> Mat4 {
    let [x, y, z] = vec3(&inst["rotation_deg"]).to_array().map(f32::to_radians);
    let s = inst["scale"].as_f64().unwrap() as f32;
    Mat4::from_translation(vec3(&inst["position"]))
        * Mat4::from_rotation_z(z)
        * Mat4::from_rotation_y(y)
        * Mat4::from_rotation_x(x)
        * Mat4::from_scale(Vec3::splat(s))
}

/// Material name of every triangle of mesh `mesh`, in file order.
fn triangle_materials(model: &Model, mesh: usize) -> Vec<String> {
    let mut out = Vec::new();
    for s in &model.meshes[mesh].submeshes {
        for _ in 0..s.triangle_count {
            out.push(model.materials[s.material].name.clone());
        }
    }
    out
}

fn resolved_file_name(model: &Model, texture_name: &str) -> Option<String> {
    let t = model
        .textures
        .iter()
        .find(|t| t.name == texture_name)
        .unwrap_or_else(|| panic!("no texture named {texture_name}"));
    t.resolved.as_ref().map(|p| p.file_name())
}

fn tpm_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("read dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tpm"))
        .collect();
    files.sort();
    files
}

#[vitrine_test(shared)]
fn every_sample_matches_the_manifest() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let files = tpm_files(&dir.join("tpm"));
    assert_eq!(files.len(), 3, "expected the three TPM samples");
    for path in files {
        let rel = format!("tpm/{}", path.file_name().unwrap().to_string_lossy());
        let facts = &m["files"][&rel];
        assert!(facts.is_object(), "{rel} is not in MANIFEST.json");
        let model = load(&path);
        model.validate().unwrap();
        let tpm = &model.details.to_json();
        assert_eq!(model.format, Format::Tpm);
        assert_eq!(model.version, facts["version"].as_str().unwrap(), "{rel}");
        assert_eq!(model.axes.name, "z-up right-handed");

        // Names, in file order.
        let names = &facts["names"];
        let by_kind = |kind: NodeKind| -> Vec<String> {
            model
                .nodes
                .iter()
                .filter(|n| n.kind == kind)
                .map(|n| n.name.clone())
                .collect()
        };
        assert_eq!(
            by_kind(NodeKind::Instance),
            strings(&names["instances"]),
            "{rel}"
        );
        assert_eq!(by_kind(NodeKind::Bone), strings(&names["bones"]), "{rel}");
        let detail_names = |key: &str, skin: Option<bool>| -> Vec<String> {
            tpm[key]
                .as_array()
                .unwrap()
                .iter()
                .filter(|v| skin.is_none_or(|s| v["skin"] == s))
                .map(|v| v["name"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(
            detail_names("materials", None),
            strings(&names["materials"]),
            "{rel}"
        );
        assert_eq!(
            detail_names("meshes", Some(false)),
            strings(&names["meshes"]),
            "{rel}"
        );
        assert_eq!(
            detail_names("meshes", Some(true)),
            strings(&names["skins"]),
            "{rel}"
        );
        let material_names: Vec<&str> = model.materials.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            material_names,
            strings(&names["materials"]),
            "{rel}: model materials"
        );
        let found: Vec<String> = model
            .textures
            .iter()
            .filter_map(|t| t.resolved.as_ref())
            .map(|p| p.file_name())
            .collect();
        assert_eq!(
            found,
            strings(&names["textures"]),
            "{rel}: resolved textures"
        );

        // Meshes: counts and materials.
        for mf in facts["meshes"].as_array().unwrap() {
            let name = mf["name"].as_str().unwrap();
            let i = model.meshes.iter().position(|x| x.name == name).unwrap();
            let mesh = &model.meshes[i];
            let d = &tpm["meshes"][i];
            assert_eq!(
                mesh.points.len() as u64,
                mf["vertices"].as_u64().unwrap(),
                "{name}"
            );
            assert_eq!(
                mesh.triangle_count() as u64,
                mf["triangles"].as_u64().unwrap(),
                "{name}"
            );
            assert_eq!(d["uvs"], mf["uvs"], "{name}");
            assert_eq!(d["normals"], mf["normals"], "{name}");
            assert_eq!(d["materials"], mf["materials"], "{name}");
            assert_eq!(
                d["skin"].as_bool(),
                Some(mf["skin"].as_bool().unwrap_or(false))
            );
            if let Some(per) = mf["triangles_per_material"].as_object() {
                let mut got: BTreeMap<String, u64> = BTreeMap::new();
                for t in triangle_materials(&model, i) {
                    *got.entry(t).or_default() += 1;
                }
                let want: BTreeMap<String, u64> = per
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
                    .collect();
                assert_eq!(got, want, "{name}: triangles per material");
            }
            // Skins are drawn static: no skin binding for the renderer.
            assert_eq!(mesh.skin, None, "{name}");
        }

        // Materials: raw paths and where they resolve.
        for mf in facts["materials"].as_array().unwrap() {
            let name = mf["name"].as_str().unwrap();
            let d = tpm["materials"]
                .as_array()
                .unwrap()
                .iter()
                .find(|d| d["name"] == name)
                .unwrap();
            for role in ["colormap", "bumpmap", "opacitymap"] {
                assert_eq!(d[role], mf[role], "{rel} {name} {role}");
                if let Some(path) = mf[role].as_str() {
                    let want = mf[format!("{role}_resolves_to")].as_str();
                    assert_eq!(
                        resolved_file_name(&model, path).as_deref(),
                        want,
                        "{rel} {name} {role} {path}"
                    );
                }
            }
        }

        // Instances: raw values and the placed transform (file axes).
        let pose = Pose::rest(&model);
        for (k, inst) in facts["instances"].as_array().unwrap().iter().enumerate() {
            let name = inst["name"].as_str().unwrap();
            let d = &tpm["instances"][k];
            assert_eq!(d["name"], inst["name"]);
            assert_eq!(d["mesh"], inst["mesh"]);
            assert!(
                vec3(&d["position"]).abs_diff_eq(vec3(&inst["position"]), 1e-6),
                "{name}"
            );
            assert!(
                vec3(&d["rotation"]).abs_diff_eq(vec3(&inst["rotation_deg"]), 1e-6),
                "{name}"
            );
            assert_eq!(d["scale"].as_f64(), inst["scale"].as_f64(), "{name}");
            let n = node(&model, name);
            let mesh = model.nodes[n].mesh.unwrap();
            assert_eq!(model.meshes[mesh].name, inst["mesh"].as_str().unwrap());
            let got = model.axes.matrix_to_file(pose.world[n]);
            let want = expected_instance_matrix(inst);
            assert!(got.abs_diff_eq(want, 1e-5), "{name}: {got} vs {want}");
        }
    }
}

#[vitrine_test(shared)]
fn lab_scene_ground_truth() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let gt = &m["files"]["tpm/lab_scene.tpm"]["ground_truth"];
    let tol = gt["tolerance"].as_f64().unwrap() as f32;
    let model = load(&dir.join("tpm/lab_scene.tpm"));

    // Crate02 is the second instance block, and the second instance node.
    let crate02 = node(&model, gt["instance"].as_str().unwrap());
    let instances: Vec<usize> = (0..model.nodes.len())
        .filter(|&i| model.nodes[i].kind == NodeKind::Instance)
        .collect();
    assert_eq!(
        instances[gt["instance_index_1based"].as_u64().unwrap() as usize - 1],
        crate02
    );
    let mesh = &model.meshes[model.nodes[crate02].mesh.unwrap()];
    let local = model.axes.point_to_file(mesh.points[0]);
    assert!(
        local.abs_diff_eq(vec3(&gt["first_vertex_local"]), 1e-6),
        "{local}"
    );

    let world = world_points_in_file_axes(&model, crate02);
    let first = world[0];
    assert!(
        first.abs_diff_eq(vec3(&gt["instance2_first_vertex_world"]), tol),
        "first vertex {first}"
    );
    let all = gt["instance2_all_vertices_world"].as_array().unwrap();
    assert_eq!(world.len(), all.len());
    for (k, (got, want)) in world.iter().zip(all).enumerate() {
        assert!(
            got.abs_diff_eq(vec3(want), tol),
            "corner {k}: {got} vs {want}"
        );
    }
    // None of the listed misreadings.
    for (what, wrong) in gt["wrong_interpretations_instance2_first_vertex"]
        .as_object()
        .unwrap()
    {
        let d = first.distance(vec3(wrong));
        assert!(
            d > 100.0 * tol,
            "first vertex matches the {what} misreading ({d})"
        );
    }

    // Fence triangles: the mesh's own m list (Fence, Crate), not the file's order.
    let fence = model
        .meshes
        .iter()
        .position(|x| x.name == "FencePanel")
        .unwrap();
    assert_eq!(
        triangle_materials(&model, fence),
        strings(&gt["fence_triangle_materials"])
    );
    // The fence material is alpha-tested from its opacity map; Crate resolves through
    // its Windows path to the lower-case file next to the scene.
    let fence_mat = model.materials.iter().find(|x| x.name == "Fence").unwrap();
    assert!(fence_mat.opacity.is_some() && fence_mat.double_sided);
    assert_eq!(fence_mat.blend, vitrine_core::model::BlendMode::AlphaTest);
    assert_eq!(
        resolved_file_name(&model, "Map\\Lab\\Crate.BMP").as_deref(),
        Some("crate.bmp")
    );
    // UVs: TPM's origin is bottom-left, the model's top-left. The first CrateBox face
    // uses t 1, 2, 3 = (0,0), (1,0), (1,1) in the file.
    let crate_box = &model.meshes[model.nodes[crate02].mesh.unwrap()];
    let uvs: Vec<[f32; 2]> = crate_box.corners[..3]
        .iter()
        .map(|c| c.uv[0].to_array())
        .collect();
    assert_eq!(uvs, [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0]]);
    // Normals turn with the axes: the first face's file normal (0,0,-1) points down,
    // which is model -Y.
    assert_eq!(crate_box.corners[0].normal, Some(Vec3::NEG_Y));
    assert!(model.diagnostics.is_empty(), "{:?}", model.diagnostics);
}

#[vitrine_test(shared)]
fn tail_skin_bones_and_binding() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let gt = &m["files"]["tpm/tail_skin.tpm"]["ground_truth"];
    let bytes = std::fs::read(dir.join("tpm/tail_skin.tpm")).unwrap();
    assert!(bytes.windows(2).any(|w| w == b"\r\n"), "the sample is CRLF");
    let model = load(&dir.join("tpm/tail_skin.tpm"));
    let mesh_index = model.meshes.iter().position(|x| x.name == "Tail").unwrap();
    let mesh = &model.meshes[mesh_index];
    let skin = model
        .skins
        .iter()
        .find(|s| s.name == "Tail")
        .expect("skin Tail");

    // Vertex → bone name (or unbound), through the influences and the skin's joints.
    let bone_of = |v: usize| -> Option<String> {
        let inf = mesh.influences[v];
        (inf.weights[0] > 0.0).then(|| {
            model.nodes[skin.joints[inf.joints[0] as usize]]
                .name
                .clone()
        })
    };
    let want = gt["vertex_bones"].as_object().unwrap();
    assert_eq!(mesh.influences.len(), want.len());
    for (k, name) in want {
        let v: usize = k.parse::<usize>().unwrap() - 1;
        assert_eq!(bone_of(v).as_deref(), name.as_str(), "vertex {k}");
    }
    for k in gt["unbound_vertices_1based"].as_array().unwrap() {
        assert_eq!(bone_of(k.as_u64().unwrap() as usize - 1), None);
    }
    let mut per_bone: BTreeMap<String, u64> = BTreeMap::new();
    for v in 0..mesh.points.len() {
        if let Some(b) = bone_of(v) {
            *per_bone.entry(b).or_default() += 1;
        }
    }
    let want: BTreeMap<String, u64> = gt["vertices_per_bone"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect();
    assert_eq!(per_bone, want);
    assert_eq!(gt["bone_index_00_used"], true);
    assert!(per_bone.contains_key("$JTail00"));

    // Bones hang under the skin's instance, in the skin's local space: $JTail01 sits at
    // skin-local (0, 0.5, 0.1), so in the file's world it is instance · that point.
    let tail = node(&model, "Tail");
    let b1 = node(&model, "$JTail01");
    assert_eq!(model.nodes[b1].parent, Some(tail));
    let pose = Pose::rest(&model);
    let inst = &m["files"]["tpm/tail_skin.tpm"]["instances"][0];
    let want = expected_instance_matrix(inst).transform_point3(Vec3::new(0.0, 0.5, 0.1));
    let got = model
        .axes
        .point_to_file(pose.world[b1].transform_point3(Vec3::ZERO));
    assert!(got.abs_diff_eq(want, 1e-5), "{got} vs {want}");
    // Even if a renderer did skin it, the rest pose would be unchanged.
    for jm in &pose.joint_matrices[0] {
        assert!(jm.abs_diff_eq(Mat4::IDENTITY, 1e-5), "{jm}");
    }

    // The missing bump map is a warning, not an error; the colour map resolves.
    assert!(
        model
            .diagnostics
            .iter()
            .any(|d| d.message.contains("skin_bump.bmp")),
        "{:?}",
        model.diagnostics
    );
    assert_eq!(resolved_file_name(&model, "skin_bump.bmp"), None);
    assert_eq!(
        resolved_file_name(&model, "Map\\Lab\\skin.bmp").as_deref(),
        Some("skin.bmp")
    );
}

#[vitrine_test(shared)]
fn plane_quirks_ground_truth() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let gt = &m["files"]["tpm/plane_quirks.tpm"]["ground_truth"];
    let model = load(&dir.join("tpm/plane_quirks.tpm"));
    // The mesh has no instance: one node at identity.
    let n = node(&model, "Plane01");
    assert_eq!(model.nodes[n].kind, NodeKind::Part);
    let world = world_points_in_file_axes(&model, n);
    let tol = gt["tolerance"].as_f64().unwrap() as f32;
    assert!(
        world[0].abs_diff_eq(vec3(&gt["first_vertex_world"]), tol),
        "{}",
        world[0]
    );
    assert_eq!(
        triangle_materials(&model, 0),
        strings(&gt["triangle_materials"])
    );
    // The unknown material property is reported at its line, and nothing else.
    let lines: Vec<_> = model.diagnostics.iter().map(|d| d.location).collect();
    assert_eq!(lines, [Location::Line(17)], "{:?}", model.diagnostics);
    assert!(model.diagnostics[0].message.contains("shininess"));
}

/// The MANIFEST's error code as this program's error kind.
fn kind_for(code: &str) -> ErrorKind {
    match code {
        "syntax" => ErrorKind::Syntax,
        "duplicate_fileinfo" => ErrorKind::Invalid,
        "empty_file" => ErrorKind::EmptyFile,
        "index_out_of_range" => ErrorKind::IndexOutOfRange,
        "non_finite_float" => ErrorKind::NonFiniteFloat,
        "bad_value" => ErrorKind::BadValue,
        "missing_fileinfo" | "missing_formatversion" => ErrorKind::Missing,
        "encoding" => ErrorKind::Encoding,
        "unterminated_block" => ErrorKind::UnterminatedBlock,
        "truncated" => ErrorKind::Truncated,
        other => panic!("no ErrorKind for manifest code {other}"),
    }
}

#[vitrine_test(shared)]
fn bad_files_fail_or_warn_as_the_manifest_says() {
    let dir = common::synthetic();
    let m = manifest(&dir);
    let bad = m["bad"].as_object().unwrap();
    let on_disk = common::bad_files_on_disk(&dir, "tpm_");
    let mut listed: Vec<String> = bad
        .keys()
        .filter(|k| k.starts_with("bad/tpm_"))
        .cloned()
        .collect();
    listed.sort();
    assert_eq!(on_disk, listed, "bad/tpm_* on disk vs MANIFEST");
    assert_eq!(listed.len(), 20);

    // What each `invalid` warning must mention (from the manifest's reasons).
    let needle = |code: &str| match code {
        "missing_mesh" => "NoSuchMesh",
        "unknown_block" => "light",
        "unknown_property" => "`q`",
        "missing_material" => "\"Crate\"",
        other => panic!("no warning check for {other}"),
    };
    for rel in &listed {
        let facts = &bad[rel];
        let code = facts["error"].as_str().unwrap();
        let result = common::load_path(&dir.join(rel), &LoadOptions::default());
        match facts["severity"].as_str().unwrap() {
            "fatal" => {
                let e = match result {
                    Ok(_) => panic!("{rel}: loaded, but the manifest says {code} (fatal)"),
                    Err(e) => e,
                };
                let mut ok = vec![kind_for(code)];
                if let Some(also) = facts["also_acceptable"].as_array() {
                    ok.extend(also.iter().map(|c| kind_for(c.as_str().unwrap())));
                }
                assert!(
                    ok.contains(&e.kind),
                    "{rel}: {:?} ({e}), want {code}",
                    e.kind
                );
                let shown = e.to_string();
                if code == "empty_file" {
                    assert_eq!(e.location, Location::File);
                } else {
                    assert!(
                        matches!(e.location, Location::Line(l) if l > 0),
                        "{rel}: {shown}"
                    );
                }
                let file = rel.trim_start_matches("bad/");
                assert!(shown.starts_with(file), "{rel}: {shown}");
            }
            "invalid" => {
                let model = result.unwrap_or_else(|e| panic!("{rel}: {e} (should load, {code})"));
                model.validate().unwrap();
                let hit = model
                    .diagnostics
                    .iter()
                    .find(|d| d.message.contains(needle(code)))
                    .unwrap_or_else(|| {
                        panic!("{rel}: no warning about {code}: {:?}", model.diagnostics)
                    });
                assert!(matches!(hit.location, Location::Line(_)), "{rel}: {hit:?}");
                assert!(
                    !model.meshes.is_empty() && !model.nodes.is_empty(),
                    "{rel}: the rest is shown"
                );
            }
            other => panic!("{rel}: unknown severity {other}"),
        }
    }
}

#[vitrine_test(shared)]
fn missing_material_gets_a_grey_placeholder() {
    let dir = common::synthetic();
    let model = load(&dir.join("bad/tpm_missing_material_block.tpm"));
    let mesh = &model.meshes[0];
    assert!(mesh.triangle_count() > 0);
    for s in &mesh.submeshes {
        let mat = &model.materials[s.material];
        if mat.name == "Crate" {
            assert_eq!(mat.base, None);
            let [r, g, b, _] = mat.base_color;
            assert!(
                r == g && g == b && r < 0.9,
                "neutral grey, got {:?}",
                mat.base_color
            );
        }
    }
    assert!(model.materials.iter().any(|x| x.name == "Crate"));
}

#[test]
fn spec_examples_fixture_loads_leniently() {
    let path = common::fixtures().join("tpm/spec_examples.tpm");
    let model = load(&path);
    model.validate().unwrap();
    let warned_at = |line: u32, text: &str| {
        model
            .diagnostics
            .iter()
            .any(|d| d.location == Location::Line(line) && d.message.contains(text))
    };
    let all = format!("{:#?}", model.diagnostics);
    assert!(warned_at(6, "BlockType"), "{all}");
    assert!(warned_at(14, "BlockTypeNoName"), "{all}");
    assert!(
        warned_at(29, "RaptorB"),
        "instance of a missing mesh: {all}"
    );
    assert!(warned_at(46, "wood04") && warned_at(47, "stone03"), "{all}");
    assert!(warned_at(61, "$JRaptorB23"), "bone of no skin: {all}");
    assert!(warned_at(73, "default"), "{all}");
    assert!(warned_at(71, "$JTestSkin01"), "{all}");

    // fileinfo fields reach the panel.
    let prop = |k: &str| {
        model
            .properties
            .iter()
            .find(|p| p.key == k)
            .map(|p| p.value.as_str())
    };
    assert_eq!(prop("Name"), Some("NewRaptor.max"));
    assert_eq!(prop("Date"), Some("7/2/2007 6:03:23 PM"));
    assert_eq!(prop("Comments"), Some("unfinished yet"));
    assert!(prop("Bone \"$JRaptorB23\"").is_some_and(|v| v.contains("Anim01 = 8")));

    // The spec's plane: face 1 uses the mesh's 2nd material, face 2 its 1st.
    let plane = model
        .meshes
        .iter()
        .position(|x| x.name == "Plane01")
        .unwrap();
    assert_eq!(triangle_materials(&model, plane), ["stone03", "wood04"]);
    // Both meshes are shown once at identity (the only instance names a missing mesh).
    let kinds: Vec<_> = model
        .nodes
        .iter()
        .map(|n| (n.name.as_str(), n.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("Plane01", NodeKind::Part),
            ("TestSkin", NodeKind::Part),
            ("$JRaptorB23", NodeKind::Bone)
        ]
    );
    // The material's three maps, by role.
    let mat = model
        .materials
        .iter()
        .find(|x| x.name == "RaptorB.mat10")
        .unwrap();
    let name = |i: Option<usize>| i.map(|i| model.textures[i].name.as_str());
    assert_eq!(name(mat.base), Some("Map\\lab\\Araptor10t2.bmp"));
    assert_eq!(name(mat.bump), Some("Map\\lab\\Araptor10b8.bmp"));
    assert_eq!(name(mat.opacity), Some("Map\\lab\\Araptor10o8.bmp"));
}

fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    const TOKENS: &[&[u8]] = &[
        b"{",
        b"}",
        b"=",
        b"(",
        b")",
        b",",
        b"\"",
        b"\n",
        b"\r",
        b"-",
        b"0",
        b"99999",
        b"nan",
        b"inf",
        b"1e40",
        b"//",
        b"\xe9",
        b" ",
        b"\t",
        b"-1",
        b"mesh \"X\"\n{\n",
        b"f = ",
    ];
    let mut v = src.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(5) {
            0 if at < v.len() => v[at] = rng.next() as u8,
            1 => {
                let end = (at + 1 + rng.below(40)).min(v.len());
                v.drain(at.min(end)..end);
            }
            2 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            3 => {
                // Duplicate a line.
                let start = v[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                let end = v[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(v.len(), |p| at + p + 1);
                let line = v[start..end].to_vec();
                v.splice(start..start, line);
            }
            _ => v.truncate(at),
        }
    }
    v
}

#[vitrine_test(shared)]
fn ten_thousand_mutations_never_panic() {
    let mut sources =
        vec![std::fs::read(common::fixtures().join("tpm/spec_examples.tpm")).unwrap()];
    for p in tpm_files(&common::synthetic().join("tpm")) {
        sources.push(std::fs::read(p).unwrap());
    }
    let mut rng = Rng::new(0x7e57_7a11_5eed_0001);
    let (mut loaded, mut failed) = (0, 0);
    for i in 0..10_000 {
        let src = &sources[i % sources.len()];
        let bytes = mutate(&mut rng, src);
        match formats::parse(Format::Tpm, &bytes, "mutant.tpm", &Default::default()) {
            Ok(model) => {
                if let Err(e) = model.validate() {
                    panic!(
                        "mutant {i} built an invalid model: {e}\n{}",
                        String::from_utf8_lossy(&bytes)
                    );
                }
                loaded += 1;
            }
            Err(e) => {
                let placed = matches!(e.location, Location::Line(_)) || bytes.is_empty();
                assert!(placed, "mutant {i}: error without a line: {e}");
                failed += 1;
            }
        }
    }
    eprintln!("10000 mutants: {loaded} loaded, {failed} rejected with a line");
    // Both outcomes must occur, or the mutations are not exercising anything.
    assert!(
        loaded > 100 && failed > 100,
        "loaded {loaded}, failed {failed}"
    );
}
