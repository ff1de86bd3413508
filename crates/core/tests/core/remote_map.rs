//! A map database package opened over the game's `mp.wz` and `base.wz` read a piece at a
//! time, as the page reads them from a server (`?url=PKG.wz&data=mp.wz&data=base.wz`):
//! each run of the map's open stops where it asked for bytes not there yet, those bytes
//! are "fetched" (copied in) and the open runs again, as the page's job does. The rounds
//! of fetches are the page's time to a map's first frame: each costs a round trip and a
//! run. `#[vitrine_test(shared, game)]`.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use vitrine_core::check::map_check::{Resume, load_checked, load_checked_resuming};
use vitrine_core::files::{FileRef, Files, MemorySource, Pieces};
use vitrine_core::formats::LoadOptions;
use vitrine_test_needs::vitrine_test;

/// Wanted ranges closer than this become one request (the page's `ranges::GAP`).
const GAP: u64 = 16 << 10;

/// Where a zip's central directory starts, as the zip crate (the archive reader's) reads it.
fn directory_start(bytes: &[u8]) -> u64 {
    zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .expect("a zip")
        .central_directory_start()
}

/// The game's archives read a piece at a time (their directories held, as the page's
/// open of a remote archive fetches them first) and the package whole, as the page has
/// them; with the archives' bytes to copy the "fetched" pieces from.
struct Remote {
    files: Files,
    archives: Vec<(Arc<Pieces>, Vec<u8>)>,
}

impl Remote {
    fn new(package: &Path) -> Remote {
        let game = vitrine_test_needs::game_data();
        let mut source = MemorySource::new();
        let mut archives = Vec::new();
        for name in ["mp.wz", "base.wz"] {
            let bytes = std::fs::read(game.join(name)).unwrap();
            let pieces = Arc::new(Pieces::new(name, bytes.len() as u64));
            let dir = directory_start(&bytes);
            pieces.insert(dir, &bytes[dir as usize..]);
            source.insert_reader(PathBuf::from("/game").join(name), pieces.clone());
            archives.push((pieces, bytes));
        }
        source.insert("/made/package.wz", std::fs::read(package).unwrap());
        Remote {
            files: Files::new(source),
            archives,
        }
    }

    /// Copies in the bytes the last run asked for: the requests a page would send.
    fn fetch(&self) -> usize {
        let mut requests = 0;
        for (pieces, bytes) in &self.archives {
            for Range { start, end } in pieces.take_wanted(GAP) {
                pieces.insert(start, &bytes[start as usize..end as usize]);
                requests += 1;
            }
        }
        requests
    }
}

/// The package's `game.map`, as the app opens a one-map package.
fn game_map(files: &Files) -> FileRef {
    let root = FileRef::archive_root(Path::new("/made/package.wz"));
    let level = vitrine_core::map::open_source(files, &root, None).unwrap();
    let map = vitrine_core::map::open(files, &level).unwrap();
    map.level.folder.join("game.map")
}

/// The dense and the typical map of the page's bench: every object and tile of the map
/// read over pieces is what a whole read gives, in two rounds of fetches: one for the
/// stats (and the tileset's tables), one for every model they name — a structure's
/// turrets and a droid's parts with the body or structure they hang on, not a round per
/// level of the assembly (three rounds before, five or six on the page before that).
#[vitrine_test(shared, game)]
fn a_map_over_remote_archives_opens_in_two_rounds_of_fetches() {
    let wz = vitrine_test_needs::wz2100();
    for name in ["nPangaeaSpRc1", "RAM-AC1", "Roughness-1-01"] {
        let remote = Remote::new(&wz.join(format!("mapdb-2p/{name}.wz")));
        let file = game_map(&remote.files);
        let roots = ["mp.wz", "base.wz"]
            .map(|a| FileRef::archive_root(&PathBuf::from("/game").join(a)))
            .to_vec();
        let options = LoadOptions {
            data_roots: roots,
            ..LoadOptions::default()
        };
        let mut resume = Resume::default();
        let mut rounds = Vec::new();
        let (model, findings) = loop {
            let run = load_checked_resuming(&remote.files, &file, &options, &mut resume);
            let requests = remote.fetch();
            if requests == 0 {
                break run.unwrap();
            }
            rounds.push(requests);
            assert!(rounds.len() < 20, "{name}: no end to the fetches");
        };
        // The same, read whole.
        let (whole, whole_findings) = load_checked(&remote.files, &file, &options).unwrap();
        println!(
            "{name}: {} rounds of fetches ({rounds:?} requests)",
            rounds.len()
        );
        assert_eq!(
            (model.meshes.len(), model.nodes.len(), findings.len()),
            (whole.meshes.len(), whole.nodes.len(), whole_findings.len()),
            "{name}: the map read in pieces is the map read whole"
        );
        let corners = |m: &vitrine_core::model::Model| -> usize {
            m.meshes.iter().map(|m| m.corners.len()).sum()
        };
        assert_eq!(corners(&model), corners(&whole), "{name}");
        assert!(
            rounds.len() <= 2,
            "{name}: {} rounds of fetches for the map's scene ({rounds:?} requests)",
            rounds.len()
        );
    }
}
