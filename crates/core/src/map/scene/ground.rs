//! The ground types of a map's corners, as Warzone 2100 4.3 computes them
//! (`mapLoadGroundTypes`, `rotFlip` and `determineGroundType` in `src/map.cpp`; notes §4–5).
//!
//! A tileset names its grounds in `tileset/{stem}_enum.txt` (the line order is the
//! ground's index: the layers' drawing order and the tie-break), gives each a texture and
//! a repeat in `tileset/tertilescNhwGtype.txt` (`name,page-82-….png,6.4`: one repeat per
//! 6.4 tiles), and each tile number the grounds of its four corners in
//! `tileset/{stem}ground.txt` (`[0][0],[0][1],[1][0],[1][1]`, indexed x then y).
//!
//! A corner's ground is voted by the four tiles around it: the tile at (i, j) of the 2×2
//! around the corner names the ground of its own corner (i, j) (as the game's code reads
//! it, not the corner it shares), after its texture word's flips and quarter turns, with
//! 100 votes for a cliff tile, 1 for a water tile and 10 for any other (an off-map tile
//! is tile 0 with 10); the ground with most votes wins, a tie going to the lower index.

use super::super::{Terrain, bits};
use super::terrain::WATER;

/// Terrain type of cliffs (`TER_CLIFFFACE`).
const CLIFF: u16 = 8;
/// Largest table read (tile numbers are 9 bits).
const MAX_TILES: usize = 512;
/// Most grounds a tileset may name (4.3's have 8 to 10).
pub const MAX_GROUNDS: usize = 32;

/// One ground type: its texture and how many tiles one repeat of it covers.
#[derive(Debug, Clone, PartialEq)]
pub struct Ground {
    /// Name (`a_yellow`).
    pub name: String,
    /// The texture's file name as the table gives it (`page-82-yellow-sand-arizona.png`).
    pub texture: String,
    /// Tiles per repeat of the texture.
    pub size: f32,
}

/// A tileset's ground tables.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroundTable {
    /// The grounds in index order.
    pub grounds: Vec<Ground>,
    /// Per tile number, the ground index of its corners `[[x0y0, x0y1], [x1y0, x1y1]]`.
    pub tiles: Vec<[[u8; 2]; 2]>,
}

/// The lines of a table after its `name,count` header, trimmed, blank ones skipped.
fn rows(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.is_empty())
}

impl GroundTable {
    /// Builds the table from the text of `{stem}_enum.txt`, `tertilescNhwGtype.txt` and
    /// `{stem}ground.txt`.
    ///
    /// # Errors
    /// The file and line of a ground without a texture or with a bad size, a tile naming
    /// an unknown ground, or a table of no grounds: without them the game stops loading.
    pub fn parse(enums: &str, types: &str, ground: &str) -> Result<GroundTable, String> {
        let names: Vec<&str> = rows(enums).take(MAX_GROUNDS).collect();
        if names.is_empty() {
            return Err("the _enum.txt table names no ground".into());
        }
        let mut grounds = Vec::with_capacity(names.len());
        for name in &names {
            let line = rows(types)
                .enumerate()
                .find(|(_, l)| l.split(',').next().map(str::trim) == Some(*name));
            let Some((n, line)) = line else {
                return Err(format!("Gtype.txt gives ground {name} no texture"));
            };
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let size = fields.get(2).and_then(|s| s.parse::<f32>().ok());
            match (fields.get(1), size) {
                (Some(texture), Some(size)) if size > 0.0 && size.is_finite() => {
                    grounds.push(Ground {
                        name: name.to_string(),
                        texture: texture.to_string(),
                        size,
                    });
                }
                _ => return Err(format!("Gtype.txt line {}: not name,texture,size", n + 2)),
            }
        }
        let index = |g: &str| names.iter().position(|n| *n == g).map(|i| i as u8);
        let mut tiles = Vec::new();
        for (n, line) in rows(ground).take(MAX_TILES).enumerate() {
            let c: Vec<Option<u8>> = line.split(',').map(|g| index(g.trim())).collect();
            match c[..] {
                [Some(a), Some(b), Some(d), Some(e)] => tiles.push([[a, b], [d, e]]),
                _ => return Err(format!("ground.txt line {}: {line:?}", n + 2)),
            }
        }
        Ok(GroundTable { grounds, tiles })
    }

    /// The ground of corner (`a`, `b`) of tile number `tile` (0 past the table).
    fn corner(&self, tile: u16, a: usize, b: usize) -> u8 {
        self.tiles.get(usize::from(tile)).map_or(0, |t| t[a][b])
    }
}

/// The corner (`a`, `b`) of the tile image that lands on corner (`a`, `b`) of a tile whose
/// texture word is `word`: x-flip, y-flip, then the quarter turns undone (`rotFlip`).
pub fn rot_flip(word: u16, a: usize, b: usize) -> (usize, usize) {
    let a = if word & bits::XFLIP != 0 { 1 - a } else { a };
    let b = if word & bits::YFLIP != 0 { 1 - b } else { b };
    // Corners around the tile: 0 (0,0), 1 (1,0), 2 (1,1), 3 (0,1).
    const AROUND: [(usize, usize); 4] = [(0, 0), (1, 0), (1, 1), (0, 1)];
    let i = AROUND.iter().position(|&c| c == (a, b)).unwrap_or(0);
    let turns = usize::from((word & bits::ROTATION) >> 12);
    AROUND[(i + 4 - turns) % 4]
}

