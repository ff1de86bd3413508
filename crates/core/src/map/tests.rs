//! Hostile and hand-made inputs for the map readers: every refusal names its place, none
//! panics, none allocates what the input does not hold.

use super::*;
use crate::formats::ErrorKind;
use crate::model::Location;

fn game_map(version: u32, w: u32, h: u32, tiles: &[(u16, u16)], gateways: &[[u8; 4]]) -> Vec<u8> {
    let mut b = b"map ".to_vec();
    for v in [version, w, h] {
        b.extend(v.to_le_bytes());
    }
    for &(t, ht) in tiles {
        b.extend(t.to_le_bytes());
        if version >= 40 {
            b.extend(ht.to_le_bytes());
        } else {
            b.push(ht as u8);
        }
    }
    b.extend(1u32.to_le_bytes());
    b.extend((gateways.len() as u32).to_le_bytes());
    for g in gateways {
        b.extend(g);
    }
    b
}

#[test]
fn game_map_versions_and_bits() {
    let tiles = [
        (0x8000 | 0x2000 | 5, 10),
        (0x4000 | 0x0800 | 7, 255),
        (1, 0),
        (2, 3),
    ];
    let (t, trailing) = read_game_map(&game_map(10, 2, 2, &tiles, &[[1, 1, 1, 5]])).unwrap();
    assert_eq!(trailing, 0);
    assert_eq!(t.heights, [20, 510, 0, 6]);
    assert_eq!(t.tile_number(0, 0), Some(5));
    assert_eq!(t.rotation(0, 0), Some(2));
    assert_eq!(t.textures[1] & bits::TRIFLIP, bits::TRIFLIP);
    assert_eq!(t.gateways.len(), 1);
    let tiles40 = [(1, 510), (1, 0), (1, 7), (1, 8)];
    let (t, _) = read_game_map(&game_map(40, 2, 2, &tiles40, &[])).unwrap();
    assert_eq!(t.heights, [510, 0, 7, 8]);
}

#[test]
fn hostile_game_maps_are_refused_with_offsets() {
    let good = game_map(10, 2, 2, &[(1, 1); 4], &[]);
    let cases: Vec<(Vec<u8>, ErrorKind, u64)> = vec![
        (Vec::new(), ErrorKind::EmptyFile, 0),
        (b"pam ".to_vec(), ErrorKind::BadMagic, 0),
        (
            game_map(9, 2, 2, &[], &[]),
            ErrorKind::UnsupportedVersion,
            4,
        ),
        (
            game_map(41, 2, 2, &[], &[]),
            ErrorKind::UnsupportedVersion,
            4,
        ),
        (game_map(10, 1, 2, &[], &[]), ErrorKind::Invalid, 8),
        (game_map(10, 257, 256, &[], &[]), ErrorKind::Invalid, 8),
        (
            game_map(10, u32::MAX, u32::MAX, &[], &[]),
            ErrorKind::Invalid,
            8,
        ),
        // 256×256 claimed, 4 tiles present: refused before allocating.
        (
            game_map(10, 256, 256, &[(1, 1); 4], &[]),
            ErrorKind::CountTooLarge,
            16,
        ),
        (
            game_map(40, 2, 2, &[(1, 511), (1, 0), (1, 0), (1, 0)], &[]),
            ErrorKind::BadValue,
            18,
        ),
        (good[..good.len() - 3].to_vec(), ErrorKind::Truncated, 32),
    ];
    for (i, (bytes, kind, offset)) in cases.into_iter().enumerate() {
        let e = read_game_map(&bytes).unwrap_err();
        assert_eq!(
            (e.kind, e.location),
            (kind, Location::Offset(offset)),
            "case {i}: {e}"
        );
    }
    // A gateway count that lies.
    let mut lying = game_map(10, 2, 2, &[(1, 1); 4], &[]);
    let n = lying.len();
    lying[n - 4..].copy_from_slice(&1000u32.to_le_bytes());
    let e = read_game_map(&lying).unwrap_err();
    assert_eq!(e.kind, ErrorKind::CountTooLarge);
    // Every truncation of a good file is an error, never a panic.
    for cut in 0..good.len() {
        assert!(read_game_map(&good[..cut]).is_err(), "cut at {cut}");
    }
}

#[test]
fn terrain_types() {
    let mut b = b"ttyp".to_vec();
    for v in [8u32, 3] {
        b.extend(v.to_le_bytes());
    }
    for t in [0u16, 7, 8] {
        b.extend(t.to_le_bytes());
    }
    assert_eq!(read_terrain_types(&b).unwrap(), (vec![0, 7, 8], 8));
    b[8..12].copy_from_slice(&255u32.to_le_bytes());
    assert_eq!(
        read_terrain_types(&b).unwrap_err().location,
        Location::Offset(8)
    );
    b[8..12].copy_from_slice(&200u32.to_le_bytes());
    assert_eq!(
        read_terrain_types(&b).unwrap_err().kind,
        ErrorKind::CountTooLarge
    );
    b[8..12].copy_from_slice(&3u32.to_le_bytes());
    b[16..18].copy_from_slice(&12u16.to_le_bytes());
    assert_eq!(
        read_terrain_types(&b).unwrap_err().location,
        Location::Offset(16)
    );
}
