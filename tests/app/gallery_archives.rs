//! Archives in the gallery and through the thumbnail pipeline (`render::batch`):
//! a hostile mod archive (a broken entry, an entry declaring 4 GiB, a `..` entry) gives
//! error tiles and the rest of the gallery works; a truncated archive is a message, not
//! a crash; the thumbnail cache makes a reopening draw nothing; every model of the real
//! `mp.wz`, with `data/base` as the lower layer, loads with all its textures and renders
//! non-blank. (Nested folders, mixed case and a texture in a lower layer through the
//! command line: `tests/cli/inputs.rs`.)

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use vitrine::app::commands::{AppCommand, DocumentCommand};
use vitrine::app::dispatch::apply;
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

/// Replaces the 4-byte little-endian field at `offset` after every header of the entry
/// named `name` (local header: sizes at 18/22; central: at 20/24).
fn patch_entry(bytes: &mut [u8], name: &str, local: usize, central: usize, value: u32) {
    for (sig, off, name_at) in [
        (0x04034b50u32, local, 30usize),
        (0x02014b50u32, central, 46usize),
    ] {
        let sig = sig.to_le_bytes();
        let mut i = 0;
        while i + name_at + name.len() <= bytes.len() {
            if bytes[i..i + 4] == sig
                && &bytes[i + name_at..i + name_at + name.len()] == name.as_bytes()
            {
                bytes[i + off..i + off + 4].copy_from_slice(&value.to_le_bytes());
            }
            i += 1;
        }
    }
}

/// `hostile.wz`: two good models in nested, mixed-case folders, a model whose deflated
/// data is corrupt, one that declares 4 GiB, one named `../escape.pie`.
fn hostile_archive(dir: &Path) -> PathBuf {
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let deflate = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        let long = PIE.repeat(40);
        for (name, body) in [
            ("Components/Bodies/Good.PIE", PIE),
            ("structs/deep/inner/good2.pie", PIE),
            ("broken.pie", long.as_str()),
            ("huge.pie", PIE),
            ("../escape.pie", PIE),
        ] {
            z.start_file(name, deflate).unwrap();
            z.write_all(body.as_bytes()).unwrap();
        }
        z.finish().unwrap();
    }
    let mut bytes = buf.into_inner();
    // Corrupt the deflate stream of broken.pie (its data follows its local header).
    let at = bytes.windows(10).position(|w| w == b"broken.pie").unwrap();
    for b in &mut bytes[at + 20..at + 60] {
        *b ^= 0x5a;
    }
    // huge.pie declares 4 GiB uncompressed.
    patch_entry(&mut bytes, "huge.pie", 22, 24, 0xFFFF_FFF0);
    let wz = dir.join("hostile.wz");
    std::fs::write(&wz, bytes).unwrap();
    wz
}

/// Runs `t` until every thumbnail is done (or a minute passes).
fn finish(t: &mut Thumbnails, state: &mut AppState) {
    let ctx = eframe::egui::Context::default();
    let start = Instant::now();
    let g = state.panels.gallery.as_mut().unwrap();
    while t.done < t.total && start.elapsed() < Duration::from_secs(60) {
        t.poll(&ctx, &mut g.tiles);
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(t.done, t.total, "all thumbnails done");
}

#[vitrine_test(gpu)]
fn a_hostile_archive_gives_error_tiles_and_the_rest_works() {
    hostile_archive_thumbnails(|gpu| {
        ThumbDevice::Batch(BatchDevice::Shared(gpu.device.clone(), gpu.queue.clone()))
    });
}

/// The browser's producer (slices of the window's frames on the window's device), run
/// here on a native device: the same tiles, errors and cache hits as the batch's.
#[vitrine_test(gpu)]
fn thumbnails_in_frame_slices_on_the_window_device_match_the_batch() {
    hostile_archive_thumbnails(|gpu| ThumbDevice::Window(gpu.device.clone(), gpu.queue.clone()));
}

fn hostile_archive_thumbnails(device: impl Fn(&vitrine::render::Gpu) -> ThumbDevice) {
    let gpu = crate::common::gpu();
    let tmp = tempfile::tempdir().unwrap();
    let wz = hostile_archive(tmp.path());
    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(FileRef::Disk(wz.clone()))),
    );
    let g = state
        .panels
        .gallery
        .as_ref()
        .expect("an archive opens as a gallery");
    let names: Vec<&str> = g.tiles.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Good.PIE", "broken.pie", "huge.pie", "good2.pie"]);
    assert!(
        g.listing_errors
            .iter()
            .any(|(p, e)| p.ends_with("../escape.pie") && e.contains("leaves the archive")),
        "{:?}",
        g.listing_errors
    );
    assert!(!tmp.path().parent().unwrap().join("escape.pie").exists());

    let cache = DiskCache::at(&tmp.path().join("cache"));
    let host = vitrine::desktop::window::DesktopHost::with_thumbnails(None, cache);
    let key = render_key(0, [40, 40, 40], &LoadOptions::default());
    let mut t = Thumbnails::start(
        &*host,
        device(&gpu),
        &g.tiles,
        None,
        key.clone(),
        &TileOptions::all(LoadOptions::default()),
        || {},
    );
    finish(&mut t, &mut state);
    let g = state.panels.gallery.as_ref().unwrap();
    let error = |name: &str| {
        g.tiles
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| t.error.clone())
    };
    assert_eq!(error("Good.PIE"), None);
    assert_eq!(error("good2.pie"), None);
    let broken = error("broken.pie").expect("the corrupt entry is an error tile");
    assert!(broken.contains("broken.pie"), "{broken}");
    let huge = error("huge.pie").expect("the 4 GiB entry is an error tile");
    assert!(huge.contains("limit"), "{huge}");
    assert!(t.texture(0).is_some() && t.texture(3).is_some());
    assert_eq!(t.from_cache, 0);

    // Reopened: the good ones come from the disk cache, nothing is drawn again.
    let mut again = Thumbnails::start(
        &*host,
        device(&gpu),
        &state.panels.gallery.as_ref().unwrap().tiles,
        None,
        key,
        &TileOptions::all(LoadOptions::default()),
        || {},
    );
    finish(&mut again, &mut state);
    assert_eq!(again.from_cache, 2, "the two good thumbnails were cached");
}