/// The ground of corner (`x`, `y`), 0 ≤ x < width, 0 ≤ y < height, voted by the tiles
/// around it in `terrain` (`types`: terrain type per tile number).
pub fn corner_ground(terrain: &Terrain, types: &[u16], table: &GroundTable, x: i32, y: i32) -> u8 {
    let (w, h) = (terrain.width as i32, terrain.height as i32);
    let mut ground = [0u8; 4];
    let mut weight = [10u32; 4];
    for (k, (i, j)) in [(0, 0), (0, 1), (1, 0), (1, 1)].into_iter().enumerate() {
        let (tx, ty) = (x + i as i32 - 1, y + j as i32 - 1);
        let on_map = tx >= 0 && ty >= 0 && tx < w && ty < h;
        let word = if on_map {
            terrain.textures[tx as usize + ty as usize * w as usize]
        } else {
            0
        };
        let (a, b) = rot_flip(word, i, j);
        let number = word & bits::NUMBER;
        ground[k] = table.corner(number, a, b);
        if on_map {
            match types.get(usize::from(number)) {
                Some(&CLIFF) => weight[k] = 100,
                Some(&WATER) => weight[k] = 1,
                _ => {}
            }
        }
    }
    let votes = |g: u8| -> u32 { (0..4).filter(|&k| ground[k] == g).map(|k| weight[k]).sum() };
    let mut best = 0;
    for k in 1..4 {
        let (v, b) = (votes(ground[k]), votes(ground[best]));
        if v > b || (v == b && ground[k] < ground[best]) {
            best = k;
        }
    }
    ground[best]
}

/// The ground of every drawn corner (i, j), 0 ≤ i ≤ width, 0 ≤ j ≤ height, at
/// `i + j·(width + 1)`. The game keeps a ground per tile, the one of its top-left corner,
/// and reads the right and bottom edge's corners from the last column and row
/// (`mapTile` clamps), so those repeat their neighbour's.
pub fn corner_grounds(terrain: &Terrain, types: &[u16], table: &GroundTable) -> Vec<u8> {
    let (w, h) = (terrain.width as i32, terrain.height as i32);
    let mut out = Vec::with_capacity(((w + 1) * (h + 1)) as usize);
    for j in 0..=h {
        for i in 0..=w {
            out.push(corner_ground(
                terrain,
                types,
                table,
                i.min(w - 1),
                j.min(h - 1),
            ));
        }
    }
    out
}

