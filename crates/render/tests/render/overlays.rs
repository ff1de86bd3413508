//! Overlays and shadows on a real (software) GPU: each overlay changes the picture where
//! its geometry projects and nowhere else; shadows darken the ground where a CPU ray
//! cast towards the light says the casters block it (the shadow mesh when there is one).
//! Marked `#[vitrine_test(gpu)]`: ignored where the build found no adapter.

use crate::render_support;

use glam::{Mat4, Vec2, Vec3};
use render_support::{Rig, fixtures, framed};
use vitrine_core::model::{CollisionBox, Connector, Model, Node, NodeKind, Pose, ShadowMesh, Skin};
use vitrine_render::inspect::overlays::colours;
use vitrine_render::inspect::picking::{Ray, ray_through, ray_triangle};
use vitrine_render::inspect::posed::shadow_casters;
use vitrine_render::inspect::shadows::shadow_light;
use vitrine_render::{Camera, Lighting, OverlayKind, Overlays, ViewSettings};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 160;
const BG: [u8; 4] = [40, 44, 52, 255];

/// A white-ish box −1..1 (colours per axis, lit), framed in the iso view.
fn box_model() -> Model {
    fixtures::box_model(Vec3::splat(-1.0), Vec3::ONE)
}

fn view_for(model: &Model, overlays: Overlays) -> ViewSettings {
    let mut v = ViewSettings {
        background: BG,
        overlays,
        ..Default::default()
    };
    framed(&mut v.camera, model, &Pose::rest(model));
    // A little room around the model for markers and labels.
    v.camera.distance *= 1.25;
    v
}

fn only(kind: OverlayKind) -> Overlays {
    let mut o = Overlays::NONE;
    o.set(kind, true);
    o
}

/// Renders `model` with and without `overlays`; returns (without, with).
fn pair(
    rig: &mut Rig,
    model: &Model,
    overlays: Overlays,
) -> (image::RgbaImage, image::RgbaImage, Camera) {
    let pose = Pose::rest(model);
    let plain = view_for(model, Overlays::NONE);
    let with = ViewSettings {
        overlays,
        ..plain.clone()
    };
    let a = rig.render_pose(model, &pose, &plain, SIZE);
    let b = rig.render_pose(model, &pose, &with, SIZE);
    (a, b, plain.camera)
}

fn changed(a: &image::RgbaImage, b: &image::RgbaImage) -> Vec<Vec2> {
    crate::common::image_diff::diff(a, b)
        .positions_over(8)
        .map(|(x, y)| Vec2::new(x as f32 + 0.5, y as f32 + 0.5))
        .collect()
}

fn seg_dist(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

fn px(camera: &Camera, p: Vec3) -> Vec2 {
    camera
        .project(p, SIZE as f32, SIZE as f32)
        .expect("in front")
}

/// Every changed pixel lies within `tol` pixels of one of `segments` (model space) or
/// of one of `spots` (pixel centres with radii); at least `min` pixels changed.
fn assert_changes_near(
    name: &str,
    changes: &[Vec2],
    camera: &Camera,
    segments: &[(Vec3, Vec3)],
    tol: f32,
    spots: &[(Vec2, f32)],
    min: usize,
) {
    assert!(
        changes.len() >= min,
        "{name}: only {} pixels changed",
        changes.len()
    );
    let projected: Vec<(Vec2, Vec2)> = segments
        .iter()
        .map(|(a, b)| (px(camera, *a), px(camera, *b)))
        .collect();
    let stray: Vec<&Vec2> = changes
        .iter()
        .filter(|p| {
            !projected.iter().any(|(a, b)| seg_dist(**p, *a, *b) <= tol)
                && !spots.iter().any(|(c, r)| p.distance(*c) <= *r)
        })
        .collect();
    assert!(
        stray.is_empty(),
        "{name}: {} of {} changed pixels are away from the overlay, e.g. {:?}",
        stray.len(),
        changes.len(),
        &stray[..stray.len().min(5)]
    );
}

fn box_edges(lo: Vec3, hi: Vec3) -> Vec<(Vec3, Vec3)> {
    let c = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    };
    let mut out = Vec::new();
    for i in 0..8 {
        for bit in [1, 2, 4] {
            if i & bit == 0 {
                out.push((c(i), c(i | bit)));
            }
        }
    }
    out
}

