//! `MESH`: vertices with bone weights, then triangles with per-corner normals and UVs,
//! then one texture index per triangle (and from 1.2 a second, unexplained byte).
//!
//! Layout: (`.mpet` only: u8 count of 20-byte sub-mesh records, five u32 each), u32
//! vertex count; per vertex x, y, z (`.mpet`: one more f32), then (u8 weight, bone id)
//! pairs until the weights sum to 255, with 2 padding bytes after a lone 255 pair; u32
//! triangle count; per corner u32 vertex index, 3 f32 normal, UVs (one u, v pair before
//! 1.2; from 1.2 a u8 set count, then that many pairs); then the per-triangle bytes.
//!
//! Vertices are in the space of their first weighted bone; [`super::build`] moves them
//! to the model. Everything here stays in file axes.

use super::Kind;
use super::bones::read_id;
use super::sections::PetFile;
use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::{Diagnostic, Location};
use glam::{Vec2, Vec3};

/// Most influences a point keeps (the model's limit).
pub(crate) const MAX_INFLUENCES: usize = 4;

/// One vertex as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    /// Position in the first weighted bone's space (file axes).
    pub position: Vec3,
    /// `.mpet`'s extra float.
    pub extra: Option<f32>,
    /// `(weight 0–255, bone)` pairs in file order, at most `MAX_INFLUENCES`; the first
    /// is the bone the position is relative to.
    pub weights: Vec<(u8, usize)>,
    /// How many pairs the file stored (before any trimming).
    pub(crate) stored_pairs: usize,
}

/// One triangle corner as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PolyCorner {
    /// Vertex index.
    pub vertex: u32,
    /// Per-corner normal (file axes).
    pub normal: Vec3,
    /// UV sets 0 and 1 as stored (V down).
    pub uv: [Vec2; 2],
}

/// One triangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Polygon {
    /// Corners in file order.
    pub(crate) corners: [PolyCorner; 3],
    /// `TEXT` index.
    pub texture: u8,
    /// The ≥ 1.2 second per-triangle byte.
    pub extra: u8,
}

/// The parsed `MESH` section.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MeshData {
    /// `.mpet` sub-mesh records: unknown, vertex start, vertex count, polygon start,
    /// polygon count.
    pub(crate) submesh_records: Vec<[u32; 5]>,
    /// Vertices.
    pub vertices: Vec<Vertex>,
    /// Triangles.
    pub polygons: Vec<Polygon>,
    /// Most UV sets any corner stored.
    pub uv_sets: u8,
    /// File offset of the first texture-index byte (triangle `i`'s is this + `i`).
    pub(crate) texture_bytes_at: u64,
}

fn read_weights(
    r: &mut Reader<'_>,
    v: usize,
    bone_count: Option<usize>,
    notes: &mut Vec<Diagnostic>,
) -> Result<(Vec<(u8, usize)>, usize), LoadError> {
    let start = r.offset();
    let mut pairs: Vec<(u8, usize)> = Vec::new();
    let mut sum: u32 = 0;
    while sum < 255 {
        let at = r.offset();
        let w = r.u8(format_args!("vertex {v} weight {}", pairs.len()))?;
        let bone = read_id(r, format_args!("vertex {v} weight {} bone", pairs.len()))?;
        if w == 0 {
            return Err(LoadError::new(
                ErrorKind::BadValue,
                Location::Offset(at),
                format!(
                    "vertex {v} weight pair {} has weight 0, so the pairs (sum {sum} so far) \
                     would never reach 255",
                    pairs.len()
                ),
            ));
        }
        let Some(bone) = bone else {
            return Err(LoadError::new(
                ErrorKind::IndexOutOfRange,
                Location::Offset(at + 1),
                format!(
                    "vertex {v} weight pair {} names no bone (0xFF)",
                    pairs.len()
                ),
            ));
        };
        let bones = bone_count.ok_or_else(|| {
            LoadError::new(
                ErrorKind::Missing,
                Location::Offset(at + 1),
                format!("vertex {v} is weighted to bone {bone}, but the file has no BONE section"),
            )
        })?;
        if bone as usize >= bones {
            return Err(LoadError::new(
                ErrorKind::IndexOutOfRange,
                Location::Offset(at + 1),
                format!("vertex {v} is weighted to bone {bone}, but there are {bones} bones"),
            ));
        }
        sum += w as u32;
        pairs.push((w, bone as usize));
    }
    if pairs.len() == 1 {
        r.skip(
            2,
            format_args!("vertex {v} padding after a single weight pair"),
        )?;
    }
    if sum > 255 {
        notes.push(Diagnostic::warning(
            Location::Offset(start),
            format!("vertex {v} weights sum to {sum}, not 255; normalised"),
        ));
    }
    let stored = pairs.len();
    if stored > MAX_INFLUENCES {
        notes.push(Diagnostic::warning(
            Location::Offset(start),
            format!(
                "vertex {v} has {stored} weight pairs; kept the {MAX_INFLUENCES} largest and \
                 renormalised"
            ),
        ));
        // Keep the first pair (it defines the vertex's space), then the largest others.
        let first = pairs[0];
        let mut rest = pairs.split_off(1);
        rest.sort_by_key(|p| std::cmp::Reverse(p.0));
        rest.truncate(MAX_INFLUENCES - 1);
        pairs = std::iter::once(first).chain(rest).collect();
    }
    Ok((pairs, stored))
}

