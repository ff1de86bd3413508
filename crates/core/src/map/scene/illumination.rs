//! The terrain's light as Warzone 2100 bakes it when a level starts, and the lightmap it
//! becomes (notes §5, "Lighting"). The game does not light the ground by the sun when it
//! draws it: `terrain.frag` and `decals.frag` multiply every ground and decal fragment,
//! in the sRGB encoding, by a lightmap of one texel per tile corner (`updateLightMap` in
//! `src/terrain.cpp`), whose grey is the corner's tile *level*.
//!
//! - *Illumination* (`calcTileIllum`, `normalsOnTile` in `src/lighting.cpp`): the
//!   normals of the triangles around the corner (each tile's two-triangle split,
//!   following its triangle-flip bit; the tiles' heights, the riverbed dug), summed and normalised, dotted with the sun as the
//!   game passes it to this sum (its render-space direction with x and y negated, read
//!   in map axes: x east, y south, z up), scaled so a full dot is 256, times an ambient
//!   occlusion: over 8 directions, the steepest rise of the surface (`map_Height`: the
//!   ground and the water, so the water's level over a riverbed) seen
//!   from the corner within 8 steps of 100 units, each direction giving
//!   1 − rise/√(rise² + 1); the mean of the 8. Clamped to 1–254, truncated.
//! - `initLighting`: the tiles of the map's outer ring are 16; a tile within 4 of the
//!   level's scroll limits is divided by 3 (what a player cannot scroll to shows dark).
//! - *Level* (`avUpdateTiles` in `src/visibility.cpp`): the illumination where the
//!   player's side watches the tile, half of it where the tile is only explored, none
//!   where it is unexplored. Vitrine draws every tile as watched (what the game shows
//!   with a satellite uplink).
//!
//! The objects are not lit by the sun either: `tcmask.frag` gives a model without a
//! specular map (every model of 4.3.3's data) no diffuse light, only its texture times
//! twice the ambient (0.5, `pie_InitLighting`), and the object's brightness multiplies
//! that and its team colour ([`object_brightness`]).
//!
//! Computed on the ground after loading (structures' flattening, the riverbed dug): the
//! game bakes its light in `stageThreeInitialise`, after the objects are placed.

use super::super::{Map, ObjectKind, Placement, TILE_UNITS, Terrain, bits};
use glam::Vec3;

/// The game's default sun in its render space (x east, y up, z north):
/// `setTheSun` in `init3DView` (`src/display3d.cpp`).
pub const DEFAULT_SUN: Vec3 = Vec3::new(225.0, -600.0, 450.0);

/// The brightness, 0–1 in the sRGB encoding, the game draws an object of `kind` with
/// when its player's side sees it: a structure 200 (undamaged and not selected:
/// `structureBrightness` in `src/display3d.cpp`), a feature 200 (`renderFeature`), a
/// droid its illumination, 255 from its creation (`buildDroid`).
pub fn object_brightness(kind: ObjectKind) -> f32 {
    match kind {
        ObjectKind::Structure | ObjectKind::Feature => 200.0 / 255.0,
        ObjectKind::Droid => 1.0,
    }
}

/// The shadows the game draws with its setting *shadows* on (the default), as
/// [`crate::model::Shadows`] says them (`pie_DrawShadow`, `pie_ShadowDrawLoop`,
/// `pie_DrawShadows` in `lib/ivis_opengl/piedraw.cpp`): each caster's outline pulled
/// along the sun, [`DEFAULT_SUN`] (`drawTiles` hands `pie_BeginLighting` the sun in view
/// space, and `pie_Draw3DShape` takes it back into the shape's own space: in the world,
/// the sun's vector itself, 783 units long, 600 of them down), in model space (mirrored
/// in x); the screen filled black at alpha 128 of 255 where the stencil counts a volume.
pub fn shadows() -> crate::model::Shadows {
    crate::model::Shadows {
        light: [-DEFAULT_SUN.x, DEFAULT_SUN.y, DEFAULT_SUN.z],
        darkness: 128.0 / 255.0,
    }
}