#[vitrine_test(gpu)]
fn connector_marker_sits_on_the_projected_connector() {
    let mut rig = Rig::new();
    let mut model = box_model();
    // On the ±Z face the iso camera sees, off centre, and one on the top face.
    let towards = view_for(&model, Overlays::NONE)
        .camera
        .direction()
        .z
        .signum();
    let points = [Vec3::new(0.3, -0.2, towards), Vec3::new(-0.4, 1.0, 0.2)];
    for p in points {
        model.connectors.push(Connector {
            node: 0,
            raw: [p.x, p.z, p.y],
            position: p,
        });
    }
    let (a, b, cam) = pair(&mut rig, &model, only(OverlayKind::Connectors));
    save_debug("connectors", &b);
    for (n, p) in points.iter().enumerate() {
        let want = px(&cam, *p);
        // The marker's centre: the mean of connector-coloured pixels within the ring.
        let (mut sum, mut count) = (Vec2::ZERO, 0.0);
        for (x, y, q) in b.enumerate_pixels() {
            let at = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let c = colours::CONNECTOR;
            let close = q.0[..3]
                .iter()
                .zip(&c[..3])
                .all(|(u, v)| u.abs_diff(*v) <= 40);
            if close && at.distance(want) <= 8.0 {
                sum += at;
                count += 1.0;
            }
        }
        assert!(
            count >= 10.0,
            "connector {n}: marker not drawn ({count} px)"
        );
        let centre = sum / count;
        assert!(
            centre.distance(want) <= 2.0,
            "connector {n}: marker centre {centre}, projected {want}"
        );
    }
    // Nothing else changed: markers, numbers (up and right) and triads only.
    let spots: Vec<(Vec2, f32)> = points
        .iter()
        .flat_map(|p| {
            let c = px(&cam, *p);
            [(c, 10.0), (c + Vec2::new(14.0, -14.0), 10.0)]
        })
        .collect();
    let triads: Vec<(Vec3, Vec3)> = points
        .iter()
        .flat_map(|p| [Vec3::X, Vec3::Y, Vec3::Z].map(|d| (*p, *p + d * 0.25 * 3f32.sqrt())))
        .collect();
    assert_changes_near(
        "connectors",
        &changed(&a, &b),
        &cam,
        &triads,
        2.5,
        &spots,
        60,
    );
}

#[vitrine_test(gpu)]
fn wireframe_changes_only_pixels_on_triangle_edges() {
    let mut rig = Rig::new();
    let model = box_model();
    let (a, b, cam) = pair(&mut rig, &model, only(OverlayKind::Wireframe));
    let mesh = &model.meshes[0];
    let edges: Vec<(Vec3, Vec3)> = mesh
        .corners
        .chunks(3)
        .flat_map(|t| {
            let p = |i: usize| mesh.points[t[i].point as usize];
            [(p(0), p(1)), (p(1), p(2)), (p(2), p(0))]
        })
        .collect();
    assert_changes_near("wireframe", &changed(&a, &b), &cam, &edges, 1.6, &[], 150);
}

