//! A map as the map database draws its 2D previews (`maptools package genpreview`,
//! wzmaplib's `generate2DMapPreview`): one pixel per tile, flat colours, top-down.
//!
//! What it draws, as read in wzmaplib (`lib/wzmaplib/src/map_preview.cpp`, its pull
//! request #3330) and maptools-cli (`src/maptools.cpp`), facts only:
//! - **terrain**: each tile by its terrain type (`ttypes.ttp`): cliff faces, roads and
//!   the other ground each blend from a low to a high colour of the level's tileset by
//!   the tile's stored height (`height / 2` of 256 steps, in integer arithmetic), water is
//!   one colour; a tile number past the table counts as type 0 (ground);
//! - **structures**: each structure over its footprint (its size turned with its
//!   direction, as the game's radar draws it), in its owner's colour (`simple`: one green
//!   for every player; `wz`: the game's 16 player colours; the scavengers' colour,
//!   maroon unless asked); every HQ (`A0CommandCentre…`) magenta;
//! - **oil**: oil resources (`OilResource…`) yellow and oil drums (`OilDrum…`) green-yellow,
//!   one pixel each at their tile, over the structures.
//!
//! Where Vitrine differs, it follows the game: the structures are those the game keeps
//! when it loads the map ([`super::Placement`]), at their snapped footprint; the oil under
//! a derrick, which the game removes when the derrick is built on it, is still drawn (the
//! well is there, and the database's previews show it). Without the terrain layer the
//! picture is black under what is drawn.

use super::place::Removal;
use super::{Map, ObjectKind, Owner, Placement, TILE_UNITS, Tileset};

/// Whose colour a structure is drawn in (`--playercolors`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlayerColours {
    /// One colour for every player (maptools' default).
    #[default]
    Simple,
    /// The game's player colours, one per player slot.
    Wz,
}

/// What the flat preview draws (`--layers`) and in which colours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatOptions {
    /// The players' colours.
    pub players: PlayerColours,
    /// The scavengers' colour, RGB.
    pub scavengers: [u8; 3],
    /// Draw the terrain (else black).
    pub terrain: bool,
    /// Draw the structures.
    pub structures: bool,
    /// Draw the oil resources and drums.
    pub oil: bool,
}

impl Default for FlatOptions {
    fn default() -> Self {
        FlatOptions {
            players: PlayerColours::Simple,
            scavengers: SCAVENGERS,
            terrain: true,
            structures: true,
            oil: true,
        }
    }
}

/// The scavengers' colour unless asked (maroon).
pub const SCAVENGERS: [u8; 3] = [128, 0, 0];
/// Every player's colour with [`PlayerColours::Simple`].
pub const SIMPLE_PLAYER: [u8; 3] = [0, 255, 2];
/// An HQ's colour.
pub const HQ: [u8; 3] = [255, 0, 255];
/// An oil resource's colour.
pub const OIL_RESOURCE: [u8; 3] = [255, 255, 0];
/// An oil drum's colour.
pub const OIL_DRUM: [u8; 3] = [128, 192, 0];
/// Water's colour on every tileset.
pub const WATER: [u8; 3] = [0x3F, 0x68, 0x9A];

/// The game's player colours as the previews draw them, by player slot (player 2's
/// black drawn dark grey to be seen; slots past 15 are black).
pub const WZ_PLAYERS: [[u8; 3]; 16] = [
    [0, 255, 0],
    [255, 192, 40],
    [55, 55, 55],
    [255, 0, 0],
    [20, 20, 255],
    [255, 0, 192],
    [0, 255, 255],
    [255, 255, 0],
    [144, 0, 255],
    [255, 255, 255],
    [200, 255, 255],
    [128, 128, 255],
    [128, 255, 128],
    [128, 0, 0],
    [64, 0, 128],
    [128, 128, 0],
];

/// Terrain types the preview tells apart (`TYPE_OF_TERRAIN`).
const ROAD: u16 = 6;
const TYPE_WATER: u16 = 7;
const CLIFF_FACE: u16 = 8;

/// A tileset's preview colours: (low, high) for cliffs, roads and other ground.
struct Ramps {
    cliff: ([u8; 3], [u8; 3]),
    road: ([u8; 3], [u8; 3]),
    ground: ([u8; 3], [u8; 3]),
}

fn ramps(tileset: Tileset) -> Ramps {
    match tileset {
        Tileset::Arizona => Ramps {
            cliff: ([0x68, 0x3C, 0x24], [0xE8, 0x84, 0x5C]),
            road: ([0x24, 0x1F, 0x16], [0xB2, 0x9A, 0x66]),
            ground: ([0x24, 0x1F, 0x16], [0xCC, 0xB2, 0x80]),
        },
        Tileset::Urban => Ramps {
            cliff: ([0x3C, 0x3C, 0x3C], [0x84, 0x84, 0x84]),
            road: ([0x00, 0x00, 0x00], [0x24, 0x1F, 0x16]),
            ground: ([0x1F, 0x1F, 0x1F], [0xB2, 0xB2, 0xB2]),
        },
        Tileset::Rockies => Ramps {
            cliff: ([0x3C, 0x3C, 0x3C], [0xFF, 0xFF, 0xFF]),
            road: ([0x24, 0x1F, 0x16], [0x3D, 0x21, 0x0A]),
            ground: ([0x00, 0x1C, 0x0E], [0xFF, 0xFF, 0xFF]),
        },
    }
}

/// `low` towards `high` by `step` of 256 (integer arithmetic, truncated, kept to a byte
/// as the previews keep it).
fn blend((low, high): ([u8; 3], [u8; 3]), step: i32) -> [u8; 3] {
    std::array::from_fn(|c| {
        let (l, h) = (i32::from(low[c]), i32::from(high[c]));
        ((l + (h - l) * step / 256) & 0xff) as u8
    })
}