/// Whether the game casts the shadow of an object of `kind` (a feature's `type` from
/// `features.json`, `feature_type`): every structure (`renderStructure` draws its model
/// with `pie_STATIC_SHADOW`, its turrets with `pie_SHADOW`; `renderWallSection` walls
/// and gates with `pie_SHADOW`, wall towers with `pie_STATIC_SHADOW`), every droid
/// (`displayComponentObject`: `pie_SHADOW`), and of the features only buildings,
/// skyscrapers and oil drums (`renderFeature`): not trees, boulders, wrecks or oil
/// resources.
pub fn casts_shadow(kind: ObjectKind, feature_type: Option<&str>) -> bool {
    match kind {
        ObjectKind::Structure | ObjectKind::Droid => true,
        ObjectKind::Feature => feature_type.is_some_and(|t| {
            ["BUILDING", "SKYSCRAPER", "OIL DRUM"]
                .iter()
                .any(|k| t.eq_ignore_ascii_case(k))
        }),
    }
}

/// Illumination of the tiles on the map's outer ring (`initLighting`).
const EDGE: u8 = 16;

/// The illumination (0–255) of every tile, at `x + y · width`, as the game bakes it for
/// `ground` (the heights after loading, the riverbed dug) and `surface` (the same with
/// the water's level over the riverbed: the heights the game's objects stand on) under
/// the sun `sun` (render space, as [`DEFAULT_SUN`]), the level's scroll limits `scroll`
/// ([`scroll_area`]).
pub fn illumination(ground: &Terrain, surface: &Terrain, sun: Vec3, scroll: [i32; 4]) -> Vec<u8> {
    let (w, h) = (ground.width as i32, ground.height as i32);
    // `theSun_ForTileIllumination`: the sun scaled to 4096 (FP12), x and y negated.
    let s = sun.normalize_or_zero() * 4096.0;
    let sun = Vec3::new(-s.x, -s.y, s.z);
    let [min_x, min_y, max_x, max_y] = scroll;
    let offsets = occlusion_offsets();
    let mut out = Vec::with_capacity((w.max(0) * h.max(0)) as usize);
    for j in 0..h {
        for i in 0..w {
            let mut v = if i == 0 || j == 0 || i >= w - 1 || j >= h - 1 {
                EDGE
            } else {
                tile_illumination((ground, surface), &offsets, sun, (i, j))
            };
            if i < min_x + 4 || i > max_x - 4 || j < min_y + 4 || j > max_y - 4 {
                v /= 3;
            }
            out.push(v);
        }
    }
    out
}

/// The scroll limits (min x, min y, max x, max y, in tiles) the game takes from a `.gam`'s
/// four values (`setMapScroll`): the whole map where the area is empty (an old `.gam`,
/// or none), else the `.gam`'s, its maxima cut to the map.
pub fn scroll_area(gam: Option<[i64; 4]>, width: u32, height: u32) -> [i32; 4] {
    let whole = [0, 0, width as i32, height as i32];
    let Some([x0, y0, x1, y1]) = gam else {
        return whole;
    };
    if x1 - x0 == 0 && y1 - y0 == 0 {
        return whole;
    }
    let cut = |v: i64, max: u32| v.clamp(i64::from(i32::MIN), i64::from(max)) as i32;
    [
        cut(x0, width),
        cut(y0, height),
        cut(x1, width),
        cut(y1, height),
    ]
}

/// `calcTileIllum` for an inner tile (i, j).
fn tile_illumination(
    (ground, surface): (&Terrain, &Terrain),
    offsets: &Offsets,
    sun: Vec3,
    (i, j): (i32, i32),
) -> u8 {
    let mut sum = Vec3::ZERO;
    for (quadrant, (x, y)) in [(i - 1, j - 1), (i, j - 1), (i, j), (i - 1, j)]
        .into_iter()
        .enumerate()
    {
        add_quadrant_normals(&mut sum, ground, x, y, quadrant);
    }
    let dot = sum.normalize_or_zero().dot(sun) / 16.0;
    let v = (dot * occlusion(surface, offsets, i, j)).abs() as i32;
    v.clamp(1, 254) as u8
}