#[vitrine_test(gpu)]
fn normals_start_at_the_corners_and_point_out() {
    let mut rig = Rig::new();
    let model = box_model();
    let mut o = only(OverlayKind::Normals);
    o.normal_length = 0.2;
    let (a, b, cam) = pair(&mut rig, &model, o);
    // The box's bounding radius is √3; each corner has three face normals.
    let len = 0.2 * 3f32.sqrt();
    let mut segs = Vec::new();
    for p in &model.meshes[0].points {
        for d in [Vec3::X, Vec3::Y, Vec3::Z] {
            let d = d * p.signum();
            segs.push((*p, *p + d * len));
        }
    }
    let changes = changed(&a, &b);
    assert_changes_near("normals", &changes, &cam, &segs, 1.6, &[], 20);
    // Outward: some changed pixels lie outside the box's silhouette (the plain image
    // shows background there).
    let outside = changes
        .iter()
        .filter(|p| a.get_pixel(p.x as u32, p.y as u32).0 == BG)
        .count();
    assert!(
        outside >= 10,
        "only {outside} normal pixels outside the box"
    );
}

#[vitrine_test(gpu)]
fn bounding_box_edges_and_dimension_labels() {
    let mut rig = Rig::new();
    let (lo, hi) = (Vec3::new(-1.0, -0.5, -0.7), Vec3::new(1.0, 0.5, 0.7));
    let model = fixtures::box_model(lo, hi);
    let (a, b, cam) = pair(&mut rig, &model, only(OverlayKind::Bounds));
    // Labels sit near edge midpoints, pushed outwards by 14 px.
    let spots: Vec<(Vec2, f32)> = box_edges(lo, hi)
        .iter()
        .map(|(p, q)| (px(&cam, (*p + *q) * 0.5), 26.0))
        .collect();
    let changes = changed(&a, &b);
    assert_changes_near(
        "bounds",
        &changes,
        &cam,
        &box_edges(lo, hi),
        2.0,
        &spots,
        150,
    );
    // The edges themselves: every edge's midpoint area changed (edges in front of the
    // box or on its silhouette are visible; the hidden back ones are depth-tested away).
    let near_any_edge = |e: &(Vec3, Vec3)| {
        let m = px(&cam, (e.0 + e.1) * 0.5);
        changes.iter().any(|p| p.distance(m) < 3.0)
    };
    let shown = box_edges(lo, hi)
        .iter()
        .filter(|e| near_any_edge(e))
        .count();
    assert!(shown >= 9, "only {shown} of 12 box edges drawn");
}

#[vitrine_test(gpu)]
fn grid_is_drawn_on_the_ground_only_and_hidden_behind_the_model() {
    let mut rig = Rig::new();
    let model = box_model();
    let (a, b, cam) = pair(&mut rig, &model, only(OverlayKind::Grid));
    let changes = changed(&a, &b);
    assert!(changes.len() > 200, "{} grid pixels", changes.len());
    // Every changed pixel looks at the plane y = −1 (the box's bottom) near a line of
    // the grid (unit 0.2 for a model 2 units across).
    let unit = 0.2;
    for p in &changes {
        let ray = ray_through(&cam, *p, Vec2::splat(SIZE as f32));
        let t = (-1.0 - ray.origin.y) / ray.dir.y;
        assert!(t > 0.0, "{p}: pixel above the horizon changed");
        let g = ray.origin + ray.dir * t;
        let off = |v: f32| ((v / unit).round() * unit - v).abs();
        // One pixel spans at most ~0.05 units on this plane at this distance.
        assert!(
            off(g.x).min(off(g.z)) < 0.06,
            "{p}: ground point {g} is not on a grid line"
        );
        // Never over the box itself (depth-tested): the plain image shows background
        // there, or the box's edge (MSAA-blended silhouette pixels).
        let q = a.get_pixel(p.x as u32, p.y as u32).0;
        let on_box = q != BG
            && (-1..=1).all(|dy: i32| {
                (-1..=1).all(|dx: i32| {
                    let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
                    a.get_pixel(x as u32, y as u32).0 != BG
                })
            });
        assert!(!on_box, "{p}: grid drawn over the model");
    }
}