/// Parses a `MESH` payload; also returns the warnings found on the way.
pub(crate) fn parse(
    r: &mut Reader<'_>,
    file: &PetFile,
    bone_count: Option<usize>,
) -> Result<(MeshData, Vec<Diagnostic>), LoadError> {
    let mut notes = Vec::new();
    let mut submesh_records = Vec::new();
    let mpet = file.kind == Kind::Mpet;
    if mpet {
        let n = r.u8("MESH sub-mesh record count")?;
        let n = r.check_count(n as u64, 20, "MESH sub-mesh records")?;
        for i in 0..n {
            let mut rec = [0u32; 5];
            for f in &mut rec {
                *f = r.u32(format_args!("MESH sub-mesh record {i}"))?;
            }
            submesh_records.push(rec);
        }
    }
    let count = r.u32("MESH vertex count")?;
    let vertex_bytes = 12 + if mpet { 4 } else { 0 } + 4;
    let count = r.check_count(count as u64, vertex_bytes, "MESH vertices")?;
    let mut vertices = Vec::with_capacity(count);
    for v in 0..count {
        let position = Vec3::from(r.f32s::<3>(format_args!("vertex {v} position"))?);
        let extra = if mpet {
            Some(r.f32(format_args!("vertex {v} .mpet float"))?)
        } else {
            None
        };
        let (weights, stored_pairs) = read_weights(r, v, bone_count, &mut notes)?;
        vertices.push(Vertex {
            position,
            extra,
            weights,
            stored_pairs,
        });
    }

    let uv_count_byte = file.at_least(2);
    let second_byte = file.at_least(2);
    let count = r.u32("MESH triangle count")?;
    let corner_bytes = 16 + if uv_count_byte { 1 } else { 8 };
    let poly_bytes = 3 * corner_bytes + 1 + u64::from(second_byte);
    let count = r.check_count(count as u64, poly_bytes, "MESH triangles")?;
    let mut polygons = Vec::with_capacity(count);
    let mut uv_sets = 0u8;
    for p in 0..count {
        let mut corners = [PolyCorner {
            vertex: 0,
            normal: Vec3::ZERO,
            uv: [Vec2::ZERO; 2],
        }; 3];
        for (c, corner) in corners.iter_mut().enumerate() {
            let at = r.offset();
            let vertex = r.u32(format_args!("triangle {p} corner {c} vertex index"))?;
            if vertex as usize >= vertices.len() {
                return Err(LoadError::new(
                    ErrorKind::IndexOutOfRange,
                    Location::Offset(at),
                    format!(
                        "triangle {p} corner {c} refers to vertex {vertex}, but the mesh has {}",
                        vertices.len()
                    ),
                ));
            }
            let normal = Vec3::from(r.f32s::<3>(format_args!("triangle {p} corner {c} normal"))?);
            let sets = if uv_count_byte {
                r.u8(format_args!("triangle {p} corner {c} UV set count"))?
            } else {
                1
            };
            uv_sets = uv_sets.max(sets);
            let mut uv = [Vec2::ZERO; 2];
            for s in 0..sets as usize {
                let pair = Vec2::from(r.f32s::<2>(format_args!("triangle {p} corner {c} UV {s}"))?);
                if let Some(slot) = uv.get_mut(s) {
                    *slot = pair;
                }
            }
            *corner = PolyCorner { vertex, normal, uv };
        }
        polygons.push(Polygon {
            corners,
            texture: 0,
            extra: 0,
        });
    }
    if uv_sets > 2 {
        notes.push(Diagnostic::warning(
            Location::Offset(r.offset()),
            format!("corners carry up to {uv_sets} UV sets; only the first 2 are kept"),
        ));
    }
    let texture_bytes_at = r.offset();
    let tex = r.bytes(polygons.len(), "MESH per-triangle texture indices")?;
    for (p, &t) in polygons.iter_mut().zip(tex) {
        p.texture = t;
    }
    if second_byte {
        let extra = r.bytes(polygons.len(), "MESH second per-triangle byte array")?;
        for (p, &e) in polygons.iter_mut().zip(extra) {
            p.extra = e;
        }
    }
    let mesh = MeshData {
        submesh_records,
        vertices,
        polygons,
        uv_sets,
        texture_bytes_at,
    };
    Ok((mesh, notes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pet::sections::parse_file;

    fn section(tag: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut v = tag.to_vec();
        v.extend_from_slice(&(body.len() as u32).to_le_bytes());
        v.extend_from_slice(body);
        v
    }

    /// A v1.0 `.pet` with 2 bones at the origin and one vertex carrying `weights`.
    fn file(weights: &[u8]) -> Vec<u8> {
        let mut bones = vec![2u8];
        for (name, parent) in [(&b"a"[..], 255u8), (b"b", 0)] {
            bones.extend_from_slice(name);
            bones.extend_from_slice(&[0, parent]);
            for f in [1.0f32, 0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0.] {
                bones.extend_from_slice(&f.to_le_bytes());
            }
        }
        let mut mesh = 1u32.to_le_bytes().to_vec();
        for f in [1.0f32, 2.0, 3.0] {
            mesh.extend_from_slice(&f.to_le_bytes());
        }
        mesh.extend_from_slice(weights);
        mesh.extend_from_slice(&0u32.to_le_bytes());
        let mut out = section(b"BONE", &bones);
        out.extend(section(b"MESH", &mesh));
        out
    }

    #[test]
    fn weight_pairs_table() {
        type Case = (
            &'static str,
            Vec<u8>,
            Result<(Vec<(u8, usize)>, usize, bool), ErrorKind>,
        );
        let cases: Vec<Case> = vec![
            (
                "single + padding",
                vec![255, 1, 0, 0],
                Ok((vec![(255, 1)], 1, false)),
            ),
            (
                "two pairs",
                vec![200, 0, 55, 1],
                Ok((vec![(200, 0), (55, 1)], 2, false)),
            ),
            (
                "five pairs keep first + 3 largest",
                vec![40, 1, 45, 0, 60, 1, 50, 0, 60, 0],
                Ok((vec![(40, 1), (60, 1), (60, 0), (50, 0)], 5, true)),
            ),
            (
                "overshoot",
                vec![200, 0, 100, 1],
                Ok((vec![(200, 0), (100, 1)], 2, true)),
            ),
            (
                "u16 bone id",
                vec![255, 0xFE, 1, 0, 0, 0],
                Ok((vec![(255, 1)], 1, false)),
            ),
            ("zero weight", vec![0, 1, 0, 0], Err(ErrorKind::BadValue)),
            (
                "bone out of range",
                vec![255, 7, 0, 0],
                Err(ErrorKind::IndexOutOfRange),
            ),
            ("no padding", vec![255, 0], Err(ErrorKind::Truncated)),
        ];
        for (name, weights, want) in cases {
            let got = parse_file(&file(&weights), Kind::Pet).map(|f| {
                let v = &f.mesh.as_ref().unwrap().vertices[0];
                (v.weights.clone(), v.stored_pairs, !f.notes.is_empty())
            });
            assert_eq!(got.map_err(|e| e.kind), want, "{name}");
        }
    }

    #[test]
    fn counts_are_checked_before_allocating() {
        let mut bytes = file(&[255, 0, 0, 0]);
        // The vertex count sits right after the MESH header.
        let at = bytes.windows(4).position(|w| w == b"MESH").unwrap() + 8;
        bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = parse_file(&bytes, Kind::Pet).unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge);
        assert_eq!(e.location, Location::Offset(at as u64 + 4));
    }
}
