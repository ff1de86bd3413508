//! Draws as the GPU is asked for them: repeats of one geometry with one material drawn
//! together, up to [`INSTANCES`] per call (instanced: the shader reads each instance's
//! transform from an array of draw uniforms), and the draw uniforms laid out in buffers
//! no larger than the device allows.
//!
//! A model draws each of its nodes' meshes; a map's thousand trees are one mesh drawn a
//! thousand times. Drawn one call each, a CPU rasteriser such as Mesa's lavapipe keeps
//! state for every call until the frame is done (about 20 KB a call), and the calls
//! themselves cost more than the triangles; drawn 64 to a call they cost a sixty-fourth.
//! Which draws go together is a property of the draw list, never of the file format:
//! the same geometry (mesh and submesh), the same material, no skin (a skinned draw has
//! its own joints), a material that writes depth (opaque, alpha-tested, or alpha-blended
//! as Warzone 2100 draws its models, discarding what is transparent) and not a layer of
//! a surface (the order of a surface's layers, of glows and of water is the picture).
//! Repeats are gathered at their first's place in the list, so a model whose draws do
//! not repeat is drawn in its own order, one draw a call, as before; the game draws the
//! copies of one model together too (instanced, 4.x).
//!
//! The uniforms: each run's block of `count` [`DrawUniform`](crate::uniforms::DrawUniform)s
//! starts at a multiple of the device's uniform offset alignment; blocks fill a buffer up
//! to [`chunk_limit`], then the next buffer begins (its own bind group), so a map with
//! the most objects the game allows needs several buffers on a device with small limits
//! and never one larger than the device takes.

use crate::gpu_model::DrawItem;
use std::collections::HashMap;

/// Draws per instanced call: the length of the shader's `draws` array (`scene.wgsl`,
/// `INSTANCES`), 64 × 112 bytes = 7 KiB, within the 16 KiB uniform binding every
/// device (WebGL2 too) takes.
pub(crate) const INSTANCES: u32 = 64;

/// Bytes of a uniform buffer at most, whatever the device allows: the frame's uniforms
/// are written through a copy of one buffer's bytes.
const MAX_CHUNK: u64 = 32 << 20;

/// One instanced call: draws `first .. first + count` of the list (all of one geometry
/// and material), their uniforms at `offset` of uniform buffer `chunk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Run {
    /// First draw in the list.
    pub first: u32,
    /// Draws (instances), 1 to [`INSTANCES`].
    pub count: u32,
    /// The uniform buffer.
    pub chunk: u32,
    /// Byte offset of the run's block in it (a multiple of the offset alignment).
    pub offset: u32,
}

/// The bytes of each uniform buffer: the device's `max_buffer_size`, at most
/// [`MAX_CHUNK`], or `cap` where the caller asks for less.
pub(crate) fn chunk_limit(device_max: u64, cap: Option<u64>) -> u64 {
    device_max.min(MAX_CHUNK).min(cap.unwrap_or(u64::MAX))
}

/// What makes two draws one call's instances, where a draw can be one (see the
/// module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    chunk: u32,
    first_index: u32,
    index_count: u32,
    material: usize,
}

fn key(d: &DrawItem, groupable: &impl Fn(&DrawItem) -> bool) -> Option<Key> {
    (d.skin.is_none() && !d.surface && groupable(d)).then_some(Key {
        chunk: d.chunk,
        first_index: d.first_index,
        index_count: d.index_count,
        material: d.material,
    })
}

/// `draws` with every repeat gathered at its first's place (`groupable`: the draw's
/// material writes depth). Linear: one pass to group, one to emit.
pub(crate) fn gather(draws: Vec<DrawItem>, groupable: impl Fn(&DrawItem) -> bool) -> Vec<DrawItem> {
    let mut groups: HashMap<Key, Vec<DrawItem>> = HashMap::new();
    for d in &draws {
        if let Some(k) = key(d, &groupable) {
            groups.entry(k).or_default().push(*d);
        }
    }
    if groups.values().all(|g| g.len() == 1) {
        return draws;
    }
    let mut out = Vec::with_capacity(draws.len());
    for d in draws {
        match key(&d, &groupable) {
            // The group goes out whole at its first draw; its later draws are in it.
            Some(k) => out.extend(groups.remove(&k).unwrap_or_default()),
            None => out.push(d),
        }
    }
    out
}

