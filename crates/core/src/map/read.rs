//! The binary terrain files: `game.map` (`loadMapData_Internal` in
//! `lib/wzmaplib/src/map.cpp`), `ttypes.ttp` (`loadTerrainTypes` in
//! `map_terrain_types.cpp`) and the 52-byte `.gam` (`loadGamFile_OldBinary` in
//! `map_package.cpp`). Every refusal names the byte offset; counts are checked against the
//! bytes left and the game's limits before anything is allocated for them.

use super::terrain::Terrain;
use super::{Gateway, MAX_AREA, MAX_HEIGHT};
use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// The newest `game.map` version the game reads (`VERSION_40`).
pub const GAME_MAP_MAX_VERSION: u32 = 40;
/// The oldest (`≤ 9` is refused).
pub const GAME_MAP_MIN_VERSION: u32 = 10;

/// Reads `game.map`, versions 10–40. Heights come out in world units (v10–39 store half
/// of them). Trailing bytes after the gateways (old maps' zone data) are allowed; their
/// count is returned for a note.
pub fn read_game_map(bytes: &[u8]) -> Result<(Terrain, usize), LoadError> {
    let mut r = Reader::new(bytes);
    if bytes.is_empty() {
        return Err(r.error(ErrorKind::EmptyFile, "empty file"));
    }
    let magic = r.array::<4>("magic")?;
    if &magic[..3] != b"map" {
        return Err(LoadError::new(
            ErrorKind::BadMagic,
            Location::Offset(0),
            format!(
                "not a game.map: magic {:?}, expected \"map \"",
                ascii(&magic)
            ),
        ));
    }
    let version = r.u32("version")?;
    if !(GAME_MAP_MIN_VERSION..=GAME_MAP_MAX_VERSION).contains(&version) {
        return Err(LoadError::new(
            ErrorKind::UnsupportedVersion,
            Location::Offset(4),
            format!("game.map version {version}; the game reads 10 to 40"),
        )
        .with_rule("map/game-map-version"));
    }
    let width = r.u32("width")?;
    let height = r.u32("height")?;
    let area = u64::from(width) * u64::from(height);
    if width <= 1 || height <= 1 || area > MAX_AREA {
        return Err(LoadError::new(
            ErrorKind::Invalid,
            Location::Offset(8),
            format!(
                "map size {width}×{height}; the game needs both above 1 and at most {MAX_AREA} tiles"
            ),
        )
        .with_rule("map/size"));
    }
    let record = if version >= 40 { 4 } else { 3 };
    let n = r
        .check_count(area, record, "tiles")
        .map_err(|e| e.with_rule("map/tile-count"))?;
    let mut heights = Vec::with_capacity(n);
    let mut textures = Vec::with_capacity(n);
    for i in 0..n {
        let at = r.offset();
        textures.push(r.u16("tile texture")?);
        let h = if version >= 40 {
            i32::from(r.u16("tile height")?)
        } else {
            i32::from(r.u8("tile height")?) * 2
        };
        if h > MAX_HEIGHT {
            return Err(LoadError::new(
                ErrorKind::BadValue,
                Location::Offset(at + 2),
                format!("tile {i}: height {h}; the game's limit is {MAX_HEIGHT}"),
            ));
        }
        heights.push(h);
    }
    let gateways = read_gateways(&mut r)?;
    let trailing = r.remaining();
    let terrain = Terrain {
        width,
        height,
        heights,
        textures,
        gateways,
        version,
    };
    Ok((terrain, trailing))
}

fn read_gateways(r: &mut Reader) -> Result<Vec<Gateway>, LoadError> {
    let at = r.offset();
    let version = r.u32("gateway version")?;
    if version != 1 {
        return Err(LoadError::new(
            ErrorKind::UnsupportedVersion,
            Location::Offset(at),
            format!("gateway version {version}; the game reads 1"),
        ));
    }
    let count = r.u32("gateway count")?;
    let n = r.check_count(u64::from(count), 4, "gateways")?;
    let mut gateways = Vec::with_capacity(n);
    for _ in 0..n {
        let [x1, y1, x2, y2] = r.array::<4>("gateway")?;
        gateways.push(Gateway {
            from: (x1, y1),
            to: (x2, y2),
        });
    }
    Ok(gateways)
}

/// Most terrain types the game keeps (`MAX_TILE_TEXTURES`).
pub const MAX_TERRAIN_TYPES: u32 = 254;

/// Reads `ttypes.ttp`: one terrain type per tile number. Returns the version too.
pub fn read_terrain_types(bytes: &[u8]) -> Result<(Vec<u16>, u32), LoadError> {
    let mut r = Reader::new(bytes);
    if bytes.is_empty() {
        return Err(r.error(ErrorKind::EmptyFile, "empty file"));
    }
    let magic = r.array::<4>("magic")?;
    if &magic != b"ttyp" {
        return Err(LoadError::new(
            ErrorKind::BadMagic,
            Location::Offset(0),
            format!(
                "not a ttypes.ttp: magic {:?}, expected \"ttyp\"",
                ascii(&magic)
            ),
        ));
    }
    let version = r.u32("version")?;
    if !(7..=39).contains(&version) {
        return Err(LoadError::new(
            ErrorKind::UnsupportedVersion,
            Location::Offset(4),
            format!("ttypes.ttp version {version}; the game reads 7 to 39"),
        )
        .with_rule("map/ttypes-version"));
    }
    let count = r.u32("count")?;
    if count > MAX_TERRAIN_TYPES {
        return Err(LoadError::new(
            ErrorKind::Invalid,
            Location::Offset(8),
            format!("{count} terrain types; the game keeps at most {MAX_TERRAIN_TYPES}"),
        ));
    }
    let n = r.check_count(u64::from(count), 2, "terrain types")?;
    let mut types = Vec::with_capacity(n);
    for i in 0..n {
        let at = r.offset();
        let t = r.u16("terrain type")?;
        if t > 11 {
            return Err(LoadError::new(
                ErrorKind::BadValue,
                Location::Offset(at),
                format!("tile {i}: terrain type {t}; the game knows 0 to 11"),
            ));
        }
        types.push(t);
    }
    Ok((types, version))
}

/// The scroll limits of a `.gam` (min x, min y, max x, max y; all 0 = the whole map) and
/// its version.
pub fn read_gam(bytes: &[u8]) -> Result<([i64; 4], u32), LoadError> {
    let mut r = Reader::new(bytes);
    let magic = r.array::<4>("magic")?;
    if &magic != b"game" {
        return Err(LoadError::new(
            ErrorKind::BadMagic,
            Location::Offset(0),
            format!("not a .gam: magic {:?}, expected \"game\"", ascii(&magic)),
        ));
    }
    let raw = r.u32("version")?;
    // Versions ≥ 35 are big-endian, the rest little-endian; the same for what follows.
    let big = raw.swap_bytes() >= 35 && raw.swap_bytes() < 0x100;
    let fix = |v: u32| if big { v.swap_bytes() } else { v };
    let version = fix(raw);
    r.skip(8, "game time and type")?;
    let mut limits = [0i64; 4];
    for (i, l) in limits.iter_mut().enumerate() {
        let v = fix(r.u32("scroll limit")?);
        *l = if i < 2 {
            i64::from(v as i32)
        } else {
            i64::from(v)
        };
    }
    Ok((limits, version))
}

fn ascii(b: &[u8]) -> String {
    b.iter()
        .map(|&c| {
            if c.is_ascii_graphic() || c == b' ' {
                c as char
            } else {
                '.'
            }
        })
        .collect()
}
