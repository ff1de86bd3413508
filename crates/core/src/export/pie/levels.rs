//! The model's nodes → PIE levels in the file's space (see the module docs of
//! [`super`]): points baked or kept per node, welded; triangles with UVs and normals;
//! connectors; shadow meshes; texture animation; ANIMOBJECT frames ([`super::anim`]).

use super::anim::{self, AnimObject};
use super::text;
use crate::model::{Clip, Format, Model, Pose};
use glam::{Mat3, Mat4, Vec2, Vec3};
use std::collections::HashMap;

/// One triangle of a level, in file terms.
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    /// Indices into [`Level::points`], in the file's (clockwise, left-handed) order.
    pub points: [u32; 3],
    /// UV per corner.
    pub uvs: [Vec2; 3],
    /// Normal per corner, file axes (zero for a degenerate triangle).
    pub normals: [Vec3; 3],
    /// Whether the level's texture animation moves this polygon's UVs (flags 4200).
    pub animated: bool,
}

/// A `+4000` animation block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TexAnim {
    /// Frames (> 1).
    pub frames: u32,
    /// Milliseconds per frame.
    pub ms_per_frame: f32,
    /// Frame size in UV units.
    pub size: Vec2,
}

/// A shadow mesh in file terms.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shadow {
    /// Points, file axes.
    pub points: Vec<Vec3>,
    /// Triangles in the file's order.
    pub triangles: Vec<[u32; 3]>,
}

/// One level to write.
#[derive(Debug, Clone)]
pub struct Level {
    /// The node it comes from.
    pub node: usize,
    /// The material its triangles use (`None`: the mesh has no material).
    pub material: Option<usize>,
    /// Welded points, file axes.
    pub points: Vec<Vec3>,
    /// Triangles.
    pub polygons: Vec<Polygon>,
    /// Texture animation of the animated polygons.
    pub tex_anim: Option<TexAnim>,
    /// Connectors as the game reads them (x, y, z; z up).
    pub connectors: Vec<[f32; 3]>,
    /// Keyframes.
    pub anim: Option<AnimObject>,
    /// Whether the keyframes blend (INTERPOLATE).
    pub interpolate: bool,
    /// Shadow mesh.
    pub shadow: Option<Shadow>,
}

/// File axes from model axes: PIE mirrors X.
fn mirror(v: Vec3) -> Vec3 {
    Vec3::new(-v.x, v.y, v.z)
}

/// How a node's geometry goes into its level.
struct Placement {
    /// Model-space (scaled) point transform.
    points: Mat4,
    /// Normal transform.
    normals: Mat3,
    /// The transform turns space inside out (winding swaps back).
    flips: bool,
    /// The transform is the identity (raw connectors stay valid).
    identity: bool,
}

impl Placement {
    fn new(m: Mat4, scale: f32) -> Placement {
        let points = Mat4::from_scale(Vec3::splat(scale)) * m;
        let linear = Mat3::from_mat4(m);
        let normals = if linear.determinant().abs() > f32::EPSILON {
            linear.inverse().transpose()
        } else {
            linear
        };
        Placement {
            points,
            normals,
            flips: linear.determinant() < 0.0,
            identity: points.abs_diff_eq(Mat4::IDENTITY, 0.0),
        }
    }
}

/// Welds points by the text they are written as.
#[derive(Default)]
struct Welder {
    points: Vec<Vec3>,
    index: HashMap<String, u32>,
}

impl Welder {
    fn add(&mut self, p: Vec3) -> u32 {
        let key = text::vec3(p);
        let next = self.points.len() as u32;
        *self.index.entry(key).or_insert_with(|| {
            self.points.push(p);
            next
        })
    }
}

/// Whether `node` or one of its ancestors has a transform track in `clip`.
fn animated(model: &Model, clip: Option<&Clip>, node: usize) -> Option<usize> {
    let clip = clip?;
    let mut n = Some(node);
    while let Some(i) = n {
        if clip.node_tracks.iter().any(|t| t.node == i)
            || clip.visibility.iter().any(|t| t.node == i)
        {
            return Some(i);
        }
        n = model.nodes[i].parent;
    }
    None
}

