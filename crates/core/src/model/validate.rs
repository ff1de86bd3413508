//! The model's invariants, checked before anything draws it.

use super::Model;

fn finite(v: &[f32]) -> bool {
    v.iter().all(|x| x.is_finite())
}

pub(super) fn validate(m: &Model) -> Result<(), String> {
    let (nn, nm, nmat, ntex) = (
        m.nodes.len(),
        m.meshes.len(),
        m.materials.len(),
        m.textures.len(),
    );
    for (i, n) in m.nodes.iter().enumerate() {
        if let Some(p) = n.parent
            && p >= i
        {
            return Err(format!(
                "node {i} ({}) has parent {p}, which does not precede it",
                n.name
            ));
        }
        if n.mesh.is_some_and(|x| x >= nm) {
            return Err(format!("node {i} uses mesh {:?} of {nm}", n.mesh));
        }
        if !finite(&n.translation.to_array())
            || !finite(&n.rotation.to_array())
            || !finite(&n.scale.to_array())
        {
            return Err(format!("node {i} ({}) has a non-finite transform", n.name));
        }
    }
    for (i, mesh) in m.meshes.iter().enumerate() {
        if mesh.corners.len() % 3 != 0 {
            return Err(format!("mesh {i} has {} corners", mesh.corners.len()));
        }
        let np = mesh.points.len() as u32;
        if let Some(c) = mesh.corners.iter().find(|c| c.point >= np) {
            return Err(format!("mesh {i} uses point {} of {np}", c.point));
        }
        if mesh.points.iter().any(|p| !p.is_finite()) {
            return Err(format!("mesh {i} has a non-finite point"));
        }
        let mut next = 0;
        for s in &mesh.submeshes {
            if s.first_triangle != next || s.material >= nmat {
                return Err(format!("mesh {i} has a bad submesh {s:?}"));
            }
            next += s.triangle_count;
        }
        if next as usize != mesh.triangle_count() {
            return Err(format!(
                "mesh {i}: submeshes cover {next} of {} triangles",
                mesh.triangle_count()
            ));
        }
        per_point(
            i,
            &mesh.point_alpha,
            mesh.points.len(),
            ("point opacities", "point opacity"),
        )?;
        per_point(
            i,
            &mesh.point_light,
            mesh.points.len(),
            ("point lights", "point light"),
        )?;
        if let Some(s) = mesh.skin {
            let Some(skin) = m.skins.get(s) else {
                return Err(format!("mesh {i} uses skin {s}"));
            };
            if mesh.influences.len() != mesh.points.len() {
                return Err(format!("mesh {i}: influences do not match points"));
            }
            let nj = skin.joints.len() as u16;
            if mesh.influences.iter().any(|inf| {
                inf.joints
                    .iter()
                    .zip(inf.weights)
                    .any(|(&j, w)| w > 0.0 && j >= nj)
            }) {
                return Err(format!("mesh {i} has a joint index past {nj}"));
            }
        }
    }
    for (i, mat) in m.materials.iter().enumerate() {
        for t in [
            mat.base,
            mat.tcmask,
            mat.normal,
            mat.specular,
            mat.opacity,
            mat.bump,
            mat.shade,
        ]
        .into_iter()
        .flatten()
        {
            if t >= ntex {
                return Err(format!("material {i} uses texture {t} of {ntex}"));
            }
        }
    }
    if let Some(sky) = &m.environment.sky {
        let np = sky.mesh.points.len() as u32;
        if sky.texture >= ntex || sky.mesh.corners.iter().any(|c| c.point >= np) {
            return Err("the sky's texture or corners are out of range".into());
        }
        if sky.mesh.corners.len() % 3 != 0 || !finite(&sky.scale) || !sky.lift.is_finite() {
            return Err("the sky's mesh or size is malformed".into());
        }
    }
    for (i, skin) in m.skins.iter().enumerate() {
        if skin.joints.len() != skin.inverse_bind.len() || skin.joints.iter().any(|&j| j >= nn) {
            return Err(format!("skin {i} is inconsistent"));
        }
    }
    for clip in &m.clips {
        let bad_node = clip.node_tracks.iter().map(|t| t.node).any(|x| x >= nn)
            || clip.visibility.iter().map(|t| t.node).any(|x| x >= nn);
        let bad_mesh = clip.texture_frames.iter().any(|t| t.mesh >= nm);
        if bad_node || bad_mesh {
            return Err(format!(
                "clip {} refers to a missing node or mesh",
                clip.name
            ));
        }
        for t in &clip.node_tracks {
            let sorted = |times: &[f32]| times.windows(2).all(|w| w[0] <= w[1]);
            let ok = t.translation.as_ref().is_none_or(|k| {
                !k.times.is_empty() && k.times.len() == k.values.len() && sorted(&k.times)
            }) && t.rotation.as_ref().is_none_or(|k| {
                !k.times.is_empty() && k.times.len() == k.values.len() && sorted(&k.times)
            }) && t.scale.as_ref().is_none_or(|k| {
                !k.times.is_empty() && k.times.len() == k.values.len() && sorted(&k.times)
            });
            let finite_keys = t
                .translation
                .as_ref()
                .is_none_or(|k| k.values.iter().all(|v| v.is_finite()))
                && t.rotation
                    .as_ref()
                    .is_none_or(|k| k.values.iter().all(|v| v.is_finite()))
                && t.scale
                    .as_ref()
                    .is_none_or(|k| k.values.iter().all(|v| v.is_finite()));
            if !ok || !finite_keys || t.period.is_some_and(|p| !p.is_finite()) {
                return Err(format!(
                    "clip {}: a track of node {} is malformed",
                    clip.name, t.node
                ));
            }
        }
    }
    for c in &m.connectors {
        if c.node >= nn {
            return Err(format!("connector on missing node {}", c.node));
        }
    }
    for s in &m.shadow_meshes {
        let np = s.points.len() as u32;
        if s.node >= nn || s.triangles.iter().flatten().any(|&i| i >= np) {
            return Err("shadow mesh out of range".into());
        }
    }
    for (i, g) in m.guides.iter().enumerate() {
        if g.node >= nn {
            return Err(format!("guide {i} on missing node {}", g.node));
        }
        if g.points.iter().any(|p| !finite(&p.to_array())) || !g.width.is_finite() {
            return Err(format!("guide {i} has a non-finite point or width"));
        }
    }
    Ok(())
}

/// Mesh `i`'s per-point values (opacities, lights): none, or one per point, each 0–1;
/// `names` plural and singular for the message.
fn per_point(i: usize, values: &[f32], points: usize, names: (&str, &str)) -> Result<(), String> {
    if !values.is_empty() && values.len() != points {
        return Err(format!(
            "mesh {i}: {} {} for {points} points",
            values.len(),
            names.0
        ));
    }
    if values.iter().any(|a| !(0.0..=1.0).contains(a)) {
        return Err(format!("mesh {i}: a {} outside 0–1", names.1));
    }
    Ok(())
}
