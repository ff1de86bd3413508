//! `vitrine publish` of a map package: a classic package (`.xplayers.lev` at the root,
//! the map in `multiplay/maps/`) made from the installed game's `mp.wz` 2c-startup, over
//! the game's `mp.wz` and `base.wz` (a game-data test: reported ignored without the
//! game, a build error with `VITRINE_REQUIRE_GAME=1`), gives a *Maps* section with the map's tile (named after its level, its
//! thumbnail the map's 3D preview, its link opening the `game.map` on the published
//! page), and `site.wz` holds what the map needs: its own files, the stats, the
//! objects' models and the tileset's tile images (exit 0 includes the check that
//! `site.wz` alone reproduces every texture the map's scene resolved).

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine_test_needs::vitrine_test;

/// The level file of the package: Sk-Startup as `mp.wz`'s `addon.lev` defines it.
const LEV: &str = "level Sk-Startup\nplayers 2\ntype 14\ndataset MULTI_CAM_1\n\
                   game \"multiplay/maps/2c-startup.gam\"\n";

/// `startup.wz` in `dir`: `mp`'s 2c-startup as a classic map package.
fn map_package(mp: &Path, dir: &Path) -> PathBuf {
    let mut src = zip::ZipArchive::new(std::fs::File::open(mp).unwrap()).unwrap();
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("2c-startup.xplayers.lev", opts).unwrap();
        z.write_all(LEV.as_bytes()).unwrap();
        let names: Vec<String> = src.file_names().map(|n| n.unwrap().into_owned()).collect();
        for name in names {
            let ours = name.starts_with("multiplay/maps/2c-startup/")
                || name == "multiplay/maps/2c-startup.gam";
            if !ours || name.ends_with('/') {
                continue;
            }
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut src.by_name(&name).unwrap(), &mut bytes).unwrap();
            z.start_file(name.as_str(), opts).unwrap();
            z.write_all(&bytes).unwrap();
        }
        z.finish().unwrap();
    }
    let wz = dir.join("startup.wz");
    std::fs::write(&wz, buf.into_inner()).unwrap();
    wz
}

/// A folder with the files of a built web page (their contents do not matter).
fn fake_page(dir: &Path) -> PathBuf {
    let page = dir.join("page");
    std::fs::create_dir_all(&page).unwrap();
    for (name, _) in vitrine::publish::site::PAGE_FILES {
        std::fs::write(page.join(name), "x").unwrap();
    }
    page
}

#[vitrine_test(gpu, game)]
fn a_map_package_publishes_a_map_tile_with_its_preview() {
    let data = common::game_data();
    crate::common::needs_gpu();
    let tmp = common::temp_dir("publish-map");
    let package = map_package(&data.join("mp.wz"), tmp.path());
    let page = fake_page(tmp.path());
    let site = tmp.path().join("site");
    let out = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .arg("publish")
        .arg(&package)
        .arg("--data")
        .arg(data.join("mp.wz"))
        .arg("--data")
        .arg(data.join("base.wz"))
        .arg("-o")
        .arg(&site)
        .arg("--page")
        .arg(&page)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("1 map"), "{said}");

    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("site.json")).unwrap()).unwrap();
    let maps = json["maps"].as_array().expect("site.json lists the maps");
    assert_eq!(maps.len(), 1, "{json}");
    let map = &maps[0];
    assert_eq!(map["name"], "Sk-Startup");
    assert_eq!(map["path"], "multiplay/maps/2c-startup/game.map");
    assert_eq!(
        map["link"],
        "view.html?url=site.wz#model=multiplay/maps/2c-startup/game.map"
    );
    assert!(
        json["models"].as_array().unwrap().is_empty(),
        "the map is no model tile"
    );

    // site.wz: the map's own files, the stats, the objects' models, the tile images.
    let z = zip::ZipArchive::new(std::fs::File::open(site.join("site.wz")).unwrap()).unwrap();
    let names: Vec<String> = z.file_names().map(|n| n.unwrap().into_owned()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    for want in [
        "2c-startup.xplayers.lev",
        "multiplay/maps/2c-startup/game.map",
        "multiplay/maps/2c-startup/ttypes.ttp",
        "multiplay/maps/2c-startup/struct.json",
        "stats/structure.json",
    ] {
        assert!(names.contains(&want), "{want} not in site.wz: {names:?}");
    }
    let tiles = names
        .iter()
        .filter(|n| n.starts_with("texpages/tertilesc1hw-128/tile-"))
        .count();
    assert!(tiles > 10, "{tiles} Arizona tile images");
    assert!(
        names.iter().any(|n| n.starts_with("structs/")),
        "the structures' models"
    );

    // The tile: the map's 3D preview, the terrain over a good part of it.
    let thumb = map["thumb"].as_str().expect("a thumbnail");
    let img = image::open(site.join(thumb)).unwrap().into_rgba8();
    assert_eq!(img.dimensions(), (256, 256));
    let drawn = img.pixels().filter(|p| p.0[3] > 0).count();
    assert!(
        drawn * 6 > 256 * 256,
        "the map covers a sixth of its thumbnail: {drawn} pixels"
    );
    let html = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(html.contains("<h2>Maps<span class=\"count\">1</span></h2>"));
    assert!(html.contains(&format!("<img src=\"{thumb}\"")));
    assert!(html.contains("1 map"), "the header counts the map");
    assert!(!html.contains("Models<span"), "no empty models section");
}

