//! The water's pages, the fog and the sky per tileset.

use super::atmosphere::{
    FOG_BEGIN, FOG_END, WATER_SCROLL, default_fog_colour, palette_entry, sky_mesh, sky_page,
};
use super::terrain::water_mesh;
use super::tests::{map, source};
use super::*;
use crate::files::MemorySource;
use crate::map::place;
use glam::Vec2;

/// 4.3.3's `palette.txt` from entry 74 on, behind 74 lines of filler.
fn palette() -> String {
    let mut text = "1,1,1,ff\t// filler\n".repeat(74);
    text.push_str("ff,0,ff,ff\t// WZCOL_MAP_PREVIEW_HQ\nff,ff,00,ff\t// WZCOL_MAP_PREVIEW_OIL\n");
    text.push_str("b0,5f,08,ff\t// fog colour\nf0,e8,10,ff\t// team9 - yellow\n");
    text
}

fn with_pages(s: MemorySource) -> MemorySource {
    s.with("d/texpages/page-80-water-1.png", "png")
        .with("d/texpages/page-81-water-2.png", "png")
        .with("d/texpages/page-25-sky-arizona.png", "png")
        .with("d/texpages/page-25-sky-urban.png", "png")
}

fn scene_of(m: &Map, source: MemorySource) -> Model {
    let (files, roots) = (Files::new(source), vec![FileRef::Disk("d".into())]);
    let (stats, _) = Stats::load(&files, &roots);
    let p = place(m, &stats, &files, &roots);
    let s = scene(m, &p, &stats, &files, &roots, &SceneOptions::default());
    s.validate().unwrap();
    s
}

#[test]
fn water_pages_repeat_every_four_and_five_tiles_south_then_east() {
    let m = map(Vec::new(), &[(2, 2)]);
    let mesh = water_mesh(&m.terrain, &m.terrain_types).unwrap();
    assert_eq!(mesh.uv_sets, 2);
    // The first tile drawn is (2, 2) itself: its north-east corner (3, 2) is u = 2 tiles
    // south, v = 3 tiles east.
    let ne = mesh
        .corners
        .iter()
        .find(|c| mesh.points[c.point as usize].x == -(3.0 * 128.0))
        .unwrap();
    let south_east = Vec2::new(2.0, 3.0);
    assert_eq!(ne.uv[0], south_east / 4.0);
    assert_eq!(ne.uv[1], south_east / 5.0);
}

#[test]
fn water_multiplies_the_riverbed_with_the_first_page_scrolling_and_the_second_shading() {
    let m = map(Vec::new(), &[(2, 2)]);
    let s = scene_of(&m, with_pages(source()));
    let water = s.materials.iter().find(|m| m.name == "water").unwrap();
    assert_eq!(water.blend, BlendMode::Multiply);
    assert_eq!(water.uv_scroll, [WATER_SCROLL, 0.0]);
    let name = |t: Option<usize>| s.textures[t.unwrap()].name.clone();
    assert_eq!(name(water.base), "texpages/page-80-water-1.png");
    assert_eq!(name(water.shade), "texpages/page-81-water-2.png");
    // Without the second page: still the first, not shaded, and said so.
    let s = scene_of(&m, source().with("d/texpages/page-80-water-1.png", "png"));
    let water = s.materials.iter().find(|m| m.name == "water").unwrap();
    assert!(water.base.is_some() && water.shade.is_none());
    assert!(
        s.diagnostics
            .iter()
            .any(|d| d.message.contains("page-81-water-2.png"))
    );
}

