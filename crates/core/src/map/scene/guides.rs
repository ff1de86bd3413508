//! The map's guides, lines the renderer draws over the scene (see [`Guide`]), each layer
//! under a node of its own so a viewer shows or hides it like any layer: the tile grid
//! ([`Layer::Grid`]), the structures' footprints ([`Layer::Footprints`]), the gateways
//! ([`Layer::Gateways`]) and each player's start position ([`Layer::StartPositions`],
//! from [`crate::map::start_positions`]). Lines along tile edges run through every
//! corner at its drawn height, so they lie on the ground the terrain mesh draws (a tile's
//! edges are edges of its triangles).

use super::terrain::{drawn_height, model_point};
use super::{Layer, Layers};
use crate::map::{Map, ObjectKind, Placement, StartPosition, TILE_UNITS, Terrain};
use crate::model::{Guide, Model, Node, NodeKind};

/// Grid lines: a faint white.
pub const GRID: [u8; 4] = [255, 255, 255, 70];
/// Structure footprints: amber.
pub const FOOTPRINT: [u8; 4] = [255, 200, 40, 230];
/// Gateways: cyan.
pub const GATEWAY: [u8; 4] = [40, 220, 255, 255];
/// Start positions: magenta.
pub const START: [u8; 4] = [255, 60, 210, 255];
/// How high a start position's pole stands over the ground, world units (a tile).
pub const START_POLE: f32 = 128.0;

/// Adds the guides of `map` as `placement` placed it over the drawn `ground`, with the
/// players' `starts`.
pub(super) fn add_guides(
    model: &mut Model,
    map: &Map,
    placement: &Placement,
    ground: &Terrain,
    starts: &[StartPosition],
    layers: &mut Layers,
) {
    let grid = grid(ground);
    add_layer(model, layers, Layer::Grid, grid);
    let footprints = placement
        .objects
        .iter()
        .filter(|p| p.object.kind == ObjectKind::Structure)
        .map(|p| {
            let (w, b) = (p.size.0.max(1), p.size.1.max(1));
            let x0 = (p.object.x - w * TILE_UNITS / 2).div_euclid(TILE_UNITS);
            let y0 = (p.object.y - b * TILE_UNITS / 2).div_euclid(TILE_UNITS);
            outline(ground, (x0, y0), (x0 + w, y0 + b))
        })
        .map(|points| Guide::line(0, points, FOOTPRINT, 1.5).closed())
        .collect();
    add_layer(model, layers, Layer::Footprints, footprints);
    let gateways = map
        .terrain
        .gateways
        .iter()
        .map(|g| {
            let (x0, x1) = (g.from.0.min(g.to.0), g.from.0.max(g.to.0));
            let (y0, y1) = (g.from.1.min(g.to.1), g.from.1.max(g.to.1));
            let (x0, y0, x1, y1) = (x0 as i32, y0 as i32, x1 as i32 + 1, y1 as i32 + 1);
            Guide::line(0, outline(ground, (x0, y0), (x1, y1)), GATEWAY, 2.5).closed()
        })
        .collect();
    add_layer(model, layers, Layer::Gateways, gateways);
    let starts = starts
        .iter()
        .flat_map(|s| start_marker(ground, s))
        .collect();
    add_layer(model, layers, Layer::StartPositions, starts);
}

/// Puts `guides` under a new top node of `layer` (none when there are none).
fn add_layer(model: &mut Model, layers: &mut Layers, layer: Layer, guides: Vec<Guide>) {
    if guides.is_empty() {
        return;
    }
    let node = model.nodes.len();
    let mut group = Node::new(layer.name().to_lowercase(), None, NodeKind::Group);
    group.hidden = !layer.shown_at_first();
    model.nodes.push(group);
    layers.push(layer, node);
    model
        .guides
        .extend(guides.into_iter().map(|g| Guide { node, ..g }));
}

/// The model point of corner (i, j) at its drawn height (corners off the map clamped
/// onto it).
fn corner(ground: &Terrain, i: i32, j: i32) -> glam::Vec3 {
    let i = i.clamp(0, ground.width as i32);
    let j = j.clamp(0, ground.height as i32);
    let h = drawn_height(ground, i, j);
    model_point((i * TILE_UNITS) as f32, (j * TILE_UNITS) as f32, h as f32)
}

/// One line per row and per column of corners, across the whole map.
fn grid(ground: &Terrain) -> Vec<Guide> {
    let (w, h) = (ground.width as i32, ground.height as i32);
    let rows = (0..=h).map(|j| (0..=w).map(|i| corner(ground, i, j)).collect());
    let columns = (0..=w).map(|i| (0..=h).map(|j| corner(ground, i, j)).collect());
    rows.chain(columns)
        .map(|points| Guide::line(0, points, GRID, 1.0))
        .collect()
}

/// The closed outline of the tiles from corner `from` to corner `to` (exclusive of the
/// tiles past `to`), through every corner on its edges.
fn outline(ground: &Terrain, from: (i32, i32), to: (i32, i32)) -> Vec<glam::Vec3> {
    let ((x0, y0), (x1, y1)) = (from, to);
    let mut ij: Vec<(i32, i32)> = Vec::new();
    ij.extend((x0..x1).map(|i| (i, y0)));
    ij.extend((y0..y1).map(|j| (x1, j)));
    ij.extend((x0 + 1..=x1).rev().map(|i| (i, y1)));
    ij.extend((y0 + 1..=y1).rev().map(|j| (x0, j)));
    ij.into_iter().map(|(i, j)| corner(ground, i, j)).collect()
}

/// A start position: the outline of its tile on the ground, and a pole standing from
/// its point with the player's number at the top.
fn start_marker(ground: &Terrain, s: &StartPosition) -> [Guide; 2] {
    let (tx, ty) = (s.x.div_euclid(TILE_UNITS), s.y.div_euclid(TILE_UNITS));
    let tile = Guide::line(0, outline(ground, (tx, ty), (tx + 1, ty + 1)), START, 2.5).closed();
    let base = model_point(s.x as f32, s.y as f32, ground_height(ground, s.x, s.y));
    let top = base + glam::Vec3::Y * START_POLE;
    let pole = Guide::line(0, vec![top, base], START, 2.5).labelled(s.player.to_string());
    [tile, pole]
}

/// The ground's height at world (x, y): the corners of its tile blended bilinearly
/// (close to the four triangles the game draws; the pole only needs to stand on it).
fn ground_height(ground: &Terrain, x: i32, y: i32) -> f32 {
    let (fx, fy) = (x as f32 / TILE_UNITS as f32, y as f32 / TILE_UNITS as f32);
    let (i, j) = (fx.floor() as i32, fy.floor() as i32);
    let (u, v) = (fx - i as f32, fy - j as f32);
    let h = |a: i32, b: i32| {
        drawn_height(
            ground,
            a.clamp(0, ground.width as i32),
            b.clamp(0, ground.height as i32),
        ) as f32
    };
    let top = h(i, j) * (1.0 - u) + h(i + 1, j) * u;
    let bottom = h(i, j + 1) * (1.0 - u) + h(i + 1, j + 1) * u;
    top * (1.0 - v) + bottom * v
}