/// The levels of `model`, `scale` applied; what is dropped goes to `warnings`.
pub fn flatten(model: &Model, scale: f32, warnings: &mut Vec<String>) -> Vec<Level> {
    let rest = Pose::rest(model);
    let clip = model.clips.first();
    if model.clips.len() > 1 {
        warnings.push(format!(
            "{} animation clips: only the first ({:?}) is written (PIE has one animation)",
            model.clips.len(),
            model.clips[0].name
        ));
    }
    let mut levels: Vec<Level> = Vec::new();
    let mut skinned = false;
    for (n, node) in model.nodes.iter().enumerate() {
        let Some(m) = node.mesh else { continue };
        let mesh = &model.meshes[m];
        let keyed = animated(model, clip, n);
        let (points, placement, anim) = if mesh.skin.is_some() {
            skinned = true;
            let posed = crate::model::skin_positions(model, m, &rest);
            (posed, Placement::new(Mat4::IDENTITY, scale), None)
        } else if let Some(k) = keyed {
            let anim = clip.and_then(|c| anim::frames(model, c, n, k, scale, warnings));
            (
                mesh.points.clone(),
                Placement::new(Mat4::IDENTITY, scale),
                anim,
            )
        } else {
            (
                mesh.points.clone(),
                Placement::new(rest.world[n], scale),
                None,
            )
        };
        let tex_anim = clip
            .and_then(|c| c.texture_frames.iter().find(|t| t.mesh == m))
            .map(|t| TexAnim {
                frames: t.frames,
                ms_per_frame: t.ms_per_frame,
                size: t.frame_size,
            });
        let interpolate = clip
            .and_then(|c| c.node_tracks.iter().find(|t| Some(t.node) == keyed))
            .and_then(|t| t.translation.as_ref().or(t.scale.as_ref()))
            .is_none_or(|t| t.interpolation == crate::model::Interpolation::Linear);
        let file_points: Vec<Vec3> = points
            .iter()
            .map(|p| mirror(placement.points.transform_point3(*p)))
            .collect();
        // One level per material run (PIE has one page per level).
        let mut runs: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
        if mesh.submeshes.is_empty() {
            // An empty level keeps the material named like its mesh (a PIE level's).
            let own = model.materials.iter().position(|m| m.name == mesh.name);
            runs.push((own, (0..mesh.triangle_count()).collect()));
        }
        for s in &mesh.submeshes {
            let tris = s.first_triangle as usize..(s.first_triangle + s.triangle_count) as usize;
            match runs.iter_mut().find(|(mat, _)| *mat == Some(s.material)) {
                Some((_, list)) => list.extend(tris),
                None => runs.push((Some(s.material), tris.collect())),
            }
        }
        for (material, triangles) in runs {
            let mut welder = Welder::default();
            // Every point of a one-run mesh is kept (unused ones too), in file order.
            if mesh.submeshes.len() <= 1 {
                for p in &file_points {
                    welder.add(*p);
                }
            }
            let mut polygons = Vec::with_capacity(triangles.len());
            for t in triangles {
                let c = &mesh.corners[t * 3..t * 3 + 3];
                let model_pos = |i: usize| {
                    placement
                        .points
                        .transform_point3(points[c[i].point as usize])
                };
                let face = (model_pos(1) - model_pos(0))
                    .cross(model_pos(2) - model_pos(0))
                    .normalize_or_zero();
                let face = if placement.flips { -face } else { face };
                // Model CCW (a, b, c) is file order (a, c, b); a mirroring transform
                // swaps back.
                let order = if placement.flips {
                    [0, 1, 2]
                } else {
                    [0, 2, 1]
                };
                let corner = |k: usize| &c[order[k]];
                let normal = |k: usize| {
                    corner(k)
                        .normal
                        .map_or(face, |n| (placement.normals * n).normalize_or_zero())
                };
                polygons.push(Polygon {
                    points: [0, 1, 2].map(|k| welder.add(file_points[corner(k).point as usize])),
                    uvs: [0, 1, 2].map(|k| corner(k).uv[0]),
                    normals: [0, 1, 2].map(|k| mirror(normal(k))),
                    animated: tex_anim.is_some() && c.iter().any(|c| c.animated),
                });
            }
            levels.push(Level {
                node: n,
                material,
                points: welder.points,
                polygons,
                tex_anim,
                connectors: Vec::new(),
                anim: anim.clone(),
                interpolate,
                shadow: None,
            });
        }
        // Connectors and the shadow mesh go to the node's first level.
        let first = levels.iter().position(|l| l.node == n).unwrap_or(0);
        let keep_raw = model.units_format() == Format::Pie && placement.identity;
        for c in model.connectors.iter().filter(|c| c.node == n) {
            let p = placement.points.transform_point3(c.position);
            levels[first].connectors.push(connector(c, p, keep_raw));
        }
        if let Some(s) = model.shadow_meshes.iter().find(|s| s.node == n) {
            let order = if placement.flips {
                [0, 1, 2]
            } else {
                [0, 2, 1]
            };
            levels[first].shadow = Some(Shadow {
                points: s
                    .points
                    .iter()
                    .map(|p| mirror(placement.points.transform_point3(*p)))
                    .collect(),
                triangles: s.triangles.iter().map(|t| order.map(|k| t[k])).collect(),
            });
        }
    }
    // Connectors of nodes without a level (an assembly's group nodes) go to level 1.
    let placed: Vec<usize> = levels.iter().map(|l| l.node).collect();
    for c in model
        .connectors
        .iter()
        .filter(|c| !placed.contains(&c.node))
    {
        if let Some(first) = levels.first_mut() {
            let m = Mat4::from_scale(Vec3::splat(scale)) * rest.world[c.node];
            first
                .connectors
                .push(connector(c, m.transform_point3(c.position), false));
        }
    }
    if skinned {
        warnings.push(
            "skinned meshes are written in their rest pose; the skin (bones and weights) \
             is dropped: PIE has none"
                .into(),
        );
    }
    if !model.collision_boxes.is_empty() {
        warnings.push(format!(
            "{} collision boxes dropped: PIE has none",
            model.collision_boxes.len()
        ));
    }
    levels
}

/// A connector as the game reads it: the file's own numbers when the connector still
/// sits where the loader put them, else (−x, z, y) of `p` (model axes), rounded.
fn connector(c: &crate::model::Connector, p: Vec3, keep_raw: bool) -> [f32; 3] {
    let [x, y, z] = c.raw.map(f32::trunc);
    if keep_raw && Vec3::new(-x, z, y) == c.position {
        return c.raw;
    }
    [-p.x, p.z, p.y].map(|v| {
        let r = v.round();
        if r == 0.0 { 0.0 } else { r }
    })
}