#[vitrine_test(gpu)]
fn axes_at_the_origin_and_the_corner_gizmo() {
    let mut rig = Rig::new();
    // A box off the origin, so the origin axes stand apart from it.
    let model = fixtures::box_model(Vec3::new(0.5, 0.0, 0.5), Vec3::new(2.0, 1.5, 2.0));
    let (a, b, cam) = pair(&mut rig, &model, only(OverlayKind::Axes));
    let radius = (Vec3::new(1.5, 1.5, 1.5)).length() * 0.5;
    let arms: Vec<(Vec3, Vec3)> = [Vec3::X, Vec3::Y, Vec3::Z]
        .iter()
        .map(|d| (Vec3::ZERO, *d * radius * 0.5))
        .collect();
    let gizmo = (Vec2::new(46.0, SIZE as f32 - 46.0), 50.0);
    let changes = changed(&a, &b);
    assert_changes_near("axes", &changes, &cam, &arms, 2.0, &[gizmo], 50);
    // The X arm at the origin is red.
    let tip = px(&cam, Vec3::X * radius * 0.4);
    let c = b.get_pixel(tip.x as u32, tip.y as u32).0;
    assert!(
        c[0] > 120 && c[0] > c[1] + 60 && c[0] > c[2] + 60,
        "X arm colour {c:?}"
    );
}

/// Three bones in a chain (0 → 1 → 2) beside a box that hides part of them.
fn boned() -> Model {
    let mut m = box_model();
    let mut root = Node::new("hip", None, NodeKind::Bone);
    root.translation = Vec3::new(0.0, -1.5, 0.0);
    m.nodes.push(root);
    let mut spine = Node::new("spine", Some(1), NodeKind::Bone);
    spine.translation = Vec3::new(0.0, 1.5, 0.0);
    m.nodes.push(spine);
    let mut head = Node::new("head", Some(2), NodeKind::Bone);
    head.translation = Vec3::new(0.0, 1.6, 0.0);
    m.nodes.push(head);
    m.skins.push(Skin {
        name: "s".into(),
        joints: vec![1, 2, 3],
        inverse_bind: vec![Mat4::IDENTITY; 3],
    });
    m
}

#[vitrine_test(gpu)]
fn bones_join_each_joint_to_its_parent_over_the_mesh() {
    let mut rig = Rig::new();
    let model = boned();
    let (a, b, cam) = pair(&mut rig, &model, only(OverlayKind::Bones));
    let j = [
        Vec3::new(0.0, -1.5, 0.0),
        Vec3::ZERO,
        Vec3::new(0.0, 1.6, 0.0),
    ];
    let segs = [(j[0], j[1]), (j[1], j[2])];
    // Lines 4 px wide with their outline; joints 8 px squares.
    let dots: Vec<(Vec2, f32)> = j.iter().map(|p| (px(&cam, *p), 6.5)).collect();
    assert_changes_near("bones", &changed(&a, &b), &cam, &segs, 3.0, &dots, 40);
    // Drawn over the box: the joint at the box's centre is visible.
    let centre = px(&cam, Vec3::ZERO);
    let c = b.get_pixel(centre.x as u32, centre.y as u32).0;
    assert!(
        c[0] > 200 && c[1] > 120 && c[2] < 120,
        "joint at the centre {c:?}"
    );
    // The window labels the joints by name.
    let names: Vec<String> = vitrine_render::inspect::overlays::labels(
        &model,
        &Pose::rest(&model),
        &view_for(&model, only(OverlayKind::Bones)),
    )
    .into_iter()
    .map(|l| l.text)
    .collect();
    assert_eq!(names, ["hip", "spine", "head"]);
}

#[vitrine_test(gpu)]
fn collision_boxes_follow_their_bone() {
    let mut rig = Rig::new();
    let mut model = boned();
    // A box in the head bone's space (node 3, at y = 1.6 in the model).
    let (lo, hi) = (Vec3::new(-0.3, 0.0, -0.3), Vec3::new(0.3, 0.5, 0.3));
    model.collision_boxes.push(CollisionBox {
        name: "head".into(),
        node: Some(3),
        min: lo,
        max: hi,
    });
    let (a, b, cam) = pair(&mut rig, &model, only(OverlayKind::Collision));
    let up = Vec3::new(0.0, 1.6, 0.0);
    let edges: Vec<_> = box_edges(lo + up, hi + up);
    assert_changes_near("collision", &changed(&a, &b), &cam, &edges, 2.0, &[], 40);
}

