//! Composition: one model built from several part models, each hung under a node of the
//! whole at a rest transform.
//!
//! [`attach`] copies a part's nodes, meshes, materials, textures, skins, connectors,
//! event models, shadow meshes and collision boxes into the target with every index
//! shifted ([`attach_again`] adds another copy of a part attached before: new nodes
//! drawing the same meshes), puts the part's root nodes under a new group node named after the part
//! (`weapon 1: gnlmg1.pie`), and merges its clips onto the target's timeline (clips with
//! the same name become one clip, so every part's animation plays together). Nothing
//! here knows any game: which part goes where is the caller's business.

use super::{Clip, Diagnostic, Model, Node, NodeKind};
use glam::Mat4;

/// Hangs `part` under `parent` (a node of `target`, or the top when `None`) at the rest
/// transform `local`, and returns the index of the new group node that holds it.
///
/// The group node is named `group`; the part's root nodes are renamed `label` (a part
/// with one root node) or `label · <their name>`, so hovering and picking name the part
/// (`weapon 1: gnlmg1.pie`). The part's diagnostics are kept, prefixed with `label`.
pub(crate) fn attach(
    target: &mut Model,
    parent: Option<usize>,
    group: &str,
    label: &str,
    local: Mat4,
    part: &Model,
) -> usize {
    let group = add_group(target, parent, group, local);
    let node0 = target.nodes.len();
    let mesh0 = target.meshes.len();
    let mat0 = target.materials.len();
    let tex0 = target.textures.len();
    let skin0 = target.skins.len();
    add_nodes(target, group, label, part, mesh0);
    for m in &part.meshes {
        let mut m = m.clone();
        for s in &mut m.submeshes {
            s.material += mat0;
        }
        m.skin = m.skin.map(|s| s + skin0);
        target.meshes.push(m);
    }
    for mat in &part.materials {
        let mut mat = mat.clone();
        for t in [
            &mut mat.base,
            &mut mat.tcmask,
            &mut mat.normal,
            &mut mat.specular,
            &mut mat.opacity,
            &mut mat.bump,
            &mut mat.shade,
        ] {
            *t = t.map(|i| i + tex0);
        }
        target.materials.push(mat);
    }
    target.textures.extend(part.textures.iter().cloned());
    for s in &part.skins {
        let mut s = s.clone();
        for j in &mut s.joints {
            *j += node0;
        }
        target.skins.push(s);
    }
    target.events.extend(part.events.iter().cloned());
    add_node_data(target, part, node0, Some(mesh0));
    for d in &part.diagnostics {
        target.diagnostics.push(Diagnostic {
            location: d.location,
            message: format!("{label}: {}", d.message),
            rule: d.rule,
        });
    }
    group
}

/// [`attach`] of a part whose meshes an earlier [`attach`] put at `mesh0` of `target`:
/// the new copy's nodes draw those meshes (with their materials and textures), and only
/// what hangs on nodes is added — the nodes, connectors, shadow meshes, guides,
/// collision boxes and its clips' node tracks. A map's thousand trees are one mesh.
/// Returns the group node, as [`attach`] does; `None` for a part with skins (its joints
/// are its own nodes: attach it whole).
pub(crate) fn attach_again(
    target: &mut Model,
    parent: Option<usize>,
    (group, label): (&str, &str),
    local: Mat4,
    part: &Model,
    mesh0: usize,
) -> Option<usize> {
    if !part.skins.is_empty() || mesh0 + part.meshes.len() > target.meshes.len() {
        return None;
    }
    let group = add_group(target, parent, group, local);
    let node0 = target.nodes.len();
    add_nodes(target, group, label, part, mesh0);
    add_node_data(target, part, node0, None);
    Some(group)
}

/// The group node a part hangs under.
fn add_group(target: &mut Model, parent: Option<usize>, name: &str, local: Mat4) -> usize {
    let (scale, rotation, translation) = local.to_scale_rotation_translation();
    let group = target.nodes.len();
    let mut g = Node::new(name, parent.filter(|&p| p < group), NodeKind::Group);
    g.translation = translation;
    g.rotation = rotation;
    g.scale = scale;
    target.nodes.push(g);
    group
}