/// The colour of a structure of `owner`.
pub fn player_colour(owner: Owner, options: &FlatOptions) -> [u8; 3] {
    match (owner, options.players) {
        (Owner::Scavenger, _) => options.scavengers,
        (_, PlayerColours::Simple) => SIMPLE_PLAYER,
        (Owner::Player(p), PlayerColours::Wz) => {
            WZ_PLAYERS.get(p as usize).copied().unwrap_or([0, 0, 0])
        }
        (Owner::None, PlayerColours::Wz) => [0, 0, 0],
    }
}

/// The colour the preview gives tile (x, y) of `map`'s terrain.
pub fn terrain_colour(map: &Map, x: u32, y: u32) -> [u8; 3] {
    let t = &map.terrain;
    let i = x as usize + y as usize * t.width as usize;
    let number = t.textures.get(i).map_or(0, |w| w & super::bits::NUMBER);
    let kind = map.terrain_types.get(number as usize).copied().unwrap_or(0);
    let step = t.heights.get(i).copied().unwrap_or(0) / 2;
    let r = ramps(map.level.tileset);
    match kind {
        CLIFF_FACE => blend(r.cliff, step),
        TYPE_WATER => WATER,
        ROAD => blend(r.road, step),
        _ => blend(r.ground, step),
    }
}

/// The flat preview of `map` as the game loads it (`placement`): `width × height` pixels,
/// RGB, row by row from the map's north-west corner.
pub fn flat_preview(map: &Map, placement: &Placement, options: &FlatOptions) -> image::RgbImage {
    let (w, h) = (map.terrain.width, map.terrain.height);
    let mut img = image::RgbImage::new(w, h);
    if options.terrain {
        for (x, y, p) in img.enumerate_pixels_mut() {
            p.0 = terrain_colour(map, x, y);
        }
    }
    if options.structures {
        for placed in placement
            .objects
            .iter()
            .filter(|p| p.object.kind == ObjectKind::Structure)
        {
            let o = &placed.object;
            let colour = if o.stats_id.starts_with("A0CommandCentre") {
                HQ
            } else {
                player_colour(o.owner, options)
            };
            let (sx, sy) = placed.size;
            let left = (o.x - sx.max(1) * TILE_UNITS / 2).div_euclid(TILE_UNITS);
            let top = (o.y - sy.max(1) * TILE_UNITS / 2).div_euclid(TILE_UNITS);
            for ty in top..top + sy.max(1) {
                for tx in left..left + sx.max(1) {
                    put(&mut img, tx, ty, colour);
                }
            }
        }
    }
    if options.oil {
        for (name, x, y) in oil(map, placement) {
            let colour = if name.starts_with("OilDrum") {
                OIL_DRUM
            } else {
                OIL_RESOURCE
            };
            put(
                &mut img,
                x.div_euclid(TILE_UNITS),
                y.div_euclid(TILE_UNITS),
                colour,
            );
        }
    }
    img
}

/// Every oil resource and oil drum of the map with its world position: those the game
/// keeps and those under a derrick.
fn oil<'a>(map: &'a Map, placement: &'a Placement) -> impl Iterator<Item = (&'a str, i32, i32)> {
    let kept = placement.objects.iter().map(|p| &p.object);
    let under = placement
        .removed
        .iter()
        .filter(|r| r.why == Removal::UnderDerrick)
        .filter_map(|r| map.objects.get(r.index));
    kept.chain(under)
        .filter(|o| o.kind == ObjectKind::Feature)
        .filter(|o| o.stats_id.starts_with("OilResource") || o.stats_id.starts_with("OilDrum"))
        .map(|o| (o.stats_id.as_str(), o.x, o.y))
}

/// Sets pixel (x, y), clamped to the picture as the previews clamp it.
fn put(img: &mut image::RgbImage, x: i32, y: i32, colour: [u8; 3]) {
    let (w, h) = img.dimensions();
    if w == 0 || h == 0 {
        return;
    }
    let x = x.clamp(0, w as i32 - 1) as u32;
    let y = y.clamp(0, h as i32 - 1) as u32;
    img.put_pixel(x, y, image::Rgb(colour));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ramp_goes_from_low_at_height_0_to_nearly_high_at_510() {
        let r = ramps(Tileset::Arizona);
        assert_eq!(blend(r.cliff, 0), [0x68, 0x3C, 0x24]);
        // 255 of 256 steps: one short of the high colour, truncated.
        assert_eq!(blend(r.cliff, 255), [0xE7, 0x83, 0x5B]);
        // A falling channel (Rockies' road, blue 0x16 → 0x0A) halfway: 22 − 6.
        let rockies = ramps(Tileset::Rockies);
        assert_eq!(blend(rockies.road, 128)[2], 16);
    }

    #[test]
    fn players_colours_follow_the_scheme() {
        let wz = FlatOptions {
            players: PlayerColours::Wz,
            scavengers: [1, 2, 3],
            ..FlatOptions::default()
        };
        assert_eq!(player_colour(Owner::Player(1), &wz), [255, 192, 40]);
        assert_eq!(player_colour(Owner::Player(2), &wz), [55, 55, 55]);
        assert_eq!(player_colour(Owner::Player(16), &wz), [0, 0, 0]);
        assert_eq!(player_colour(Owner::Scavenger, &wz), [1, 2, 3]);
        let simple = FlatOptions::default();
        assert_eq!(player_colour(Owner::Player(5), &simple), SIMPLE_PLAYER);
        assert_eq!(player_colour(Owner::Scavenger, &simple), SCAVENGERS);
    }
}