/// A small box standing on the ground (y 0..0.5) whose shadow mesh is a wide plate
/// floating at y = 1.5, off to +X, rotated: the plate, not the box, must cast.
fn shadow_fixture() -> Model {
    let mut m = fixtures::box_model(Vec3::new(-0.25, 0.0, -0.25), Vec3::new(0.25, 0.5, 0.25));
    let (c, s) = (0.5f32.cos(), 0.5f32.sin());
    let rot = |x: f32, z: f32| Vec3::new(1.2 + x * c - z * s, 1.5, x * s + z * c);
    m.shadow_meshes.push(ShadowMesh {
        node: 0,
        points: vec![
            rot(-0.6, -0.4),
            rot(0.6, -0.4),
            rot(0.6, 0.4),
            rot(-0.6, 0.4),
        ],
        triangles: vec![[0, 2, 1], [0, 3, 2]],
    });
    m
}

/// Per sampled ground pixel: whether the shadows image is darker there than the plain
/// one, and whether a CPU ray from the ground point towards the light hits `casters`.
/// Returns (agreements, disagreements, shadowed by the CPU, darkened by the GPU).
fn compare_with_cpu(
    plain: &image::RgbaImage,
    shadowed: &image::RgbaImage,
    camera: &Camera,
    ground_y: f32,
    casters: &[[Vec3; 3]],
) -> (usize, usize, usize, usize) {
    let light = shadow_light(Lighting::DEFAULT.direction(camera));
    let (mut agree, mut disagree, mut cpu_dark, mut gpu_dark) = (0, 0, 0, 0);
    for y in (0..SIZE).step_by(2) {
        for x in (0..SIZE).step_by(2) {
            if plain.get_pixel(x, y).0 != BG {
                continue; // the model, not the ground
            }
            let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let ray = ray_through(camera, p, Vec2::splat(SIZE as f32));
            if ray.dir.y >= 0.0 {
                continue;
            }
            let g = ray.origin + ray.dir * ((ground_y - ray.origin.y) / ray.dir.y);
            let to_light = Ray {
                origin: g + light * 1e-3,
                dir: light,
            };
            let cpu = casters
                .iter()
                .any(|t| ray_triangle(&to_light, t[0], t[1], t[2]).is_some());
            let gpu = plain.get_pixel(x, y).0[0] as i32 - shadowed.get_pixel(x, y).0[0] as i32 > 10;
            // Pixels right at a shadow edge may go either way (filtering, MSAA).
            let edge = [
                Vec2::new(1.5, 0.0),
                Vec2::new(-1.5, 0.0),
                Vec2::new(0.0, 1.5),
                Vec2::new(0.0, -1.5),
            ]
            .iter()
            .any(|d| {
                let r = ray_through(camera, p + *d, Vec2::splat(SIZE as f32));
                let g2 = r.origin + r.dir * ((ground_y - r.origin.y) / r.dir.y);
                let ray2 = Ray {
                    origin: g2 + light * 1e-3,
                    dir: light,
                };
                casters
                    .iter()
                    .any(|t| ray_triangle(&ray2, t[0], t[1], t[2]).is_some())
                    != cpu
            });
            if edge {
                continue;
            }
            cpu_dark += cpu as usize;
            gpu_dark += gpu as usize;
            if cpu == gpu {
                agree += 1;
            } else {
                disagree += 1;
            }
        }
    }
    (agree, disagree, cpu_dark, gpu_dark)
}

