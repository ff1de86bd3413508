//! Which part is under the cursor: a ray from the camera through a pixel, tested against
//! the posed triangles on the CPU (Möller–Trumbore). Pure math; no GPU.
//!
//! Both faces count (a modder hovering a back face still wants its name); the nearest
//! hit along the ray wins.

use crate::Camera;
use crate::inspect::node_shown;
use crate::inspect::posed::{PosedMesh, posed_points};
use glam::{Vec2, Vec3};
use vitrine_core::model::{Model, Pose};

/// A half-line in model space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// Start (on the near plane).
    pub origin: Vec3,
    /// Unit direction.
    pub dir: Vec3,
}

/// The ray through pixel `px` (origin top-left) of a `size` view seen by `camera`.
pub fn ray_through(camera: &Camera, px: Vec2, size: Vec2) -> Ray {
    let size = size.max(Vec2::ONE);
    let inv = camera.view_proj(size.x / size.y).inverse();
    let ndc = Vec2::new(px.x / size.x * 2.0 - 1.0, 1.0 - px.y / size.y * 2.0);
    let near = inv.project_point3(ndc.extend(0.0));
    let far = inv.project_point3(ndc.extend(1.0));
    Ray {
        origin: near,
        dir: (far - near).normalize_or(Vec3::NEG_Z),
    }
}

/// Distance along `ray` to triangle `abc` (either face), if it is hit in front.
pub fn ray_triangle(ray: &Ray, a: Vec3, b: Vec3, c: Vec3) -> Option<f32> {
    let e1 = b - a;
    let e2 = c - a;
    let p = ray.dir.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 * e1.length_squared().max(e2.length_squared()).max(1e-30) {
        return None;
    }
    let inv = 1.0 / det;
    let s = ray.origin - a;
    let u = s.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = ray.dir.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t >= 0.0).then_some(t)
}

/// The nearest hit: which node, how far along the ray, and where.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Node whose mesh was hit.
    pub node: usize,
    /// Distance along the ray.
    pub distance: f32,
    /// Model-space point.
    pub point: Vec3,
}

/// The nearest triangle of `meshes` (posed, see [`crate::inspect::posed::posed_meshes`]) on `ray`.
pub fn pick(model: &Model, meshes: &[PosedMesh], ray: &Ray) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    for pm in meshes {
        nearest(model, pm.mesh, pm.node, &pm.points, ray, &mut best);
    }
    best
}

/// [`pick`] over every node `pose` and `mask` show, posing only their points (what a
/// pick reads): the window's hover and click on a map, where posing the normals of every
/// mesh cost more than the pick itself.
pub fn pick_shown(model: &Model, pose: &Pose, mask: &[bool], ray: &Ray) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    for node in (0..model.nodes.len()).filter(|&i| node_shown(pose, mask, i)) {
        let (Some(mesh), Some(points)) = (model.nodes[node].mesh, posed_points(model, pose, node))
        else {
            continue;
        };
        nearest(model, mesh, node, &points, ray, &mut best);
    }
    best
}

/// Makes `best` the nearer of itself and the nearest triangle of mesh `mesh` (shown by
/// `node`, its points posed as `points`) on `ray`.
fn nearest(
    model: &Model,
    mesh: usize,
    node: usize,
    points: &[Vec3],
    ray: &Ray,
    best: &mut Option<Hit>,
) {
    let Some(mesh) = model.meshes.get(mesh) else {
        return;
    };
    for tri in mesh.corners.chunks_exact(3) {
        let p = [0, 1, 2].map(|k| points.get(tri[k].point as usize).copied());
        let [Some(a), Some(b), Some(c)] = p else {
            continue;
        };
        if let Some(t) = ray_triangle(ray, a, b, c)
            && best.is_none_or(|h| t < h.distance)
        {
            *best = Some(Hit {
                node,
                distance: t,
                point: ray.origin + ray.dir * t,
            });
        }
    }
}

