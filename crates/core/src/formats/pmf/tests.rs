//! Loader tests on files built byte by byte by a small PMF writer.

use super::*;
use crate::formats::ErrorKind;
use crate::model::{Location, Pose};
use glam::{Vec2, Vec3};

/// A piece to write.
struct P {
    name: &'static str,
    translation: [f32; 3],
    /// Each vertex: position, normal, uv.
    vertices: Vec<[f32; 8]>,
    children: Vec<P>,
}

fn piece(name: &'static str, translation: [f32; 3], children: Vec<P>) -> P {
    P {
        name,
        translation,
        vertices: triangle(),
        children,
    }
}

fn triangle() -> Vec<[f32; 8]> {
    vec![
        [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.25],
    ]
}

/// A frame to write: flags, root position, one rotation per piece.
struct F(u8, [f32; 3], Vec<[f32; 3]>);

/// An animation to write: name, flags, fps, frames.
struct A(&'static str, u8, u8, Vec<F>);

#[derive(Default)]
struct W(Vec<u8>);

impl W {
    fn name(&mut self, s: &str) {
        let mut f = [0u8; 32];
        f[0] = s.len() as u8;
        f[1..1 + s.len()].copy_from_slice(s.as_bytes());
        self.0.extend_from_slice(&f);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32s(&mut self, v: &[f32]) {
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn piece(&mut self, p: &P) {
        self.name(p.name);
        self.f32s(&p.translation);
        self.u32(p.vertices.len() as u32);
        for v in &p.vertices {
            self.f32s(v);
        }
        self.u32(p.children.len() as u32);
        for c in &p.children {
            self.piece(c);
        }
    }
    fn anim(&mut self, a: &A) {
        self.name(a.0);
        self.0.push(a.1);
        self.0.push(a.2);
        self.0.extend_from_slice(&(a.3.len() as u16).to_le_bytes());
        for f in &a.3 {
            self.0.push(f.0);
            self.f32s(&f.1);
            for r in &f.2 {
                self.f32s(r);
            }
        }
    }
}

fn file(root: &P, anims: &[A]) -> Vec<u8> {
    let mut w = W::default();
    w.0.extend_from_slice(b"PMF1");
    w.piece(root);
    w.u32(anims.len() as u32);
    for a in anims {
        w.anim(a);
    }
    w.0
}

/// root(0) → arm(1) → hand(2); root → leg(3).
fn arm_and_leg() -> P {
    piece(
        "root",
        [0.0, 1.0, 0.0],
        vec![
            piece(
                "arm",
                [0.5, 0.0, 0.0],
                vec![piece("hand", [0.0, -0.5, 0.0], vec![])],
            ),
            piece("leg", [0.0, -1.0, 0.0], vec![]),
        ],
    )
}

/// Three frames of four pieces: the arm turns 0 → 90 → 180 degrees about Z and the root
/// moves up.
fn swing() -> A {
    let f = |flags, y: f32, z: f32| {
        F(
            flags,
            [0.0, y, 0.0],
            vec![[0.0; 3], [0.0, 0.0, z], [0.0; 3], [0.0; 3]],
        )
    };
    A(
        "swing",
        1,
        10,
        vec![f(1, 2.0, 0.0), f(2, 2.5, 90.0), f(1 | 2, 3.0, 180.0)],
    )
}

fn origin(pose: &Pose, node: usize) -> Vec3 {
    pose.world[node].transform_point3(Vec3::ZERO)
}

#[test]
fn hierarchy_meshes_and_materials() {
    let m = parse(&file(&arm_and_leg(), &[]), &PmfOptions::default()).unwrap();
    m.validate().unwrap();
    let names: Vec<_> = m.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["root", "arm", "hand", "leg"]);
    let parents: Vec<_> = m.nodes.iter().map(|n| n.parent).collect();
    assert_eq!(parents, [None, Some(0), Some(1), Some(0)]);
    let rest = Pose::rest(&m);
    assert!(origin(&rest, 2).abs_diff_eq(Vec3::new(0.5, 0.5, 0.0), 1e-6));
    assert!(origin(&rest, 3).abs_diff_eq(Vec3::ZERO, 1e-6));
    let mesh = &m.meshes[1];
    assert_eq!((mesh.points.len(), mesh.triangle_count()), (3, 1));
    assert_eq!(mesh.points[1], Vec3::X);
    // V up in the file, V down in the model.
    assert_eq!(mesh.corners[2].uv[0], Vec2::new(0.0, 0.75));
    assert_eq!(mesh.corners[0].normal, Some(Vec3::Z));
    // One material per piece, distinct colours, used by that piece's mesh.
    assert_eq!(m.materials.len(), 4);
    for (i, mesh) in m.meshes.iter().enumerate() {
        assert_eq!(mesh.submeshes[0].material, i);
        assert_eq!(m.materials[i].name, m.nodes[i].name);
    }
    for a in 0..4 {
        for b in a + 1..4 {
            assert_ne!(m.materials[a].base_color, m.materials[b].base_color);
        }
    }
    assert!(m.textures.is_empty() && m.clips.is_empty() && m.diagnostics.is_empty());
    assert_eq!(m.details.to_json()["pieces"][2]["parent"], "arm");
    assert_eq!(
        m.details.to_json()["pieces"][0]["parent"],
        serde_json::Value::Null
    );
}

#[test]
fn frames_become_linear_tracks_with_ticks_and_events() {
    let m = parse(&file(&arm_and_leg(), &[swing()]), &PmfOptions::default()).unwrap();
    m.validate().unwrap();
    let clip = &m.clips[0];
    assert_eq!((clip.fps, clip.frame_count, clip.looping), (10.0, 3, true));
    assert_eq!(clip.keyframes, [0, 2]);
    assert_eq!(
        clip.events.iter().map(|e| e.frame).collect::<Vec<_>>(),
        [1, 2]
    );
    assert_eq!(clip.node_tracks.len(), 4);
    // Frame 1: arm turned 90° about Z, so the hand (0, −0.5) below the arm goes to +X.
    let p = Pose::sample(&m, Some(0), clip.frame_time(1.0), 0);
    assert!(origin(&p, 0).abs_diff_eq(Vec3::new(0.0, 2.5, 0.0), 1e-6));
    assert!(
        origin(&p, 2).abs_diff_eq(Vec3::new(1.0, 2.5, 0.0), 1e-5),
        "{}",
        origin(&p, 2)
    );
    // Half way between frames 0 and 1: 45°, root half way.
    let p = Pose::sample(&m, Some(0), clip.frame_time(0.5), 0);
    let s = 0.5 * std::f32::consts::FRAC_1_SQRT_2;
    assert!(origin(&p, 2).abs_diff_eq(Vec3::new(0.5 + s, 2.25 - s, 0.0), 1e-5));
    // Looping: past the last frame it blends back to frame 0 and wraps.
    let p = Pose::sample(&m, Some(0), clip.frame_time(3.0), 0);
    assert!(origin(&p, 0).abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-6));
}

#[test]
fn root_mode_and_units_drive_the_pose() {
    let bytes = file(&arm_and_leg(), &[swing()]);
    let add = PmfOptions {
        root: RootMode::Add,
        ..PmfOptions::default()
    };
    let m = parse(&bytes, &add).unwrap();
    let p = Pose::sample(&m, Some(0), m.clips[0].frame_time(1.0), 0);
    assert!(origin(&p, 0).abs_diff_eq(Vec3::new(0.0, 3.5, 0.0), 1e-6));
    let radians = PmfOptions {
        units: RotationUnits::Radians,
        ..PmfOptions::default()
    };
    let m = parse(&bytes, &radians).unwrap();
    let p = Pose::sample(&m, Some(0), m.clips[0].frame_time(1.0), 0);
    // 90 radians about Z.
    let (s, c) = 90.0f32.sin_cos();
    let want = Vec3::new(0.5 + 0.5 * s, 2.5 - 0.5 * c, 0.0);
    assert!(origin(&p, 2).abs_diff_eq(want, 1e-4), "{}", origin(&p, 2));
    assert_eq!(m.details.to_json()["options"]["units"], "radians");
    assert!(
        m.properties
            .iter()
            .any(|p| p.key == "Rotation units" && p.value.starts_with("radians"))
    );
}

#[test]
fn lenient_cases_load_with_warnings() {
    let mut root = piece("root", [0.0; 3], vec![]);
    root.vertices.push([0.0; 8]);
    let mut bytes = file(
        &root,
        &[
            A("still", 0x81, 0, vec![]),
            A("odd", 0, 5, vec![F(0x10, [0.0; 3], vec![[0.0; 3]])]),
        ],
    );
    bytes.extend_from_slice(&[0xEE; 5]);
    let m = parse(&bytes, &PmfOptions::default()).unwrap();
    m.validate().unwrap();
    assert_eq!(
        (m.meshes[0].points.len(), m.meshes[0].triangle_count()),
        (4, 1)
    );
    let text: Vec<String> = m
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.location, d.message))
        .collect();
    let expect = [
        " @0x30: piece 0 (root): vertex count 4 is not a multiple of 3",
        " @0xdc: animation 0 (still): unknown animation flag bits 0x81",
        "animation still: fps is 0",
        "animation still has no frames",
        "animation 1 (odd): frame 0 (and maybe others) has unknown flag bits 0x10",
        &format!(
            " @0x{:x}: 5 bytes after the last animation",
            bytes.len() - 5
        ),
    ];
    for want in expect {
        assert!(
            text.iter().any(|t| t.contains(want)),
            "{want:?} not in {text:#?}"
        );
    }
    assert_eq!(m.clips[0].fps, 1.0);
    assert!(m.clips[0].node_tracks.is_empty());
}

