//! All 191 two-player maps of the map database (`../shared/corpus/wz2100/mapdb-2p/`, each
//! a package as the database ships it: its files at the zip's root) open with no level
//! named: each package is one map, found once by a survey of the folder too, and read
//! (the script-generated one by running its `game.js`).

use crate::common;
use vitrine_core::files::FileRef;
use vitrine_core::map;
use vitrine_test_needs::vitrine_test;

#[vitrine_test(shared)]
fn every_map_database_package_opens_with_no_flag() {
    let wz = common::wz2100();
    let files = common::corpus();
    let dir = wz.join("mapdb-2p");
    let mut packages: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wz"))
        .collect();
    packages.sort();
    assert_eq!(packages.len(), 191);
    let mut failed = Vec::new();
    let mut scripts = 0;
    for p in &packages {
        let at = FileRef::archive_root(p);
        let opened = map::open_source(&files, &at, None).and_then(|l| map::open(&files, &l));
        match opened {
            Ok(m) => {
                scripts += usize::from(m.level.shape == map::Shape::Script);
                // The database's packages are of the 4.x shape: one level.json, one level.
                assert_eq!(m.level.levels.all.len(), 1, "{}", p.display());
                assert!(m.terrain.width > 0 && m.terrain.height > 0);
            }
            Err(e) => failed.push(e.to_string()),
        }
    }
    println!(
        "{} of {} map database packages open with no flag ({scripts} script-generated)",
        packages.len() - failed.len(),
        packages.len()
    );
    assert!(failed.is_empty(), "{failed:#?}");
    // The folder itself: a gallery of the 191 maps, each once, nothing left out.
    let s = map::survey(&files, &FileRef::Disk(dir)).unwrap();
    assert_eq!(s.maps.len(), 191);
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    let mut folders: Vec<&FileRef> = s.maps.iter().map(|m| &m.folder).collect();
    folders.dedup();
    assert_eq!(folders.len(), 191);
}