/// `normalsOnTile`: adds to `sum`, in the game's order, the normals of the triangles of
/// tile (x, y) that touch the corner in `quadrant` (0: the tile is up-left of the
/// corner, 1 up-right, 2 down-right, 3 down-left), for the tile's split (its
/// triangle-flip bit).
fn add_quadrant_normals(sum: &mut Vec3, ground: &Terrain, x: i32, y: i32, quadrant: usize) {
    let c = |a: i32, b: i32| {
        Vec3::new(
            ((x + a) * TILE_UNITS) as f32,
            ((y + b) * TILE_UNITS) as f32,
            ground.corner(x + a, y + b) as f32,
        )
    };
    let (c00, c10, c01, c11) = (c(0, 0), c(1, 0), c(0, 1), c(1, 1));
    let word = ground
        .textures
        .get(x as usize + y as usize * ground.width as usize)
        .copied()
        .unwrap_or(0);
    let flipped = word & bits::TRIFLIP != 0;
    let n = |p1: Vec3, p2: Vec3, p3: Vec3| (p3 - p1).cross(p2 - p1).normalize_or_zero();
    let (first, second) = match (flipped, quadrant) {
        (false, 0 | 2) => (n(c00, c10, c11), Some(n(c00, c11, c01))),
        (false, 1) => (n(c00, c11, c01), None),
        (false, _) => (n(c00, c10, c11), None),
        (true, 0) => (n(c10, c11, c01), None),
        (true, 2) => (n(c00, c10, c01), None),
        (true, _) => (n(c00, c10, c01), Some(n(c10, c11, c01))),
    };
    *sum += first;
    if let Some(second) = second {
        *sum += second;
    }
}

/// How far the occlusion looks along each of its 8 directions (`I`, `H` = `I`·√½).
const AO_STEP: f32 = 100.0;

/// Per direction, the offsets of its 8 samples ([`occlusion_offsets`]).
type Offsets = [[(i32, i32); 8]; 8];

/// The 8 × 8 points the occlusion samples around a corner, as whole world units from
/// it: the game's `static_cast<int>(cx + dx·dist)` with `cx` a whole number of tiles is
/// `cx` plus the offset rounded down wherever the sum is not negative (where it is, the
/// game clamps it to 0 as clamping `cx` + this offset does); none of the offsets is
/// within 0.01 of a whole number, so `f32` rounds none of them across one.
fn occlusion_offsets() -> Offsets {
    let h = AO_STEP * std::f32::consts::FRAC_1_SQRT_2;
    let dx = [0.0, h, AO_STEP, h, 0.0, -h, -AO_STEP, -h];
    let dy = [AO_STEP, h, 0.0, -h, -AO_STEP, -h, 0.0, h];
    std::array::from_fn(|dir| {
        std::array::from_fn(|k| {
            let d = (k + 1) as f32;
            ((dx[dir] * d).floor() as i32, (dy[dir] * d).floor() as i32)
        })
    })
}

/// The ambient occlusion at corner (i, j) of `surface`: the mean over 8 directions of
/// 1 − t/√(t² + 1), t the steepest rise within 8 steps of 100 units.
fn occlusion(surface: &Terrain, offsets: &Offsets, i: i32, j: i32) -> f32 {
    let (cx, cy) = (i * TILE_UNITS, j * TILE_UNITS);
    let (max_x, max_y) = (
        surface.width as i32 * TILE_UNITS,
        surface.height as i32 * TILE_UNITS,
    );
    let at = |x: i32, y: i32| surface.height_at(x.clamp(0, max_x), y.clamp(0, max_y)) as f32;
    let here = at(cx, cy);
    let mut ao = 0.0;
    for steps in offsets {
        let mut steepest = 0.0f32;
        for (k, &(ox, oy)) in steps.iter().enumerate() {
            let rise = (at(cx + ox, cy + oy) - here) / (AO_STEP * (k + 1) as f32);
            steepest = steepest.max(rise);
        }
        ao += 1.0 - steepest / (steepest * steepest + 1.0).sqrt();
    }
    ao / 8.0
}

/// The light of every [`super::terrain::grid_points`] point, 0–1 in the sRGB encoding
/// (the lightmap's grey, [`crate::model::Mesh::point_light`]): corner (i, j) takes tile
/// (i, j)'s illumination (the last row and column, beyond the tiles, their neighbours'),
/// a tile's centre the mean of its four corners (what the lightmap's bilinear filter
/// gives there).
pub fn grid_light(ground: &Terrain, illumination: &[u8]) -> Vec<f32> {
    let (w, h) = (ground.width as usize, ground.height as usize);
    let texel = |i: usize, j: usize| -> f32 {
        let k = i.min(w.saturating_sub(1)) + j.min(h.saturating_sub(1)) * w;
        f32::from(illumination.get(k).copied().unwrap_or(0)) / 255.0
    };
    let mut light = Vec::with_capacity((w + 1) * (h + 1) + w * h);
    for j in 0..=h {
        for i in 0..=w {
            light.push(texel(i, j));
        }
    }
    for y in 0..h {
        for x in 0..w {
            let sum = texel(x, y) + texel(x + 1, y) + texel(x, y + 1) + texel(x + 1, y + 1);
            light.push(sum / 4.0);
        }
    }
    light
}