#[test]
fn error_cases_name_offset_and_record() {
    let good = file(&arm_and_leg(), &[swing()]);
    let with = |at: usize, patch: &[u8]| {
        let mut b = good.clone();
        b[at..at + patch.len()].copy_from_slice(patch);
        b
    };
    // Offsets: magic 4; root piece: name 32, translation 12, count 4 (@0x30), 3×32
    // vertices, child count 4 (@0x94); then the arm piece at 0x98.
    let nan = f32::NAN.to_le_bytes();
    let cases: Vec<(&str, Vec<u8>, ErrorKind, u64, &str)> = vec![
        ("magic", with(0, b"PMF0"), ErrorKind::BadMagic, 0, "'PMF0'"),
        (
            "name",
            with(4, &[32]),
            ErrorKind::BadValue,
            4,
            "piece 0 name",
        ),
        (
            "translation",
            with(4 + 32 + 4, &nan),
            ErrorKind::NonFiniteFloat,
            40,
            "piece 0 (root): translation",
        ),
        (
            "vertex count",
            with(0x30, &[0xff; 4]),
            ErrorKind::CountTooLarge,
            0x30,
            "piece 0 (root): vertex count",
        ),
        (
            "normal",
            with(0x34 + 32 + 12, &nan),
            ErrorKind::NonFiniteFloat,
            0x34 + 44,
            "piece 0 (root) vertex 1: normal",
        ),
        (
            "child count",
            with(0x94, &[0xff; 4]),
            ErrorKind::CountTooLarge,
            0x94,
            "piece 0 (root): child count",
        ),
        (
            "child name",
            with(0x98, &[200]),
            ErrorKind::BadValue,
            0x98,
            "piece 1 name",
        ),
        // Each piece here is 148 bytes: the leg starts at 4 + 3 × 148 = 448.
        (
            "cut in leg",
            good[..448 + 40].to_vec(),
            ErrorKind::Truncated,
            448 + 40,
            "piece 3 (leg): translation",
        ),
        (
            "cut before anims",
            good[..good.len() - 4 - (36 + 3 * 61)].to_vec(),
            ErrorKind::Truncated,
            (good.len() - 4 - (36 + 3 * 61)) as u64,
            "animation count",
        ),
    ];
    for (label, bytes, kind, offset, text) in cases {
        let e = parse(&bytes, &PmfOptions::default()).unwrap_err();
        assert_eq!(e.kind, kind, "{label}: {e}");
        assert_eq!(e.location, Location::Offset(offset), "{label}: {e}");
        assert!(e.message.contains(text), "{label}: {e}");
    }
}