/// `part`'s nodes under `group`, their meshes at `mesh0` on.
fn add_nodes(target: &mut Model, group: usize, label: &str, part: &Model, mesh0: usize) {
    let node0 = target.nodes.len();
    let roots = part.nodes.iter().filter(|n| n.parent.is_none()).count();
    for n in &part.nodes {
        let mut n = n.clone();
        match n.parent {
            Some(p) => n.parent = Some(p + node0),
            None => {
                n.parent = Some(group);
                n.name = if roots == 1 {
                    label.to_string()
                } else {
                    format!("{label} · {}", n.name)
                };
            }
        }
        n.mesh = n.mesh.map(|m| m + mesh0);
        target.nodes.push(n);
    }
}

/// What hangs on `part`'s nodes, now at `node0` of `target`: connectors, shadow meshes,
/// guides, collision boxes, and its clips merged onto the target's timeline (their
/// texture frames, which animate meshes, only where the meshes are new at `mesh0`).
fn add_node_data(target: &mut Model, part: &Model, node0: usize, mesh0: Option<usize>) {
    for c in &part.connectors {
        let mut c = c.clone();
        c.node += node0;
        target.connectors.push(c);
    }
    for s in &part.shadow_meshes {
        let mut s = s.clone();
        s.node += node0;
        target.shadow_meshes.push(s);
    }
    for g in &part.guides {
        let mut g = g.clone();
        g.node += node0;
        target.guides.push(g);
    }
    for b in &part.collision_boxes {
        let mut b = b.clone();
        b.node = b.node.map(|n| n + node0);
        target.collision_boxes.push(b);
    }
    for clip in &part.clips {
        let mut shifted = shift_clip(clip, node0, mesh0.unwrap_or(0));
        if mesh0.is_none() {
            shifted.texture_frames.clear();
        }
        match target.clips.iter_mut().find(|c| c.name == clip.name) {
            Some(c) => merge_clip(c, shifted),
            None => target.clips.push(shifted),
        }
    }
}

fn shift_clip(clip: &Clip, node0: usize, mesh0: usize) -> Clip {
    let mut c = clip.clone();
    for t in &mut c.node_tracks {
        t.node += node0;
    }
    for v in &mut c.visibility {
        v.node += node0;
    }
    for t in &mut c.texture_frames {
        t.mesh += mesh0;
    }
    c
}

