//! The terrain and water meshes as the game builds them (`initTerrain`,
//! `getTileTexCoords`, `flipRotateTexCoords` and `drawWater` in `src/terrain.cpp`; notes
//! §5):
//!
//! - corner (i, j), 0 ≤ i ≤ width, 0 ≤ j ≤ height, at the height of the ground after
//!   loading, except the outer ring (i or j = 0, i = width, j = height), which is at 0;
//! - each tile is four triangles fanned around a centre point at the mean of its four
//!   corners (the tile's triangle-flip bit is not used for drawing);
//! - the tile's classic image on it, its corners' UVs flipped in x, then in y, then
//!   turned a quarter at a time as the texture word says;
//! - water on every tile that is, or whose west, north or north-west neighbour is, of
//!   terrain type water, at the water level (the stored height less a third of a tile),
//!   with its two pages laid in world space (UV set 0 repeating every 4 tiles, set 1
//!   every 5; u runs south, v east, as the game's texture parameters give them).
//!
//! Points are in model space: world (x east, y south, z up) → `(−x, z, −y)` (the game's
//! render space is `(x, z, −y)` and PIE points are mirrored in x on load, so the map is
//! mirrored alike and every model sits on it as in the game).

use super::super::{TILE_UNITS, Terrain, bits};
use crate::model::{Corner, Mesh, Submesh};
use glam::{Vec2, Vec3};
use std::collections::BTreeMap;

/// Terrain type of water (`TER_WATER`).
pub(crate) const WATER: u16 = 7;

/// How far under the stored height the water stands (`TILE_UNITS / 3`).
pub const WATER_DEPTH: i32 = TILE_UNITS / 3;

/// Tiles one repeat of the first water page covers (UV set 0).
pub const WATER_REPEAT: f32 = 4.0;
/// Tiles one repeat of the second water page covers (UV set 1).
pub const WATER_SHADE_REPEAT: f32 = 5.0;

/// The model-space point of world (x east, y south, z up).
pub fn model_point(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(-x, z, -y)
}

/// The UVs of a tile's corners top-left, top-right, bottom-right, bottom-left for the
/// texture word `word`: unturned (0,0), (1,0), (1,1), (0,1); x-flip swaps left and right,
/// y-flip top and bottom, then each quarter turn takes (TL, TR, BR, BL) ← (BL, TL, TR, BR).
pub fn tile_uvs(word: u16) -> [Vec2; 4] {
    let mut uv = [
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
    ];
    if word & bits::XFLIP != 0 {
        uv.swap(0, 1);
        uv.swap(2, 3);
    }
    if word & bits::YFLIP != 0 {
        uv.swap(0, 3);
        uv.swap(1, 2);
    }
    for _ in 0..(word & bits::ROTATION) >> 12 {
        uv = [uv[3], uv[0], uv[1], uv[2]];
    }
    uv
}

/// The drawn height of corner (i, j): the ground's, 0 on the outer ring.
pub fn drawn_height(ground: &Terrain, i: i32, j: i32) -> i32 {
    let (w, h) = (ground.width as i32, ground.height as i32);
    if i <= 0 || j <= 0 || i >= w || j >= h {
        0
    } else {
        ground.corner(i, j)
    }
}