#[test]
fn every_truncation_fails_cleanly() {
    let good = file(&arm_and_leg(), &[swing()]);
    for len in 0..good.len() {
        let e = parse(&good[..len], &PmfOptions::default()).unwrap_err();
        let Location::Offset(at) = e.location else {
            panic!("{len}: no offset in {e}");
        };
        assert!(at <= len as u64, "{len}: {e}");
        assert!(
            matches!(
                e.kind,
                ErrorKind::Truncated | ErrorKind::CountTooLarge | ErrorKind::EmptyFile
            ),
            "{len}: {e}"
        );
    }
}

#[test]
fn nesting_depth_is_bounded_without_recursion() {
    fn chain(depth: usize) -> Vec<u8> {
        // Written iteratively: each piece has one child except the last.
        let mut w = W::default();
        w.0.extend_from_slice(b"PMF1");
        for i in 0..depth {
            w.name("s");
            w.f32s(&[0.0, 1.0, 0.0]);
            w.u32(0);
            w.u32(u32::from(i + 1 < depth));
        }
        w.u32(0);
        w.0
    }
    let m = parse(&chain(MAX_DEPTH_FOR_TEST), &PmfOptions::default()).unwrap();
    assert_eq!(m.nodes.len(), MAX_DEPTH_FOR_TEST);
    assert_eq!(m.nodes.last().unwrap().parent, Some(MAX_DEPTH_FOR_TEST - 2));
    let e = parse(&chain(MAX_DEPTH_FOR_TEST + 1), &PmfOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid, "{e}");
    assert!(e.message.contains("deeper than 256"), "{e}");
    // A 100 000-deep chain is refused quickly, not by a stack overflow.
    let e = parse(&chain(100_000), &PmfOptions::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
}

const MAX_DEPTH_FOR_TEST: usize = pieces::MAX_DEPTH;
