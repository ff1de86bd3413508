//! Maps in the desktop's gallery, through its thumbnail batch: a classic map package
//! (`.xplayers.lev` at the root, the map in `multiplay/maps/`) that also holds a model
//! lists both, the map's tile named after its level; the map's thumbnail is its 3D
//! preview: the terrain over a good part of the picture, its objects the game's models
//! with the game's data (it differs from the same map drawn without stats, where they
//! are boxes).
//! The tiles in the window, the click that opens a map and a dropped map folder:
//! `crates/app/tests/app/map_gallery.rs`.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use vitrine::app::commands::{AppCommand, DocumentCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::gallery::TileKind;
use vitrine::app::gallery::cache::Key;
use vitrine::app::gallery::thumbs::{ThumbDevice, Thumbnails, TileOptions, render_key};
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::desktop::window::thumbnail_cache::DiskCache;
use vitrine::files::FileRef;
use vitrine::formats::LoadOptions;
use vitrine::render::batch::BatchDevice;
use vitrine_test_needs::vitrine_test;

const PIE: &str = "PIE 3\nTYPE 200\nLEVELS 1\nLEVEL 1\nPOINTS 3\n\t0 0 0\n\t40 0 0\n\t0 40 0\n\
                   POLYGONS 1\n\t200 3 0 1 2 0 0 1 0 0 1\n";

/// The level file of the package: Sk-Startup as `mp.wz`'s `addon.lev` defines it.
const LEV: &str = "level Sk-Startup\nplayers 2\ntype 14\ndataset MULTI_CAM_1\n\
                   game \"multiplay/maps/2c-startup.gam\"\n";

/// `startup.wz`: `mp.wz`'s 2c-startup as a classic map package, and a model.
fn map_package(mp: &Path, dir: &Path) -> PathBuf {
    let files = vitrine::files::disk();
    let at = |p: &str| files.parse(Path::new(&format!("{}!/{p}", mp.display())));
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default();
        let mut put = |name: &str, bytes: &[u8]| {
            z.start_file(name, opts).unwrap();
            z.write_all(bytes).unwrap();
        };
        put("2c-startup.xplayers.lev", LEV.as_bytes());
        put("components/bodies/tank.pie", PIE.as_bytes());
        let gam = "multiplay/maps/2c-startup.gam";
        put(gam, &files.read(&at(gam)).unwrap());
        let folder = "multiplay/maps/2c-startup";
        for (name, file, _) in files.list(&at(folder)).unwrap() {
            put(&format!("{folder}/{name}"), &files.read(&file).unwrap());
        }
        z.finish().unwrap();
    }
    let wz = dir.join("startup.wz");
    std::fs::write(&wz, buf.into_inner()).unwrap();
    wz
}

/// Draws the thumbnails of `state`'s gallery with `options` into `cache`, until done.
fn draw(state: &mut AppState, host: &vitrine::desktop::window::DesktopHost, options: &TileOptions) {
    let gpu = common::gpu();
    let key = render_key(0, [40, 40, 40], &options.models);
    let device = ThumbDevice::Batch(BatchDevice::Shared(gpu.device.clone(), gpu.queue.clone()));
    let g = state.panels.gallery.as_mut().unwrap();
    let mut t = Thumbnails::start(host, device, &g.tiles, None, key, options, || {});
    let ctx = eframe::egui::Context::default();
    let start = Instant::now();
    while t.done < t.total && start.elapsed() < Duration::from_secs(120) {
        t.poll(&ctx, &mut g.tiles);
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(t.done, t.total, "all thumbnails done");
    for tile in &g.tiles {
        assert_eq!(tile.error, None, "{}", tile.name);
    }
}

#[vitrine_test(shared, gpu)]
fn a_map_packages_gallery_shows_its_map_with_a_3d_preview() {
    let wz = common::wz2100();
    let tmp = tempfile::tempdir().unwrap();
    let package = map_package(&wz.join("archives/mp.wz"), tmp.path());
    let cache = DiskCache::at(&tmp.path().join("cache"));
    let host = vitrine::desktop::window::DesktopHost::with_thumbnails(None, cache);
    let mut state = AppState::new(Settings::default(), host.clone());
    apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(FileRef::Disk(package.clone()))),
    );
    let g = state
        .panels
        .gallery
        .as_ref()
        .expect("the package opens as a gallery");
    let tiles: Vec<(&str, TileKind, &str)> = g
        .tiles
        .iter()
        .map(|t| (t.name.as_str(), t.kind, t.folder.as_str()))
        .collect();
    assert_eq!(
        tiles,
        [
            (
                "tank.pie",
                TileKind::Model(vitrine::model::Format::Pie),
                "components/bodies"
            ),
            ("Sk-Startup", TileKind::Map, "multiplay/maps"),
        ]
    );
    let map = g.tiles[1].file.clone();

    let data = LoadOptions {
        data_roots: vec![
            FileRef::Disk(wz.join("data/mp")),
            FileRef::Disk(wz.join("data/base")),
        ],
        ..Default::default()
    };
    let bare = LoadOptions::default();
    let mut pictures = Vec::new();
    for options in [&bare, &data] {
        let options = TileOptions::all(options.clone());
        draw(&mut state, &host, &options);
        let settings = render_key(0, [40, 40, 40], &options.models);
        let bytes = vitrine::files::disk().read(&map).unwrap();
        let cache = DiskCache::at(&tmp.path().join("cache"));
        let picture =
            vitrine::app::host::ThumbnailCache::get(&cache, Key::new(&map, &bytes, &settings))
                .expect("the map's thumbnail was drawn and cached");
        pictures.push(picture);
    }
    let [plain, textured] = [&pictures[0], &pictures[1]];
    if let Some(out) = std::env::var_os("VITRINE_TEST_PICTURES") {
        let out = PathBuf::from(out);
        textured.save(out.join("gallery-map-thumb.png")).unwrap();
        plain.save(out.join("gallery-map-thumb-plain.png")).unwrap();
    }
    let all = textured.pixels().count();
    let ground = textured
        .pixels()
        .filter(|p| p.0[..3] != [40, 40, 40])
        .count();
    assert!(
        ground * 6 > all,
        "the map covers a sixth of the picture: {ground} of {all}"
    );
    let differ = textured
        .pixels()
        .zip(plain.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 24))
        .count();
    assert!(
        differ > 100,
        "the objects are the game's models, not the boxes drawn without stats: {differ} \
         pixels differ"
    );
}
