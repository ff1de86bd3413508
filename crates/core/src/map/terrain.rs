//! The height map and tiles of `game.map`, and the game's height look-ups on it
//! (`map_TileHeight`, `map_Height` in `src/map.cpp`).

use super::{Gateway, TILE_UNITS};

/// Texture word bits (`lib/wzmaplib/include/wzmaplib/map.h`).
pub mod bits {
    /// Mirrored left–right (`TILE_XFLIP`).
    pub const XFLIP: u16 = 0x8000;
    /// Mirrored top–bottom (`TILE_YFLIP`).
    pub const YFLIP: u16 = 0x4000;
    /// Quarter turns, bits 12–13 (`TILE_ROTMASK`).
    pub const ROTATION: u16 = 0x3000;
    /// The split of the tile into two triangles (`TILE_TRIFLIP`).
    pub const TRIFLIP: u16 = 0x0800;
    /// The tile number (`TILE_NUMMASK`).
    pub const NUMBER: u16 = 0x01FF;
}

/// Terrain: `width × height` tiles, each with the height of its top-left corner and a
/// texture word, plus the gateways.
#[derive(Debug, Clone, PartialEq)]
pub struct Terrain {
    /// Tiles along x.
    pub width: u32,
    /// Tiles along y.
    pub height: u32,
    /// Height of tile (x, y)'s top-left corner in world units, at `x + y · width`.
    pub heights: Vec<i32>,
    /// Texture word of tile (x, y) ([`bits`]), at `x + y · width`.
    pub textures: Vec<u16>,
    /// Gateways.
    pub gateways: Vec<Gateway>,
    /// The `game.map` version.
    pub version: u32,
}

impl Terrain {
    /// The tile number of tile (x, y) (its texture without the flip and turn bits).
    pub fn tile_number(&self, x: u32, y: u32) -> Option<u16> {
        self.index(x as i32, y as i32)
            .map(|i| self.textures[i] & bits::NUMBER)
    }

    /// Quarter turns of tile (x, y)'s texture (0–3).
    pub fn rotation(&self, x: u32, y: u32) -> Option<u8> {
        self.index(x as i32, y as i32)
            .map(|i| ((self.textures[i] & bits::ROTATION) >> 12) as u8)
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as u32) < self.width && (y as u32) < self.height)
            .then(|| x as usize + y as usize * self.width as usize)
    }

    /// `map_TileHeight`: the stored height of corner (x, y); 0 off the stored corners
    /// (the last row and column of corners included).
    pub fn corner(&self, x: i32, y: i32) -> i32 {
        self.index(x, y).map_or(0, |i| self.heights[i])
    }

    /// Sets corner (x, y)'s height (`setTileHeight`); ignored off the map.
    pub(crate) fn set_corner(&mut self, x: i32, y: i32, h: i32) {
        if let Some(i) = self.index(x, y) {
            self.heights[i] = h;
        }
    }

    /// `map_Height`: the ground height at world (x, y), on the four triangles around each
    /// tile's centre, in the game's integer arithmetic (rounded to the nearest unit).
    pub fn height_at(&self, x: i32, y: i32) -> i32 {
        let max_x = (self.width as i32).saturating_mul(TILE_UNITS) - 1;
        let max_y = (self.height as i32).saturating_mul(TILE_UNITS) - 1;
        let (x, y) = (x.clamp(0, max_x.max(0)), y.clamp(0, max_y.max(0)));
        let (tx, ty) = (x / TILE_UNITS, y / TILE_UNITS);
        let (ox, oy) = (x - tx * TILE_UNITS, y - ty * TILE_UNITS);
        let h = |i: i32, j: i32| self.corner(tx + i, ty + j);
        let center = (h(0, 0) + h(0, 1) + h(1, 0) + h(1, 1)) / 4;
        let t = TILE_UNITS;
        // (right, left, towards the centre, towards the right) of the triangle hit.
        let (right, left, centre_d, right_d) = if oy > ox {
            if oy < t - ox {
                (h(0, 0), h(0, 1), ox, t - oy)
            } else {
                (h(0, 1), h(1, 1), t - oy, t - ox)
            }
        } else if ox > t - oy {
            (h(1, 1), h(1, 0), t - ox, oy)
        } else {
            (h(1, 0), h(0, 0), oy, ox)
        };
        let middle = (left + right) / 2;
        let bottom = left * (t - right_d) + right * right_d;
        let result = bottom + (center - middle) * centre_d * 2;
        (result + t / 2) / t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(w: u32, h: u32, v: i32) -> Terrain {
        Terrain {
            width: w,
            height: h,
            heights: vec![v; (w * h) as usize],
            textures: vec![0; (w * h) as usize],
            gateways: Vec::new(),
            version: 40,
        }
    }

    #[test]
    fn height_at_follows_the_corners() {
        let mut t = flat(4, 4, 100);
        assert_eq!(t.height_at(200, 200), 100);
        // Corners off the stored grid read 0, as the game's do.
        assert_eq!(t.corner(4, 0), 0);
        assert_eq!(t.corner(-1, 0), 0);
        t.set_corner(1, 1, 200);
        // On the corner itself.
        assert_eq!(t.height_at(128, 128), 200);
        // Tile (0, 0)'s centre is the average of its corners: (100·3 + 200) / 4.
        assert_eq!(t.height_at(64, 64), 125);
    }
}