/// Reads the ground tables of `tileset` from the first root that has each file.
///
/// # Errors
/// The file that is missing (4.0's data and older have none: the caller draws the
/// classic tiles), or [`GroundTable::parse`]'s refusal naming it.
pub(crate) fn read(
    files: &crate::files::Files,
    lookup: &mut crate::files::Lookup,
    roots: &[crate::files::FileRef],
    tileset: super::super::Tileset,
) -> Result<GroundTable, String> {
    let stem = super::decals::stem(tileset);
    let mut text = |name: String| -> Result<String, String> {
        let path = format!("tileset/{name}");
        let f = roots
            .iter()
            .find_map(|r| lookup.walk(r, &["tileset", &name]))
            .ok_or_else(|| format!("no {path}"))?;
        let bytes = files.read(&f).map_err(|e| format!("{path}: {e}"))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    // All three asked for before any is used: from a remote archive they come in one
    // fetch, not one after the other.
    let enums = text(format!("{stem}_enum.txt"));
    let types = text(format!("tertilesc{}hwGtype.txt", tileset.slot() + 1));
    let ground = text(format!("{stem}ground.txt"));
    GroundTable::parse(&enums?, &types?, &ground?).map_err(|e| format!("tileset/: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Grounds `g0` (index 0) … `g3`; tile 0 all g0, tile 1 all g1, tile 2 all g2, tile 3
    /// corners [0][0] g0, [0][1] g1, [1][0] g2, [1][1] g3.
    fn table() -> GroundTable {
        GroundTable::parse(
            "x_enum,4\ng0\ng1\ng2\ng3\n",
            "tertilesc9hw,4\ng3,page-3.png,2\ng0,page-0.png,6.4\ng1,page-1.png,5\ng2,page-2.png,4\n",
            "x_ground,4\ng0,g0,g0,g0\ng1,g1,g1,g1\ng2,g2,g2,g2\ng0,g1,g2,g3\n",
        )
        .unwrap()
    }

    /// A 2×2 map of texture words `words` (row-major).
    fn terrain(words: [u16; 4]) -> Terrain {
        Terrain {
            width: 2,
            height: 2,
            heights: vec![0; 4],
            textures: words.to_vec(),
            gateways: Vec::new(),
            version: 40,
        }
    }

    #[test]
    fn tables_parse_in_enum_order_and_refuse_what_the_game_refuses() {
        let t = table();
        let names: Vec<&str> = t.grounds.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["g0", "g1", "g2", "g3"]);
        assert_eq!(
            (t.grounds[0].texture.as_str(), t.grounds[0].size),
            ("page-0.png", 6.4)
        );
        assert_eq!(t.tiles[3], [[0, 1], [2, 3]]);
        let err = |e: &str, ty: &str, g: &str| GroundTable::parse(e, ty, g).unwrap_err();
        assert_eq!(err("x,0\n", "", ""), "the _enum.txt table names no ground");
        assert_eq!(
            err("x,1\ng0\n", "t,0\n", ""),
            "Gtype.txt gives ground g0 no texture"
        );
        assert_eq!(
            err("x,1\ng0\n", "t,1\ng0,page.png,-1\n", ""),
            "Gtype.txt line 2: not name,texture,size"
        );
        assert_eq!(
            err("x,1\ng0\n", "t,1\ng0,p.png,1\n", "x,1\ng0,g0,g0,nope\n"),
            "ground.txt line 2: \"g0,g0,g0,nope\""
        );
    }

    #[test]
    fn rot_flip_undoes_flips_then_quarter_turns() {
        use bits::{XFLIP, YFLIP};
        let r = |q: u16| q << 12;
        let cases = [
            (0, (0, 0), (0, 0)),
            (0, (1, 1), (1, 1)),
            (XFLIP, (0, 0), (1, 0)),
            (XFLIP, (1, 1), (0, 1)),
            (YFLIP, (0, 0), (0, 1)),
            (XFLIP | YFLIP, (0, 1), (1, 0)),
            // One quarter turn: the image's corner one step back around the tile.
            (r(1), (0, 0), (0, 1)),
            (r(1), (1, 0), (0, 0)),
            (r(1), (1, 1), (1, 0)),
            (r(2), (0, 0), (1, 1)),
            (r(3), (0, 0), (1, 0)),
            // Flip first, then turn.
            (XFLIP | r(1), (0, 0), (0, 0)),
            // Number and triangle-flip bits change nothing.
            (0x0800 | 0x1FF, (1, 0), (1, 0)),
        ];
        for (word, (a, b), want) in cases {
            assert_eq!(
                rot_flip(word, a, b),
                want,
                "word {word:#06x} corner ({a}, {b})"
            );
        }
    }

    #[test]
    fn corners_are_voted_with_cliff_and_water_weights_ties_to_the_lower_ground() {
        let t = table();
        // Terrain types: tile 1 cliff, tile 2 water.
        let types = [0, CLIFF, WATER, 0];
        let at = |words: [u16; 4], x, y| corner_ground(&terrain(words), &types, &t, x, y);
        // Centre corner (1, 1) of four plain g0 tiles: g0.
        assert_eq!(at([0, 0, 0, 0], 1, 1), 0);
        // One cliff tile (100) beats three g0 tiles (30).
        assert_eq!(at([0, 1, 0, 0], 1, 1), 1);
        // Three water tiles (3 votes) lose to one g0 tile (10).
        assert_eq!(at([2, 2, 0, 2], 1, 1), 0);
        // The tile at (i, j) around the corner gives its own corner (i, j) (the game's
        // `a = i; b = j`, not the corner it shares): four tiles 3 give g0, g1, g2, g3,
        // 10 votes each; the lowest index wins.
        assert_eq!(at([3, 3, 3, 3], 1, 1), 0);
        // Tile (1, 1) turned a quarter gives the image's corner (1, 0) for its (1, 1):
        // g2, now twice.
        assert_eq!(at([3, 3, 3, 3 | 1 << 12], 1, 1), 2);
        // Flipped in x instead: its (1, 1) shows the image's (0, 1), g1, twice.
        assert_eq!(at([3, 3, 3, 3 | bits::XFLIP], 1, 1), 1);
        // Corner (0, 0): three off-map neighbours are tile 0 (g0, 10 votes each) against
        // the map's tile (0,0), a cliff of g1 (100): g1.
        assert_eq!(at([1, 0, 0, 0], 0, 0), 1);
        // … and against a water tile of g2 (1 vote): g0 from off the map.
        assert_eq!(at([2, 0, 0, 0], 0, 0), 0);
    }

    #[test]
    fn every_drawn_corner_gets_a_ground_the_last_row_and_column_repeating() {
        let t = table();
        let g = corner_grounds(&terrain([1, 1, 0, 2]), &[0; 4], &t);
        assert_eq!(g.len(), 9);
        // Corner (2, 2) repeats corner (1, 1); (2, 0) repeats (1, 0).
        assert_eq!(g[8], g[4]);
        assert_eq!(g[2], g[1]);
        assert_eq!(
            g[4],
            corner_ground(&terrain([1, 1, 0, 2]), &[0; 4], &t, 1, 1)
        );
    }
}