fn shadow_view(model: &Model) -> ViewSettings {
    let pose = Pose::rest(model);
    let mut v = ViewSettings {
        background: BG,
        ..Default::default()
    };
    // From above, so the shadows fall beside the casters, not behind them.
    v.camera.set_preset(vitrine_render::ViewPreset::Top);
    // Frame the box and the plate with room for the ground around them.
    let mut pts = vitrine_render::visible_points(model, &pose);
    pts.extend(
        model
            .shadow_meshes
            .iter()
            .flat_map(|s| s.points.iter().copied()),
    );
    pts.push(Vec3::new(-1.5, 0.0, -1.5));
    pts.push(Vec3::new(2.5, 0.0, 2.0));
    v.camera.frame_points(&pts, 1.0);
    v
}

#[vitrine_test(gpu)]
fn shadows_darken_the_ground_where_the_light_is_blocked_and_only_with_shadows_on() {
    let mut rig = Rig::new();
    // No shadow mesh: the box itself casts.
    let mut model = fixtures::box_model(Vec3::new(-0.5, 0.0, -0.5), Vec3::new(0.5, 1.5, 0.5));
    // A flat foot far away so that... no: the ground is the box's bottom, y = 0.
    model.shadow_meshes.clear();
    let pose = Pose::rest(&model);
    let off = shadow_view(&model);
    let on = ViewSettings {
        shadows: true,
        ..off.clone()
    };
    let plain = rig.render_pose(&model, &pose, &off, SIZE);
    let again = rig.render_pose(&model, &pose, &off, SIZE);
    assert_eq!(plain, again, "shadows off must not change the picture");
    let lit = rig.render_pose(&model, &pose, &on, SIZE);
    save_debug("shadow-box", &lit);
    let casters = shadow_casters(&model, &pose, &[]);
    let (agree, disagree, cpu, gpu) = compare_with_cpu(&plain, &lit, &on.camera, 0.0, &casters);
    assert!(cpu > 40, "the CPU finds only {cpu} shadowed samples");
    assert!(
        disagree * 50 <= agree,
        "GPU shadow disagrees with the CPU ray cast at {disagree} of {} samples (cpu {cpu}, gpu {gpu})",
        agree + disagree
    );
    // Only the ground changed, and only darker.
    for (x, y, p) in lit.enumerate_pixels() {
        let q = plain.get_pixel(x, y).0;
        if p.0 != q {
            assert!(
                p.0[..3].iter().zip(&q[..3]).all(|(a, b)| a <= b),
                "({x}, {y}) got lighter: {q:?} -> {:?}",
                p.0
            );
        }
    }
}

#[vitrine_test(gpu)]
fn the_shadow_mesh_casts_instead_of_the_render_mesh() {
    let mut rig = Rig::new();
    let model = shadow_fixture();
    let pose = Pose::rest(&model);
    let off = shadow_view(&model);
    let on = ViewSettings {
        shadows: true,
        ..off.clone()
    };
    let plain = rig.render_pose(&model, &pose, &off, SIZE);
    let lit = rig.render_pose(&model, &pose, &on, SIZE);
    save_debug("shadow-mesh", &lit);
    let plate: Vec<[Vec3; 3]> = model.shadow_meshes[0]
        .triangles
        .iter()
        .map(|t| t.map(|i| model.shadow_meshes[0].points[i as usize]))
        .collect();
    assert_eq!(shadow_casters(&model, &pose, &[]), plate);
    let (agree, disagree, cpu, _) = compare_with_cpu(&plain, &lit, &on.camera, 0.0, &plate);
    assert!(cpu > 40, "the plate's shadow covers only {cpu} samples");
    assert!(
        disagree * 50 <= agree,
        "{disagree} of {} samples disagree with the plate's shadow",
        agree + disagree
    );
    // Against the render mesh's shadow the picture disagrees a lot.
    let body: Vec<[Vec3; 3]> = {
        let mut m = model.clone();
        m.shadow_meshes.clear();
        shadow_casters(&m, &pose, &[])
    };
    let (_, wrong, _, _) = compare_with_cpu(&plain, &lit, &on.camera, 0.0, &body);
    assert!(
        wrong > cpu / 2,
        "the render mesh's shadow fits too well ({wrong})"
    );
}