#[test]
fn each_tileset_has_its_sky_and_fog() {
    // (tileset, sky page, degrees a second, fog colour without a palette)
    let cases = [
        (
            Tileset::Arizona,
            "page-25-sky-arizona.png",
            0.0,
            [0xb0, 0x8f, 0x5f],
        ),
        (
            Tileset::Urban,
            "page-25-sky-urban.png",
            0.5,
            [0x10, 0x10, 0x40],
        ),
        (
            Tileset::Rockies,
            "page-25-sky-urban.png",
            0.5,
            [0xb6, 0xe1, 0xec],
        ),
    ];
    for (tileset, page, turn, colour) in cases {
        println!("{tileset:?}");
        assert_eq!(sky_page(tileset), (page, turn));
        assert_eq!(default_fog_colour(tileset), colour);
        let mut m = map(Vec::new(), &[]);
        m.level.tileset = tileset;
        let s = scene_of(&m, with_pages(source()));
        let sky = s.environment.sky.as_ref().unwrap();
        assert_eq!(s.textures[sky.texture].name, format!("texpages/{page}"));
        assert_eq!(sky.turn_deg_per_s, turn);
        assert_eq!(sky.scale, [10000.0, 5000.0, 10000.0]);
        assert_eq!(sky.lift, -1250.0);
        let fog = s.environment.fog.unwrap();
        assert_eq!(fog.colour, colour.map(|c| f32::from(c) / 255.0));
        // With the game's palette, its fog colour for every tileset.
        let s = scene_of(&m, with_pages(source()).with("d/palette.txt", palette()));
        let fog = s.environment.fog.unwrap();
        assert_eq!(
            fog.colour,
            [0xb0u8, 0x5f, 0x08].map(|c| f32::from(c) / 255.0)
        );
    }
}

#[test]
fn fog_follows_the_camera_distance_as_update_fog_distance_does() {
    // The game measures its fog on the clip-space z of its view space, which the window
    // (1024 × 768) scales by 1.6; its projection: frustum near 330, far 100000.
    let clip_z = |depth: f32| {
        let d = depth * 1.6;
        (100_000.0 + 330.0) / (100_000.0 - 330.0) * d
            - 2.0 * 100_000.0 * 330.0 / (100_000.0 - 330.0)
    };
    let fog = crate::model::Fog {
        colour: [0.0; 3],
        begin: FOG_BEGIN,
        end: FOG_END,
    };
    // At the game's start distance (mapZoom 2600, scaled): fogstart 4000, fogend 8000.
    let start = 2600.0 / 1.6;
    let (begin, end) = fog.range(start);
    assert!((clip_z(begin) - 4000.0).abs() < 0.5, "{}", clip_z(begin));
    assert!((clip_z(end) - 8000.0).abs() < 0.5, "{}", clip_z(end));
    // 1000 world units farther out (1600 scaled): both 1.3 × 1600 deeper.
    let (begin, end) = fog.range(start + 1000.0);
    assert!((clip_z(begin) - (4000.0 + 1.3 * 1600.0)).abs() < 0.5);
    assert!((clip_z(end) - (8000.0 + 1.3 * 1600.0)).abs() < 0.5);
}

#[test]
fn without_the_sky_page_there_is_fog_but_no_sky() {
    let s = scene_of(&map(Vec::new(), &[]), source());
    assert!(s.environment.sky.is_none());
    assert!(s.environment.fog.is_some());
}

#[test]
fn palette_entries_are_hexadecimal_bytes_before_the_comment() {
    assert_eq!(palette_entry(&palette(), 76), Some([0xb0, 0x5f, 0x08]));
    assert_eq!(palette_entry(&palette(), 77), Some([0xf0, 0xe8, 0x10]));
    assert_eq!(palette_entry(&palette(), 78), None);
    assert_eq!(palette_entry("zz,1,1,ff", 0), None);
    assert_eq!(palette_entry("1,2", 0), None);
}

#[test]
fn the_sky_box_is_four_walls_of_three_bands_and_a_cap() {
    let sky = sky_mesh();
    assert_eq!(sky.corners.len(), 78);
    assert!(sky.points.iter().all(|p| p.abs().max_element() <= 1.0));
    // The top is narrowed by 0.15; the texture spans twice per wall, v from 0.01 (top)
    // to 0.99 (baseline); the bottom band and the cap are the texture's bottom row.
    for c in &sky.corners {
        let p = sky.points[c.point as usize];
        if p.y == 1.0 {
            assert_eq!(p.x.abs(), 0.85);
            assert_eq!(c.uv[0].y, 0.01);
        }
        if p.y == -1.0 {
            assert_eq!(c.uv[0], Vec2::new(0.0, 0.99));
        }
        assert!((0.0..=2.0).contains(&c.uv[0].x));
    }
}