/// `vitrine publish DIR` of a folder of the map database's packages (two of
/// `mapdb-2p/`), over the installed game's data: a tile per map with its 3D preview, its
/// name and the facts of its `level.json` (players, tileset, author, licence, date),
/// linking to the page on the package (copied as it is) over `site.wz`, which holds the
/// game's data the maps need and none of the maps' own files.
#[vitrine_test(shared, gpu, game)]
fn a_folder_of_map_packages_publishes_a_tile_per_map_with_its_facts() {
    let data = common::game_data();
    crate::common::needs_gpu();
    let tmp = common::temp_dir("publish-collection");
    let folder = tmp.path().join("mapdb");
    std::fs::create_dir_all(&folder).unwrap();
    let mapdb = common::wz2100().join("mapdb-2p");
    let names = ["AValley", "Arena_22"];
    for n in names {
        std::fs::copy(
            mapdb.join(format!("{n}.wz")),
            folder.join(format!("{n}.wz")),
        )
        .unwrap();
    }
    let page = fake_page(tmp.path());
    let site = tmp.path().join("site");
    let out = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .arg("publish")
        .arg(&folder)
        .args(["--data", data.join("mp.wz").to_str().unwrap()])
        .args(["--data", data.join("base.wz").to_str().unwrap()])
        .arg("-o")
        .arg(&site)
        .arg("--page")
        .arg(&page)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("published 2 maps"), "{said}");

    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("site.json")).unwrap()).unwrap();
    let maps = json["maps"].as_array().unwrap();
    assert_eq!(maps.len(), 2, "{json}");
    let html = std::fs::read_to_string(site.join("index.html")).unwrap();
    for (map, name) in maps.iter().zip(names) {
        // The facts: the package's own level.json.
        let level: serde_json::Value = {
            let mut z = zip::ZipArchive::new(
                std::fs::File::open(mapdb.join(format!("{name}.wz"))).unwrap(),
            )
            .unwrap();
            let mut s = String::new();
            std::io::Read::read_to_string(&mut z.by_name("level.json").unwrap(), &mut s).unwrap();
            serde_json::from_str(&s).unwrap()
        };
        assert_eq!(map["name"], level["name"]);
        assert_eq!(map["players"], level["players"]);
        assert_eq!(map["tileset"], level["tileset"]);
        assert_eq!(map["licence"], level["spdx-license-id"]);
        assert_eq!(map["created"], level["created-date"]);
        let author = level["author"]["name"].as_str().unwrap();
        assert!(map["author"].as_str().unwrap().starts_with(author), "{map}");
        // The package as it is, opened on the page over site.wz.
        let path = map["path"].as_str().unwrap();
        assert_eq!(path, format!("maps/{name}.wz"));
        assert_eq!(
            std::fs::read(site.join(path)).unwrap(),
            std::fs::read(mapdb.join(format!("{name}.wz"))).unwrap()
        );
        assert_eq!(
            map["link"],
            format!("view.html?url=maps/{name}.wz&data=site.wz#model=game.map")
        );
        // Its preview: the map edge to edge (the bottom row is all map).
        let thumb = map["thumb"].as_str().expect("a preview");
        let img = image::open(site.join(thumb)).unwrap().into_rgba8();
        let (w, h) = img.dimensions();
        assert_eq!(w.max(h), 512, "{w}×{h}");
        assert!(
            (0..w).all(|x| img.get_pixel(x, h - 1).0[3] == 255),
            "{thumb}"
        );
        // Its tile says it all.
        for fact in [
            format!(
                "{} players · {}",
                level["players"],
                level["tileset"].as_str().unwrap()
            ),
            format!("by {author}"),
            level["spdx-license-id"].as_str().unwrap().to_string(),
        ] {
            assert!(html.contains(&fact), "{fact} not on the page");
        }
        assert!(html.contains(&format!("<img src=\"{thumb}\"")));
    }
    // site.wz: the game's data the maps need (stats, models, tile images and grounds),
    // none of the maps' own files.
    let z = zip::ZipArchive::new(std::fs::File::open(site.join("site.wz")).unwrap()).unwrap();
    let names: Vec<String> = z.file_names().map(|n| n.unwrap().into_owned()).collect();
    assert!(
        names.iter().any(|n| n == "stats/structure.json"),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n.starts_with("structs/")));
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("texpages/tertilesc3hw-128/")),
        "Rockies"
    );
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("texpages/tertilesc1hw-128/")),
        "Arizona"
    );
    for own in ["game.map", "level.json", "struct.json", "ttypes.ttp"] {
        assert!(!names.iter().any(|n| n == own), "{own} in site.wz");
    }
}