#[vitrine_test(gpu)]
fn shadow_mesh_overlay_draws_its_edges() {
    let mut rig = Rig::new();
    let model = shadow_fixture();
    let pose = Pose::rest(&model);
    let plain = shadow_view(&model);
    let with = ViewSettings {
        overlays: only(OverlayKind::ShadowMesh),
        ..plain.clone()
    };
    let a = rig.render_pose(&model, &pose, &plain, SIZE);
    let b = rig.render_pose(&model, &pose, &with, SIZE);
    let s = &model.shadow_meshes[0];
    let edges: Vec<(Vec3, Vec3)> = s
        .triangles
        .iter()
        .flat_map(|t| {
            let p = |i: usize| s.points[t[i] as usize];
            [(p(0), p(1)), (p(1), p(2)), (p(2), p(0))]
        })
        .collect();
    assert_changes_near(
        "shadow mesh",
        &changed(&a, &b),
        &plain.camera,
        &edges,
        2.0,
        &[],
        60,
    );
}

#[vitrine_test(gpu)]
fn xray_shows_overlays_behind_the_model() {
    let mut rig = Rig::new();
    let mut model = box_model();
    // A connector on the far side of the box, hidden from the iso camera.
    let away = -view_for(&model, Overlays::NONE)
        .camera
        .direction()
        .z
        .signum();
    let hidden = Vec3::new(-0.2, 0.0, away);
    model.connectors.push(Connector {
        node: 0,
        raw: [0.0; 3],
        position: hidden,
    });
    let (a, b, cam) = pair(&mut rig, &model, only(OverlayKind::Connectors));
    let mut xray = only(OverlayKind::Connectors);
    xray.xray = true;
    let (_, c, _) = pair(&mut rig, &model, xray);
    let at = px(&cam, hidden);
    let near = |img: &image::RgbaImage| {
        let base = &a;
        img.enumerate_pixels()
            .filter(|(x, y, p)| {
                Vec2::new(*x as f32, *y as f32).distance(at) < 8.0 && base.get_pixel(*x, *y) != *p
            })
            .count()
    };
    assert_eq!(
        near(&b),
        0,
        "a hidden connector shows through without x-ray"
    );
    assert!(near(&c) > 20, "x-ray does not show the hidden connector");
}

#[vitrine_test(gpu)]
fn selection_tints_only_the_selected_node() {
    let mut rig = Rig::new();
    let mut model = box_model();
    // A second box beside the first, as its own node.
    let other = fixtures::box_model(Vec3::new(1.5, -1.0, -1.0), Vec3::new(2.5, 0.0, 0.0));
    let mi = model.meshes.len();
    model.meshes.push(other.meshes[0].clone());
    let mut n = Node::new("other", None, NodeKind::Level);
    n.mesh = Some(mi);
    model.nodes.push(n);
    let pose = Pose::rest(&model);
    let plain = view_for(&model, Overlays::NONE);
    let sel = ViewSettings {
        selected: Some(1),
        ..plain.clone()
    };
    let a = rig.render_pose(&model, &pose, &plain, SIZE);
    let b = rig.render_pose(&model, &pose, &sel, SIZE);
    let changes = changed(&a, &b);
    assert!(changes.len() > 100, "{} tinted pixels", changes.len());
    // Every tinted pixel is on the second box (its projected bounds).
    let corners: Vec<Vec2> = (0..8)
        .map(|i| {
            px(
                &plain.camera,
                Vec3::new(
                    if i & 1 == 0 { 1.5 } else { 2.5 },
                    if i & 2 == 0 { -1.0 } else { 0.0 },
                    if i & 4 == 0 { -1.0 } else { 0.0 },
                ),
            )
        })
        .collect();
    let (lo, hi) = corners
        .iter()
        .fold((Vec2::splat(1e9), Vec2::splat(-1e9)), |(l, h), c| {
            (l.min(*c), h.max(*c))
        });
    for p in &changes {
        assert!(
            p.x >= lo.x - 1.0 && p.x <= hi.x + 1.0 && p.y >= lo.y - 1.0 && p.y <= hi.y + 1.0,
            "{p} tinted outside the selected box {lo}..{hi}"
        );
    }
}