/// Whether the model-space point `p` is in plain sight of `camera`: no triangle of
/// `meshes` lies between it and the eye. Surfaces within `tolerance` of `p` do not count
/// (a connector sits on its own surface).
pub(crate) fn in_sight(
    model: &Model,
    meshes: &[PosedMesh],
    camera: &Camera,
    p: Vec3,
    tolerance: f32,
) -> bool {
    let (dir, reach) = if camera.orthographic {
        (camera.direction(), f32::INFINITY)
    } else {
        let to_eye = camera.eye() - p;
        (to_eye.normalize_or(Vec3::Z), to_eye.length())
    };
    let ray = Ray {
        origin: p + dir * tolerance,
        dir,
    };
    pick(model, meshes, &ray).is_none_or(|h| h.distance > reach)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::posed::posed_meshes;
    use vitrine_core::model::{Corner, Format, Mesh, Node, NodeKind, Pose};

    #[test]
    fn ray_triangle_cases() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Y);
        let down = |x: f32, y: f32| Ray {
            origin: Vec3::new(x, y, 5.0),
            dir: Vec3::NEG_Z,
        };
        // (ray, expected distance)
        let cases = [
            (down(0.25, 0.25), Some(5.0)),
            (down(0.0, 0.0), Some(5.0)), // a corner counts
            (down(0.6, 0.6), None),      // beyond the hypotenuse
            (down(-0.1, 0.5), None),     // left of the triangle
            (
                Ray {
                    origin: Vec3::new(0.2, 0.2, -1.0),
                    dir: Vec3::NEG_Z,
                },
                None,
            ), // behind the origin
            (
                Ray {
                    origin: Vec3::new(0.2, 0.2, -3.0),
                    dir: Vec3::Z,
                },
                Some(3.0),
            ), // from behind: the back face counts
            (
                Ray {
                    origin: Vec3::new(0.2, 0.2, 1.0),
                    dir: Vec3::X,
                },
                None,
            ), // parallel
        ];
        for (i, (ray, want)) in cases.iter().enumerate() {
            let got = ray_triangle(ray, a, b, c);
            match (got, want) {
                (Some(g), Some(w)) => assert!((g - w).abs() < 1e-5, "case {i}: {g} vs {w}"),
                (None, None) => {}
                _ => panic!("case {i}: got {got:?}, want {want:?}"),
            }
        }
    }

    /// Two unit squares facing +Z: `near` at z = 1, `far` at z = 0 shifted right by 1.5.
    fn two_squares() -> Model {
        let mut m = Model::new(Format::Pmf, "t");
        for (name, x, z) in [("near", 0.0, 1.0), ("far", 0.5, 0.0)] {
            let p = |dx: f32, dy: f32| Vec3::new(x + dx, dy, z);
            m.meshes.push(Mesh {
                name: name.into(),
                points: vec![p(-1.0, -1.0), p(1.0, -1.0), p(1.0, 1.0), p(-1.0, 1.0)],
                corners: [0, 1, 2, 0, 2, 3]
                    .map(|i| Corner::new(i, Vec2::ZERO))
                    .to_vec(),
                ..Mesh::default()
            });
            let mut n = Node::new(name, None, NodeKind::Piece);
            n.mesh = Some(m.meshes.len() - 1);
            m.nodes.push(n);
        }
        m
    }

    #[test]
    fn picking_through_the_camera_finds_the_nearest_visible_part() {
        let m = two_squares();
        let pose = Pose::rest(&m);
        let mut cam = Camera::default();
        // Looking from +Z towards −Z.
        (cam.yaw, cam.pitch) = (0.0, 0.0);
        cam.frame(Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.5, 1.0, 1.0));
        let size = Vec2::new(200.0, 100.0);
        let at = |p: Vec3| cam.project(p, size.x, size.y).unwrap();
        // Over posed meshes and over the points alone (the window's), the same hit.
        let pick_at = |px: Vec2, mask: &[bool]| {
            let ray = ray_through(&cam, px, size);
            let hit = pick(&m, &posed_meshes(&m, &pose, mask), &ray);
            assert_eq!(hit, pick_shown(&m, &pose, mask, &ray));
            hit
        };
        // Where both overlap the near one wins; its hit point is on its plane.
        let hit = pick_at(at(Vec3::new(0.2, 0.0, 1.0)), &[]).unwrap();
        assert_eq!(hit.node, 0);
        assert!((hit.point.z - 1.0).abs() < 1e-3, "{}", hit.point);
        // Only the far one reaches x = 1.4.
        assert_eq!(pick_at(at(Vec3::new(1.4, 0.0, 0.0)), &[]).unwrap().node, 1);
        // Hidden parts are not picked: the far one shows through.
        assert_eq!(
            pick_at(at(Vec3::new(0.2, 0.0, 1.0)), &[false])
                .unwrap()
                .node,
            1
        );
        // Nothing in the corner.
        assert_eq!(pick_at(Vec2::new(1.0, 1.0), &[]), None);
        // A point on the near square is in sight; one on the far square behind it is not,
        // unless the near square is hidden.
        let all = posed_meshes(&m, &pose, &[]);
        let far_point = Vec3::new(0.2, 0.0, 0.0);
        assert!(in_sight(&m, &all, &cam, Vec3::new(0.2, 0.0, 1.0), 1e-3));
        assert!(!in_sight(&m, &all, &cam, far_point, 1e-3));
        let far_only = posed_meshes(&m, &pose, &[false]);
        assert!(in_sight(&m, &far_only, &cam, far_point, 1e-3));
    }
}