/// Puts `add` on `into`'s timeline: the tracks keep their times in seconds; the merged
/// clip lasts as long as the longer of the two and loops if either does.
fn merge_clip(into: &mut Clip, add: Clip) {
    let duration = into.duration().max(add.duration());
    if into.fps <= 0.0 {
        into.fps = add.fps;
    }
    into.frame_count = (duration * into.fps).round().max(1.0) as u32;
    into.looping |= add.looping;
    let scale = if add.fps > 0.0 && into.fps > 0.0 {
        into.fps / add.fps
    } else {
        1.0
    };
    let frame = |f: u32| (f as f32 * scale).round() as u32;
    into.node_tracks.extend(add.node_tracks);
    into.visibility.extend(add.visibility);
    into.texture_frames.extend(add.texture_frames);
    into.events.extend(add.events.into_iter().map(|mut e| {
        e.frame = frame(e.frame);
        e
    }));
    into.keyframes.extend(add.keyframes.into_iter().map(frame));
    into.keyframes.sort_unstable();
    into.keyframes.dedup();
    into.motions.extend(add.motions);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Connector, Corner, Format, Material, Mesh, NodeTrack, Submesh, Track};
    use glam::{Quat, Vec2, Vec3};

    fn part(name: &str, clip_len: u32) -> Model {
        let mut m = Model::new(Format::Pie, "3");
        m.materials.push(Material::new("m", [1.0; 4]));
        m.meshes.push(Mesh {
            name: name.into(),
            points: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            corners: (0..3).map(|i| Corner::new(i, Vec2::ZERO)).collect(),
            submeshes: vec![Submesh {
                first_triangle: 0,
                triangle_count: 1,
                material: 0,
            }],
            ..Mesh::default()
        });
        let mut n = Node::new("level 1", None, NodeKind::Level);
        n.mesh = Some(0);
        m.nodes.push(n);
        m.connectors.push(Connector {
            node: 0,
            raw: [0.0, 0.0, 10.0],
            position: Vec3::new(0.0, 10.0, 0.0),
        });
        let mut clip = Clip::new("levels", 10.0, clip_len, true);
        let mut t = NodeTrack::new(0);
        t.rotation = Some(Track::new(
            vec![(0.0, Quat::IDENTITY), (0.1, Quat::from_rotation_y(1.0))],
            Default::default(),
        ));
        clip.node_tracks.push(t);
        m.clips.push(clip);
        m
    }

    #[test]
    fn attached_part_sits_at_its_transform_with_indices_shifted() {
        let mut whole = Model::new(Format::Pie, "assembly");
        let body = attach(
            &mut whole,
            None,
            "body",
            "body: b.pie",
            Mat4::IDENTITY,
            &part("b", 4),
        );
        let at = Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0));
        let gun = attach(
            &mut whole,
            Some(body),
            "weapon 1",
            "weapon 1: g.pie",
            at,
            &part("g", 8),
        );
        whole.validate().unwrap();
        assert_eq!(whole.nodes.len(), 4);
        assert_eq!(whole.nodes[gun].name, "weapon 1");
        assert_eq!(whole.nodes[gun + 1].name, "weapon 1: g.pie");
        assert_eq!(whole.nodes[gun + 1].parent, Some(gun));
        assert_eq!(whole.nodes[gun].parent, Some(body));
        assert_eq!(whole.nodes[gun + 1].mesh, Some(1));
        assert_eq!(whole.meshes[1].submeshes[0].material, 1);
        assert_eq!(whole.connectors[1].node, gun + 1);
        let pose = crate::model::Pose::rest(&whole);
        let p = pose.world[gun + 1].transform_point3(Vec3::ZERO);
        assert!(p.abs_diff_eq(Vec3::new(1.0, 2.0, 3.0), 1e-6));
        // One timeline: both parts' tracks in one clip, as long as the longer.
        assert_eq!(whole.clips.len(), 1);
        assert_eq!(whole.clips[0].node_tracks.len(), 2);
        assert_eq!(whole.clips[0].node_tracks[1].node, gun + 1);
        assert_eq!(whole.clips[0].frame_count, 8);
    }

    #[test]
    fn a_part_attached_again_shares_its_meshes() {
        let mut whole = Model::new(Format::Pie, "map");
        let p = part("tree", 4);
        let mesh0 = whole.meshes.len();
        let first = attach(&mut whole, None, "tree 1", "t", Mat4::IDENTITY, &p);
        let at = Mat4::from_translation(Vec3::new(5.0, 0.0, 0.0));
        let again = attach_again(&mut whole, None, ("tree 2", "t"), at, &p, mesh0).unwrap();
        whole.validate().unwrap();
        // One mesh, one material; two copies of the nodes drawing it.
        assert_eq!((whole.meshes.len(), whole.materials.len()), (1, 1));
        assert_eq!(whole.nodes.len(), 4);
        assert_eq!(whole.nodes[first + 1].mesh, Some(0));
        assert_eq!(whole.nodes[again + 1].mesh, Some(0));
        assert_eq!(whole.nodes[again + 1].parent, Some(again));
        assert_eq!(whole.connectors[1].node, again + 1);
        // Each copy's node track; the shared mesh's texture frames once.
        assert_eq!(whole.clips[0].node_tracks.len(), 2);
        assert_eq!(whole.clips[0].node_tracks[1].node, again + 1);
        let pose = crate::model::Pose::rest(&whole);
        let o = pose.world[again + 1].transform_point3(Vec3::ZERO);
        assert!(o.abs_diff_eq(Vec3::new(5.0, 0.0, 0.0), 1e-6));
        // A part with skins is attached whole.
        let mut skinned = part("s", 1);
        skinned.skins.push(crate::model::Skin::default());
        assert!(attach_again(&mut whole, None, ("x", "x"), at, &skinned, mesh0).is_none());
    }
}