/// The light of every terrain grid point ([`grid_light`]) as the game bakes it for `map`
/// loaded as `placement` placed it, `ground` its heights with the riverbed dug: under
/// the default sun, within the `.gam`'s scroll limits.
pub(super) fn ground_light(map: &Map, placement: &Placement, ground: &Terrain) -> Vec<f32> {
    let scroll = scroll_area(map.scroll_limits, ground.width, ground.height);
    let tiles = illumination(ground, &placement.terrain, DEFAULT_SUN, scroll);
    grid_light(ground, &tiles)
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: u32 = 16;

    /// An N×N map whose corner (x, y) stands at `height(x, y)`, every tile unflipped.
    fn terrain(height: impl Fn(i32, i32) -> i32) -> Terrain {
        let heights = (0..(N * N) as i32)
            .map(|k| height(k % N as i32, k / N as i32))
            .collect();
        Terrain {
            width: N,
            height: N,
            heights,
            textures: vec![0; (N * N) as usize],
            gateways: Vec::new(),
            version: 40,
        }
    }

    fn lit(t: &Terrain) -> Vec<u8> {
        illumination(t, t, DEFAULT_SUN, scroll_area(None, N, N))
    }

    fn at(v: &[u8], x: u32, y: u32) -> u8 {
        v[(x + y * N) as usize]
    }

    #[test]
    fn flat_ground_is_the_suns_height_over_its_length_times_256() {
        let v = lit(&terrain(|_, _| 300));
        let want = (DEFAULT_SUN.z / DEFAULT_SUN.length() * 256.0) as u8;
        assert_eq!(at(&v, 8, 8), want);
        assert_eq!(want, 147, "the sun (225, −600, 450): 450/783.0 of 256");
    }

    #[test]
    fn the_edges_are_dark_and_the_four_tiles_inside_a_third() {
        let v = lit(&terrain(|_, _| 300));
        let inner = at(&v, 8, 8);
        // The outer ring: 16, within 4 of the scroll limits: a third of it.
        assert_eq!(at(&v, 0, 8), 16 / 3);
        assert_eq!(at(&v, N - 1, 8), 16 / 3);
        for x in [1, 2, 3, N - 3, N - 2] {
            assert_eq!(at(&v, x, 8), inner / 3, "tile ({x}, 8)");
        }
        for x in [4, N - 4] {
            assert_eq!(at(&v, x, 8), inner, "tile ({x}, 8)");
        }
    }

    #[test]
    fn the_scroll_limits_of_a_gam_darken_what_is_outside() {
        let t = terrain(|_, _| 300);
        let inner = at(&lit(&t), 8, 8);
        let v = illumination(&t, &t, DEFAULT_SUN, scroll_area(Some([6, 0, 16, 16]), N, N));
        assert_eq!(at(&v, 8, 8), inner / 3, "within 4 of the limit at x = 6");
        assert_eq!(at(&v, 10, 8), inner);
        assert_eq!(
            scroll_area(Some([0, 0, 0, 0]), N, N),
            [0, 0, N as i32, N as i32]
        );
        assert_eq!(scroll_area(Some([2, 3, 99, 9]), N, N), [2, 3, N as i32, 9]);
    }

    #[test]
    fn slopes_facing_the_sun_are_brighter_than_those_turned_from_it() {
        // The game's tile sun lies south (and a little west) of the zenith: ground that
        // rises northwards faces it.
        let facing = lit(&terrain(|_, y| 2000 - 60 * y));
        let away = lit(&terrain(|_, y| 60 * y));
        let flat = lit(&terrain(|_, _| 300));
        let (f, a, l) = (at(&facing, 8, 8), at(&away, 8, 8), at(&flat, 8, 8));
        assert!(f > l && l > a, "facing {f}, flat {l}, turned away {a}");
    }

    #[test]
    fn a_pit_is_darker_than_the_plain_around_it() {
        // A hole at corner (8, 8): the ground around it rises in every direction.
        let pit = lit(&terrain(|x, y| if (x, y) == (8, 8) { 0 } else { 400 }));
        let plain = at(&pit, 5, 5);
        assert!(
            at(&pit, 8, 8) < plain / 2,
            "{} against {plain}",
            at(&pit, 8, 8)
        );
        // Three tiles off, the pit is a fall, not a rise: no occlusion, no change.
        assert_eq!(plain, at(&lit(&terrain(|_, _| 400)), 5, 5));
    }

    #[test]
    fn the_triangle_flip_changes_which_normals_a_corner_sums() {
        // Tile (8, 8) folded along one diagonal: its top-right corner high.
        let ridge = |x: i32, y: i32| if (x, y) == (9, 8) { 600 } else { 300 };
        let plain = terrain(ridge);
        let mut flipped = terrain(ridge);
        flipped.textures[(8 + 8 * N) as usize] = bits::TRIFLIP;
        let (a, b) = (lit(&plain), lit(&flipped));
        assert_ne!(
            at(&a, 8, 9),
            at(&b, 8, 9),
            "the flip bit of tile (8, 8) should change its bottom-left corner's normals"
        );
    }

    #[test]
    fn grid_light_gives_corners_their_tile_and_centres_the_mean() {
        let t = terrain(|x, y| 20 * x + 7 * y);
        let v = lit(&t);
        let light = grid_light(&t, &v);
        let stride = (N + 1) as usize;
        assert_eq!(light.len(), stride * stride + (N * N) as usize);
        assert_eq!(light[8 + 8 * stride], f32::from(at(&v, 8, 8)) / 255.0);
        // The last row and column of corners take their neighbours' tiles.
        assert_eq!(
            light[N as usize + 8 * stride],
            f32::from(at(&v, N - 1, 8)) / 255.0
        );
        let centre = light[stride * stride + 8 + 8 * N as usize];
        let corners = [(8, 8), (9, 8), (8, 9), (9, 9)]
            .map(|(x, y)| f32::from(at(&v, x, y)) / 255.0)
            .iter()
            .sum::<f32>()
            / 4.0;
        assert!((centre - corners).abs() < 1e-6);
    }

    #[test]
    fn a_map_scene_bakes_the_light_into_its_ground_and_gives_objects_their_brightness() {
        use super::super::tests::{data, hut, map};
        use super::super::{SceneOptions, scene};
        use crate::map::place;
        use crate::wz::Stats;
        let (files, roots) = data();
        let (stats, _) = Stats::load(&files, &roots);
        let m = map(vec![hut(4 * 128 + 64, 3 * 128 + 64, 0)], &[(2, 2)]);
        let p = place(&m, &stats, &files, &roots);
        let s = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
        s.validate().unwrap();
        let mesh_of = |name: &str| {
            let n = s.nodes.iter().find(|n| n.name == name).unwrap();
            &s.meshes[n.mesh.unwrap()]
        };
        // The ground after loading: the water corner of tile (2, 2) is dug (a riverbed),
        // the surface is not.
        let terrain = mesh_of("terrain");
        let ground = super::super::ground(&m, &p);
        let want = grid_light(
            &ground,
            &illumination(&ground, &p.terrain, DEFAULT_SUN, scroll_area(None, 8, 7)),
        );
        assert_eq!(terrain.point_light, want);
        // The water multiplies the lit riverbed; it has no light of its own.
        assert!(mesh_of("water").point_light.is_empty());
        let group = s.nodes.iter().find(|n| n.name == "structures").unwrap();
        assert_eq!(group.light, Some(200.0 / 255.0));
    }

    #[test]
    fn the_occlusions_offsets_are_the_games_truncated_sums() {
        // `static_cast<int>(cx + dx·dist)` for every corner of a 256-tile map.
        let h = AO_STEP * std::f32::consts::FRAC_1_SQRT_2;
        let dx = [0.0, h, AO_STEP, h, 0.0, -h, -AO_STEP, -h];
        let offsets = occlusion_offsets();
        for i in 0..=256 {
            let cx = i * TILE_UNITS;
            for (dir, steps) in offsets.iter().enumerate() {
                for (k, &(ox, _)) in steps.iter().enumerate() {
                    let game = (cx as f32 + dx[dir] * (k + 1) as f32) as i32;
                    assert_eq!(
                        game.max(0),
                        (cx + ox).max(0),
                        "cx {cx}, direction {dir}, step {k}"
                    );
                }
            }
        }
    }
}