#[vitrine_test(gpu)]
fn user_mask_hides_a_node_like_the_pose_does() {
    let mut rig = Rig::new();
    let model = fixtures::skinned_pair();
    let pose = Pose::rest(&model);
    let mut view = render_support::unlit_front();
    framed(&mut view.camera, &model, &pose);
    let shown = rig.render_pose(&model, &pose, &view, SIZE);
    view.node_mask = vec![false, true];
    let masked = rig.render_pose(&model, &pose, &view, SIZE);
    let red = |img: &image::RgbaImage| img.pixels().filter(|p| p.0[0] > 100 && p.0[1] < 60).count();
    let white = |img: &image::RgbaImage| {
        img.pixels()
            .filter(|p| p.0.iter().all(|&c| c > 200))
            .count()
    };
    assert!(red(&shown) > 300 && red(&masked) == 0);
    assert_eq!(white(&shown), white(&masked));
}

/// Keeps a copy of an image for a person to look at (in the cargo target temp dir).
fn save_debug(name: &str, img: &image::RgbaImage) {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("overlays");
    let _ = std::fs::create_dir_all(&dir);
    let _ = img.save(dir.join(format!("{name}.png")));
}

/// The PIE fixture through the real loader: a body with two connectors and a shadow mesh
/// (a wide plate 40 units up) that differs from the body.
fn shadow_plate_pie() -> Model {
    let path = vitrine_test_needs::fixtures().join("pie/shadow_plate.pie");
    let m = vitrine_test_support::load_path(&path, &Default::default()).expect("fixture loads");
    assert_eq!(m.shadow_meshes.len(), 1);
    assert_eq!(m.connectors.len(), 2);
    m
}

#[vitrine_test(gpu)]
fn pie_shadow_mesh_casts_and_its_connectors_are_marked() {
    let mut rig = Rig::new();
    let model = shadow_plate_pie();
    let pose = Pose::rest(&model);
    let off = shadow_view(&model);
    let on = ViewSettings {
        shadows: true,
        ..off.clone()
    };
    let plain = rig.render_pose(&model, &pose, &off, SIZE);
    let lit = rig.render_pose(&model, &pose, &on, SIZE);
    save_debug("pie-shadow-plate", &lit);
    let casters = shadow_casters(&model, &pose, &[]);
    assert_eq!(
        casters.len(),
        2,
        "the plate's two triangles cast, not the body's 12"
    );
    let (agree, disagree, cpu, _) = compare_with_cpu(&plain, &lit, &on.camera, 0.0, &casters);
    assert!(cpu > 40, "the plate's shadow covers only {cpu} samples");
    assert!(
        disagree * 50 <= agree,
        "{disagree} of {} samples disagree with the plate's shadow",
        agree + disagree
    );
    // Connector markers at the loader's model-space positions.
    let marked = ViewSettings {
        overlays: only(OverlayKind::Connectors),
        ..off.clone()
    };
    let img = rig.render_pose(&model, &pose, &marked, SIZE);
    for c in &model.connectors {
        let want = off
            .camera
            .project(
                pose.world[c.node].transform_point3(c.position),
                SIZE as f32,
                SIZE as f32,
            )
            .unwrap();
        let centre = img.get_pixel(want.x as u32, want.y as u32).0;
        assert!(
            centre[..3]
                .iter()
                .zip(&colours::CONNECTOR[..3])
                .all(|(a, b)| a.abs_diff(*b) <= 40),
            "no marker at {want}: {centre:?}"
        );
    }
}