/// The calls drawing `draws` (after [`gather`]) and the bytes of each uniform buffer
/// they need: `draw_size` bytes a draw, blocks aligned to `align`, each buffer at most
/// `limit` bytes (at least one block of [`INSTANCES`]).
pub(crate) fn runs(
    draws: &[DrawItem],
    groupable: impl Fn(&DrawItem) -> bool,
    (draw_size, align, limit): (u64, u64, u64),
) -> (Vec<Run>, Vec<u64>) {
    let binding = draw_size * u64::from(INSTANCES);
    let mut runs: Vec<Run> = Vec::new();
    let mut sizes: Vec<u64> = Vec::new();
    let mut at = 0u64;
    let mut i = 0usize;
    while i < draws.len() {
        let k = key(&draws[i], &groupable);
        let mut count = 1;
        while count < INSTANCES as usize
            && k.is_some()
            && draws.get(i + count).and_then(|d| key(d, &groupable)) == k
        {
            count += 1;
        }
        // The binding reads a whole array from the block's start: it must fit too.
        if sizes.is_empty() || at + binding > limit.max(binding) {
            if let Some(last) = sizes.last_mut() {
                *last = (*last).max(at);
            }
            sizes.push(0);
            at = 0;
        }
        let chunk = sizes.len() as u32 - 1;
        runs.push(Run {
            first: i as u32,
            count: count as u32,
            chunk,
            offset: at as u32,
        });
        if let Some(last) = sizes.last_mut() {
            *last = at + binding;
        }
        at = (at + draw_size * count as u64).div_ceil(align) * align;
        i += count;
    }
    (runs, sizes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(node: usize, mesh: usize, material: usize) -> DrawItem {
        DrawItem {
            node,
            mesh,
            chunk: 0,
            first_index: mesh as u32 * 30,
            index_count: 30,
            material,
            skin: None,
            surface: false,
        }
    }

    #[test]
    fn repeats_gather_at_their_first_and_the_rest_keep_their_order() {
        // A map's objects: body (mesh 0) and wheels (mesh 1) each, a surface first, a
        // blended draw (material 9) between them.
        let mut surface = draw(0, 5, 5);
        surface.surface = true;
        let draws = vec![
            surface,
            draw(1, 0, 0),
            draw(2, 1, 1),
            draw(3, 0, 0),
            draw(4, 7, 9),
            draw(5, 1, 1),
            draw(6, 0, 0),
        ];
        let opaque = |d: &DrawItem| d.material != 9;
        let nodes: Vec<usize> = gather(draws.clone(), opaque)
            .iter()
            .map(|d| d.node)
            .collect();
        assert_eq!(nodes, [0, 1, 3, 6, 2, 5, 4]);
        // Nothing repeats: the list as it was.
        let single = vec![draw(1, 0, 0), draw(2, 1, 1), draw(3, 2, 0)];
        let same: Vec<usize> = gather(single, opaque).iter().map(|d| d.node).collect();
        assert_eq!(same, [1, 2, 3]);
    }

    #[test]
    fn runs_hold_at_most_the_instances_and_buffers_their_limit() {
        let draws: Vec<DrawItem> = (0..200).map(|n| draw(n, 0, 0)).collect();
        let binding = 176 * u64::from(INSTANCES);
        let (runs, sizes) = runs(&draws, |_| true, (176, 256, 1 << 20));
        assert_eq!(
            runs.iter().map(|r| r.count).collect::<Vec<_>>(),
            [64, 64, 64, 8]
        );
        assert_eq!(sizes.len(), 1);
        assert!(runs.iter().all(|r| r.offset % 256 == 0));
        // Each run's block is after the one before.
        assert_eq!(runs[1].offset as u64, (64 * 176u64).div_ceil(256) * 256);
        assert!(sizes[0] >= u64::from(runs[3].offset) + binding);
        // A limit of two blocks: a buffer per two runs, none past the limit.
        let limit = 2 * binding;
        let (small, sizes) = super::runs(&draws, |_| true, (176, 256, limit));
        assert_eq!(sizes.len(), 2);
        assert!(sizes.iter().all(|&s| s <= limit), "{sizes:?}");
        assert_eq!(
            small.iter().map(|r| r.chunk).collect::<Vec<_>>(),
            [0, 0, 1, 1]
        );
        assert!(
            small
                .iter()
                .all(|r| u64::from(r.offset) + binding <= sizes[r.chunk as usize])
        );
        // Draws that are not instances of one another: a call each.
        let skinned: Vec<DrawItem> = (0..3)
            .map(|n| DrawItem {
                skin: Some(0),
                ..draw(n, 0, 0)
            })
            .collect();
        let (one_each, _) = super::runs(&skinned, |_| true, (176, 256, 1 << 20));
        assert_eq!(one_each.len(), 3);
    }
}
