//! BJO objects (`struct.bjo`, `feat.bjo`, `dinit.bjo`), the binary object files of the
//! campaign and of maps from older editors (`loadBJO{Structure,Feature,Droid}Init` in
//! `lib/wzmaplib/src/map.cpp`).
//!
//! Header: magic (`stru`, `feat`, `dint`), u32 version, u32 count. Each record: a name of
//! 40 bytes (version ≤ 19) or 60, then u32 id, x, y, z (z ignored), direction in
//! **degrees**, player, inFire, burnStart, burnDamage; `stru` adds 44 bytes (status,
//! build points, 9 words), `feat` from version 14 adds 8 visibility bytes.

use super::{MAX_OBJECTS, MapObject, ObjectKind, Owner};
use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// The objects of one BJO file and its version.
pub(crate) fn read_bjo(
    bytes: &[u8],
    kind: ObjectKind,
    max_players: u32,
) -> Result<(Vec<MapObject>, u32), LoadError> {
    let mut r = Reader::new(bytes);
    if bytes.is_empty() {
        return Err(r.error(ErrorKind::EmptyFile, "empty file"));
    }
    let want: &[u8; 4] = match kind {
        ObjectKind::Structure => b"stru",
        ObjectKind::Feature => b"feat",
        ObjectKind::Droid => b"dint",
    };
    let magic = r.array::<4>("magic")?;
    if &magic != want {
        return Err(LoadError::new(
            ErrorKind::BadMagic,
            Location::Offset(0),
            format!(
                "magic {:?}, expected {:?}",
                String::from_utf8_lossy(&magic),
                String::from_utf8_lossy(want)
            ),
        ));
    }
    let version = r.u32("version")?;
    // `loadBJOStructureInit` reads versions 7–8, `loadBJOFeatureInit` 7–19;
    // `loadBJODroidInit` checks none.
    let supported = match kind {
        ObjectKind::Structure => (7..=8).contains(&version),
        ObjectKind::Feature => (7..=19).contains(&version),
        ObjectKind::Droid => true,
    };
    if !supported {
        return Err(LoadError::new(
            ErrorKind::UnsupportedVersion,
            Location::Offset(4),
            format!(
                "{} BJO version {version} is not read by the game",
                kind.name()
            ),
        ));
    }
    let count = r.u32("count")?;
    if count as usize > MAX_OBJECTS {
        let first = format!("record {MAX_OBJECTS}");
        let e = super::json::over_limit(kind, Location::Offset(8), &first);
        return Err(LoadError {
            message: format!("count {count}: {}", e.message),
            ..e
        });
    }
    let name_len = if version <= 19 { 40 } else { 60 };
    let extra = match kind {
        ObjectKind::Structure => 44,
        ObjectKind::Feature if version >= 14 => 8,
        _ => 0,
    };
    let record = name_len + 36 + extra;
    let n = r.check_count(u64::from(count), record as u64, "records")?;
    let scavenger_slot = max_players.max(7);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let name = r.bytes(name_len, "name")?;
        let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        let stats_id = String::from_utf8_lossy(&name[..end]).into_owned();
        let id = r.u32("id")?;
        let x = r.u32("x")?;
        let y = r.u32("y")?;
        r.skip(4, "z")?;
        let degrees = r.u32("direction")?;
        let player = r.u32("player")?;
        r.skip(12 + extra, "record tail")?;
        // `bjoConvertPlayer` narrows the player to `int8_t`: 200 is −56, and a negative
        // player is the scavengers (`RemapWzMapPlayerNumber`).
        let owner = match kind {
            ObjectKind::Feature => Owner::None,
            _ if player == scavenger_slot || (player as i8) < 0 => Owner::Scavenger,
            _ => Owner::Player(u32::from(player as u8)),
        };
        // wzmaplib puts init droids on their tile's centre.
        let snap = |v: u32| {
            if kind == ObjectKind::Droid {
                (v & !127) + 64
            } else {
                v
            }
        };
        out.push(MapObject {
            kind,
            stats_id,
            owner,
            // The game's positions are `int`: a u32 above `i32::MAX` wraps negative.
            x: snap(x) as i32,
            y: snap(y) as i32,
            // DEG(d) = d · 8192 / 45, kept to 16 bits as the game does.
            direction: (u64::from(degrees) * 8192 / 45) as u16,
            id: Some(id),
            modules: 0,
            key: format!("record {i}"),
            refused: None,
            logged: Vec::new(),
        });
    }
    Ok((out, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, x: u32, y: u32, dir: u32, player: u32, extra: usize) -> Vec<u8> {
        let mut v = vec![0u8; 40];
        v[..name.len()].copy_from_slice(name.as_bytes());
        for w in [7, x, y, 0, dir, player, 0, 0, 0] {
            v.extend(w.to_le_bytes());
        }
        v.extend(vec![0u8; extra]);
        v
    }

    #[test]
    fn reads_records_and_refuses_lying_counts() {
        let mut b = b"stru".to_vec();
        b.extend(8u32.to_le_bytes());
        b.extend(2u32.to_le_bytes());
        b.extend(record("A0LightFactory", 1000, 2000, 90, 7, 44));
        b.extend(record("WallTower01", 300, 400, 0, 1, 44));
        let (objects, version) = read_bjo(&b, ObjectKind::Structure, 4).unwrap();
        assert_eq!(version, 8);
        assert_eq!(objects.len(), 2);
        assert_eq!(objects[0].stats_id, "A0LightFactory");
        assert_eq!(objects[0].direction, 0x4000);
        assert_eq!(objects[0].owner, Owner::Scavenger);
        assert_eq!(objects[1].owner, Owner::Player(1));
        // A count one too many: refused before reading, at the records' offset.
        b[8..12].copy_from_slice(&3u32.to_le_bytes());
        let e = read_bjo(&b, ObjectKind::Structure, 4).unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge);
        assert_eq!(e.location, Location::Offset(12));
        // A huge one: over the limit, refused at the count, before the bytes are weighed.
        b[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = read_bjo(&b, ObjectKind::Structure, 4).unwrap_err();
        assert_eq!(e.location, Location::Offset(8));
        assert_eq!(e.rule, Some("map/object-limit"));
        assert!(e.message.contains("65535"), "{e}");
    }

    #[test]
    fn players_narrow_to_the_games_int8_and_versions_are_the_games() {
        let mut b = b"stru".to_vec();
        b.extend(8u32.to_le_bytes());
        b.extend(3u32.to_le_bytes());
        b.extend(record("A0LightFactory", 1000, 2000, 0, 200, 44));
        b.extend(record("A0LightFactory", 1000, 2000, 0, 257, 44));
        b.extend(record("A0LightFactory", u32::MAX - 127, 2000, 0, 1, 44));
        let (o, _) = read_bjo(&b, ObjectKind::Structure, 4).unwrap();
        assert_eq!(o[0].owner, Owner::Scavenger);
        assert_eq!(o[1].owner, Owner::Player(1));
        assert_eq!(o[2].x, -128);
        // Features: 7 to 19; droids: any version.
        let mut f = b"feat".to_vec();
        f.extend(20u32.to_le_bytes());
        f.extend(0u32.to_le_bytes());
        assert!(read_bjo(&f, ObjectKind::Feature, 4).is_err());
        let mut d = b"dint".to_vec();
        d.extend(40u32.to_le_bytes());
        d.extend(0u32.to_le_bytes());
        assert!(read_bjo(&d, ObjectKind::Droid, 4).is_ok());
    }

    #[test]
    fn droids_snap_to_the_tile_centre() {
        let mut b = b"dint".to_vec();
        b.extend(8u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        b.extend(record("ConstructorDroid", 2300, 2300, 0, 0, 0));
        let (objects, _) = read_bjo(&b, ObjectKind::Droid, 4).unwrap();
        assert_eq!((objects[0].x, objects[0].y), (2240, 2240));
    }
}