#[test]
fn a_truncated_archive_is_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    let wz = hostile_archive(tmp.path());
    let bytes = std::fs::read(&wz).unwrap();
    let cut = tmp.path().join("cut.wz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let mut state = AppState::new(
        Settings::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    apply(
        &mut state,
        AppCommand::Gallery(vitrine::app::gallery::GalleryCommand::OpenSource(
            FileRef::archive_root(&cut),
        )),
    );
    assert!(state.panels.gallery.is_none());
    assert_eq!(state.services.toasts.items.len(), 1, "one message says why");
}

#[vitrine_test(shared, gpu)]
fn every_model_of_mp_wz_loads_with_its_textures_and_renders() {
    let wz = common::wz2100();
    let gpu = crate::common::gpu();
    let archive = wz.join("archives/mp.wz");
    let options = LoadOptions {
        data_roots: vec![FileRef::Disk(wz.join("data/base"))],
        ..Default::default()
    };
    let walk = vitrine::files::walk::walk(&[archive], vitrine::formats::is_model_name);
    assert!(walk.errors.is_empty(), "{:?}", walk.errors);
    assert_eq!(walk.files.len(), 102);
    use vitrine::render::batch::{self, BatchOptions, Job, Loaded, Step};
    let bg = [10, 20, 30, 255];
    let view = vitrine::render::ViewSettings {
        background: bg,
        ..Default::default()
    };
    let run = batch::start(
        BatchDevice::Shared(gpu.device.clone(), gpu.queue.clone()),
        BatchOptions::new((96, 96), view, vitrine::files::disk()),
        || {
            let options = options.clone();
            move |f: &FileRef| {
                let model = vitrine::formats::load(f, &options).map_err(|e| e.to_string())?;
                let missing: Vec<&str> = model
                    .textures
                    .iter()
                    .filter(|t| t.resolved.is_none())
                    .map(|t| t.name.as_str())
                    .collect();
                if !missing.is_empty() {
                    return Err(format!("{f}: textures not found: {missing:?}"));
                }
                Ok(Step::Draw(Box::new(Loaded {
                    model,
                    at: None,
                    camera: None,
                })))
            }
        },
    );
    run.queue
        .push(walk.files.iter().enumerate().map(|(i, f)| Job {
            id: i as u64,
            file: f.clone(),
        }));
    run.queue.close();
    let mut failures = Vec::new();
    let mut n = 0;
    for done in run.results.iter() {
        n += 1;
        match done.image {
            Ok(img) => {
                let drawn = img.pixels().filter(|p| p.0 != bg).count();
                if drawn < 20 {
                    failures.push(format!("{}: blank ({drawn} pixels)", done.file));
                }
                if done.warnings.iter().any(|w| w.contains("unreadable")) {
                    failures.push(format!("{}: {:?}", done.file, done.warnings));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert_eq!(n, 102);
    assert!(failures.is_empty(), "{failures:#?}");
}