/// The corners of tile (x, y) in the order TL, TR, BR, BL, as (i, j).
fn tile_corners(x: i32, y: i32) -> [(i32, i32); 4] {
    [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
}

/// The four triangles of a tile around its centre `c` over its corners `k` (TL, TR, BR,
/// BL), each counter-clockwise seen from above in model space.
pub(crate) const FAN: [[usize; 2]; 4] = [[1, 0], [2, 1], [3, 2], [0, 3]];

/// Keeps UVs half a texel (of a 128-pixel tile) inside the image, so the repeating
/// sampler does not bleed the opposite edge in.
fn inset(uv: Vec2) -> Vec2 {
    Vec2::splat(0.5) + (uv - Vec2::splat(0.5)) * (1.0 - 1.0 / 128.0)
}

/// The terrain mesh of `ground` (the heights after loading: flattened, riverbed dug), one
/// submesh per tile number in increasing order; returns the mesh and the tile number of
/// each submesh (its material is its index). Points: the (w+1)·(h+1) corners at
/// `i + j·(w+1)`, then the w·h centres at `(w+1)·(h+1) + x + y·w`. Normals: per point,
/// the sum of the faces around it (what the game's per-vertex illumination sums).
pub fn terrain_mesh(ground: &Terrain) -> (Mesh, Vec<u16>) {
    layer_mesh(ground, "terrain", 0.0, |word| Some(word & bits::NUMBER))
}

/// How far under the ground the layer under decals is drawn, world units (enough for
/// the depth buffer to keep the decal on top, too little to see).
pub const UNDER_DECALS_DROP: f32 = 2.0;

/// The layer drawn under the decal tiles of `decals`: the same triangles as
/// [`terrain_mesh`], [`UNDER_DECALS_DROP`] lower, on decal tiles only, each with the
/// plain tile of its ground; `None` where no tile needs one.
pub fn under_decals_mesh(
    ground: &Terrain,
    decals: &super::decals::Decals,
) -> Option<(Mesh, Vec<u16>)> {
    let (mesh, tiles) = layer_mesh(ground, "under decals", -UNDER_DECALS_DROP, |word| {
        decals.under.get(&(word & bits::NUMBER)).copied().flatten()
    });
    (!tiles.is_empty()).then_some((mesh, tiles))
}

/// The decal tiles of `decals` alone, each with its own image (one submesh per tile
/// number, as [`terrain_mesh`]); `None` where the map has none.
pub fn decal_mesh(ground: &Terrain, decals: &super::decals::Decals) -> Option<(Mesh, Vec<u16>)> {
    let (mesh, tiles) = layer_mesh(ground, "decals", 0.0, |word| {
        let n = word & bits::NUMBER;
        decals.is_decal(n).then_some(n)
    });
    (!tiles.is_empty()).then_some((mesh, tiles))
}

/// One layer of the terrain: the tiles `image` gives a tile number to, at the drawn
/// heights plus `lift`.
fn layer_mesh(
    ground: &Terrain,
    name: &str,
    lift: f32,
    image: impl Fn(u16) -> Option<u16>,
) -> (Mesh, Vec<u16>) {
    let (w, h) = (ground.width as i32, ground.height as i32);
    let points = grid_points(ground, lift);
    let mut by_tile: BTreeMap<u16, Vec<Corner>> = BTreeMap::new();
    for y in 0..h {
        for x in 0..w {
            let word = ground.textures[x as usize + y as usize * w as usize];
            let (k, centre) = tile_points(ground, x, y);
            let Some(tile) = image(word) else {
                continue;
            };
            let uv = tile_uvs(word).map(inset);
            let corners = by_tile.entry(tile).or_default();
            for [a, b] in FAN {
                corners.push(Corner::new(centre, Vec2::splat(0.5)));
                corners.push(Corner::new(k[a], uv[a]));
                corners.push(Corner::new(k[b], uv[b]));
            }
        }
    }
    let mut mesh = Mesh {
        name: name.into(),
        points,
        uv_sets: 1,
        ..Mesh::default()
    };
    let mut tiles = Vec::with_capacity(by_tile.len());
    for (tile, corners) in by_tile {
        mesh.submeshes.push(Submesh {
            first_triangle: (mesh.corners.len() / 3) as u32,
            triangle_count: (corners.len() / 3) as u32,
            material: tiles.len(),
        });
        mesh.corners.extend(corners);
        tiles.push(tile);
    }
    smooth_normals(&mut mesh);
    (mesh, tiles)
}

/// The points of the terrain grid at the drawn heights plus `lift`: the (w+1)·(h+1)
/// corners at `i + j·(w+1)`, then the w·h tile centres (the mean of their four corners)
/// at `(w+1)·(h+1) + x + y·w`.
pub fn grid_points(ground: &Terrain, lift: f32) -> Vec<Vec3> {
    let (w, h) = (ground.width as i32, ground.height as i32);
    let stride = w as usize + 1;
    let mut points = Vec::with_capacity(stride * (h as usize + 1) + (w * h) as usize);
    for j in 0..=h {
        for i in 0..=w {
            let z = drawn_height(ground, i, j) as f32 + lift;
            points.push(model_point(
                (i * TILE_UNITS) as f32,
                (j * TILE_UNITS) as f32,
                z,
            ));
        }
    }
    for y in 0..h {
        for x in 0..w {
            let (k, _) = tile_points(ground, x, y);
            let mean = k.iter().fold(Vec3::ZERO, |s, &p| s + points[p as usize]) / 4.0;
            points.push(mean);
        }
    }
    points
}

/// The [`grid_points`] indices of tile (x, y)'s corners (TL, TR, BR, BL) and centre.
pub fn tile_points(ground: &Terrain, x: i32, y: i32) -> ([u32; 4], u32) {
    let (w, h) = (ground.width as usize, ground.height as usize);
    let stride = w + 1;
    let k = tile_corners(x, y).map(|(i, j)| (i as usize + j as usize * stride) as u32);
    let centre = stride * (h + 1) + x as usize + y as usize * w;
    (k, centre as u32)
}

/// Splits `mesh` in two by submesh: those `moved` says yes to go to a second mesh named
/// `name` (`None` where there are none), the rest stay. Both keep every point, so each
/// submesh's triangles are unchanged.
pub fn split_off(mesh: &mut Mesh, name: &str, moved: impl Fn(&Submesh) -> bool) -> Option<Mesh> {
    if !mesh.submeshes.iter().any(&moved) {
        return None;
    }
    let corners = std::mem::take(&mut mesh.corners);
    let submeshes = std::mem::take(&mut mesh.submeshes);
    let mut other = Mesh {
        name: name.into(),
        ..mesh.clone()
    };
    for s in &submeshes {
        let to = if moved(s) { &mut other } else { &mut *mesh };
        let first = s.first_triangle as usize * 3;
        let end = first + s.triangle_count as usize * 3;
        to.submeshes.push(Submesh {
            first_triangle: (to.corners.len() / 3) as u32,
            ..*s
        });
        to.corners.extend_from_slice(&corners[first..end]);
    }
    Some(other)
}

/// Gives every corner the normalised sum of the face normals at its point.
fn smooth_normals(mesh: &mut Mesh) {
    let mut sum = vec![Vec3::ZERO; mesh.points.len()];
    for t in 0..mesh.triangle_count() {
        let n = mesh.face_normal(t);
        for c in &mesh.corners[t * 3..t * 3 + 3] {
            sum[c.point as usize] += n;
        }
    }
    for c in &mut mesh.corners {
        c.normal = Some(sum[c.point as usize].normalize_or(Vec3::Y));
    }
}

/// Whether tile (x, y) is of terrain type water (off the map: no).
fn is_water(stored: &Terrain, types: &[u16], x: i32, y: i32) -> bool {
    stored
        .tile_number(x as u32, y as u32)
        .filter(|_| x >= 0 && y >= 0)
        .is_some_and(|n| types.get(usize::from(n)) == Some(&WATER))
}

/// The water mesh (`drawWater`): every tile that is, or whose west, north or north-west
/// neighbour is, water; each corner at the water level of `stored` (the heights before
/// the riverbed pass) less [`WATER_DEPTH`]; UVs in world space, (south, east) over
/// [`WATER_REPEAT`] tiles in set 0 and over [`WATER_SHADE_REPEAT`] in set 1. `None`
/// where the map has no water.
pub fn water_mesh(stored: &Terrain, types: &[u16]) -> Option<Mesh> {
    let (w, h) = (stored.width as i32, stored.height as i32);
    let mut mesh = Mesh {
        name: "water".into(),
        uv_sets: 2,
        ..Mesh::default()
    };
    for y in 0..h {
        for x in 0..w {
            let water = [(0, 0), (-1, 0), (0, -1), (-1, -1)]
                .iter()
                .any(|(dx, dy)| is_water(stored, types, x + dx, y + dy));
            if !water {
                continue;
            }
            let first = mesh.points.len() as u32;
            let corners = tile_corners(x, y);
            let mut level = 0.0;
            for (i, j) in corners {
                let z = (drawn_height(stored, i, j) - WATER_DEPTH) as f32;
                level += z / 4.0;
                let p = model_point((i * TILE_UNITS) as f32, (j * TILE_UNITS) as f32, z);
                mesh.points.push(p);
            }
            let centre = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let c = model_point(
                centre.x * TILE_UNITS as f32,
                centre.y * TILE_UNITS as f32,
                level,
            );
            mesh.points.push(c);
            let corner = |point: u32, south: f32, east: f32| {
                let at = Vec2::new(south, east);
                let mut c = Corner::new(point, at / WATER_REPEAT);
                c.uv[1] = at / WATER_SHADE_REPEAT;
                c
            };
            for [a, b] in FAN {
                let (ia, ja) = corners[a];
                let (ib, jb) = corners[b];
                mesh.corners.push(corner(first + 4, centre.y, centre.x));
                mesh.corners
                    .push(corner(first + a as u32, ja as f32, ia as f32));
                mesh.corners
                    .push(corner(first + b as u32, jb as f32, ib as f32));
            }
        }
    }
    if mesh.corners.is_empty() {
        return None;
    }
    for c in &mut mesh.corners {
        c.normal = Some(Vec3::Y);
    }
    mesh.submeshes.push(Submesh {
        first_triangle: 0,
        triangle_count: (mesh.corners.len() / 3) as u32,
        material: 0,
    });
    Some(mesh)
}
