//! Hostile and hand-made inputs for the map readers: every refusal names its place, none
//! panics, none allocates what the input does not hold.

use super::*;
use crate::formats::ErrorKind;
use crate::model::Location;

pub(crate) fn game_map(
    version: u32,
    w: u32,
    h: u32,
    tiles: &[(u16, u16)],
    gateways: &[[u8; 4]],
) -> Vec<u8> {
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

/// A 4×4 v40 game.map.
fn small_map() -> Vec<u8> {
    game_map(40, 4, 4, &[(1, 100); 16], &[])
}

fn package(files: &[(&str, &[u8])]) -> crate::files::Files {
    let mut source = crate::files::MemorySource::new();
    for (path, bytes) in files {
        source.insert(format!("p/{path}"), bytes.to_vec());
    }
    crate::files::Files::new(source)
}

#[test]
fn the_three_package_shapes_a_folder_and_a_bare_game_map() {
    use crate::files::FileRef;
    let root = FileRef::Disk("p".into());
    let map = small_map();
    let structs = br#"{"version": 2, "structures": [{"name": "A0LightFactory", "position": [320, 320], "rotation": 0, "player": 0}]}"#;
    // Classic: a .lev naming multiplay/maps/2c-x.gam; BJO and INI beside each other.
    let mut bjo = b"stru".to_vec();
    bjo.extend(8u32.to_le_bytes());
    bjo.extend(0u32.to_le_bytes());
    let lev = b"level Sk-X\nplayers 2\ndataset MULTI_CAM_3\ngame \"multiplay/maps/2c-x.gam\"\n";
    let ini = b"[structure_0]\nname = A0LightFactory\nposition = 320, 320, 0\nplayer = 0\n";
    let files = package(&[
        ("2c-x.addon.lev", lev),
        ("multiplay/maps/2c-x/game.map", &map),
        ("multiplay/maps/2c-x/struct.bjo", &bjo),
        ("multiplay/maps/2c-x/struct.ini", ini),
    ]);
    let levels = find_maps(&files, &root).unwrap();
    assert_eq!(levels.len(), 1);
    assert_eq!(
        (levels[0].shape, levels[0].tileset),
        (Shape::Classic, Tileset::Rockies)
    );
    let m = open(&files, &levels[0]).unwrap();
    // The game reads the BJO (empty here); the INI is listed, not used.
    assert_eq!(m.objects.len(), 0);
    let used: Vec<(&str, bool)> = m.files.iter().map(|f| (f.name.as_str(), f.used)).collect();
    assert_eq!(
        used,
        [
            ("game.map", true),
            ("struct.bjo", true),
            ("struct.ini", false)
        ]
    );
    // The map folder alone finds the same level through the .lev two folders up.
    let folder = root.join("multiplay").join("maps").join("2c-x");
    assert_eq!(find_maps(&files, &folder).unwrap()[0].name, "Sk-X");
    assert_eq!(
        find_maps(&files, &folder.join("game.map")).unwrap()[0].name,
        "Sk-X"
    );
    // 4.x map database: level.json at the root beside game.map and the JSON objects.
    let level = br#"{"name": "Mini", "players": 2, "tileset": "urban"}"#;
    let files = package(&[
        ("level.json", level),
        ("game.map", &map),
        ("struct.json", structs),
    ]);
    let l = open_source(&files, &root, None).unwrap();
    assert_eq!(
        (l.shape, l.tileset, l.name.as_str()),
        (Shape::LevelJson, Tileset::Urban, "Mini")
    );
    assert_eq!(open(&files, &l).unwrap().objects.len(), 1);
    // Script-generated, at the package root: the script's map, the terrain types beside.
    let js: &[u8] = b"setMapData(2, 3, [1, 2, 3, 4, 5, 6], [0, 2, 4, 6, 8, 10],\n\
        [{name: 'A0CommandCentre', position: [128, 128], direction: 0, modules: 0, player: 0}],\n\
        [], [{name: 'OilResource', position: [64, 320], direction: 0}]);";
    let ttp = [
        b"ttyp".as_slice(),
        &8u32.to_le_bytes(),
        &1u32.to_le_bytes(),
        &7u16.to_le_bytes(),
    ]
    .concat();
    let files = package(&[("level.json", level), ("game.js", js), ("ttypes.ttp", &ttp)]);
    let l = open_source(&files, &root, None).unwrap();
    assert_eq!(l.shape, Shape::Script);
    let m = open(&files, &l).unwrap();
    assert_eq!((m.terrain.width, m.terrain.height), (2, 3));
    assert_eq!(m.terrain.heights, [0, 2, 4, 6, 8, 10]);
    assert_eq!(m.terrain_types, [7]);
    assert_eq!(m.objects.len(), 2);
    assert_eq!(m.files[0].format, super::FileFormat::Script);
    // A script that fails: refused, naming game.js and the line.
    let files = package(&[("level.json", level), ("game.js", b"\nsetMapData();")]);
    let l = open_source(&files, &root, None).unwrap();
    let e = open(&files, &l).unwrap_err();
    assert!(e.to_string().contains("game.js:2: "), "{e}");
    assert_eq!(e.rule, Some("map/script-refused"));
    // A folder no level names: the folder's name and the game's fallback tileset.
    let files = package(&[("4c-lone/game.map", &map)]);
    let l = open_source(&files, &root.join("4c-lone"), None).unwrap();
    assert_eq!(
        (l.shape, l.players, l.tileset),
        (Shape::Folder, Some(4), Tileset::Arizona)
    );
    // Nothing there.
    let files = package(&[("readme.txt", b"hi")]);
    assert!(find_maps(&files, &root).is_err());
}

/// `gameRand` and the riverbed pass draw from `std::mt19937`: the C++ standard
/// ([rand.predef]) requires the 10000th output of a default-seeded (5489) one to be
/// 4123659995; its first outputs are the reference `mt19937ar.c`'s.
#[test]
fn the_games_generator_is_std_mt19937() {
    let mut mt = super::GameRng::new(5489);
    let first: Vec<u32> = (0..4).map(|_| mt.next_u32()).collect();
    assert_eq!(
        first,
        [3_499_211_612, 581_869_302, 3_890_346_734, 3_586_334_585]
    );
    let mut mt = super::GameRng::new(5489);
    let last = (0..10_000).map(|_| mt.next_u32()).last();
    assert_eq!(last, Some(4_123_659_995));
}
