//! The files a page has been given — dropped, picked or fetched — as the one
//! [`FileSource`] the app reads through. Files arrive while the page runs, so the source
//! is shared and grows: every [`Files`] made by [`PageFiles::files`] sees files added
//! later, and archives among them (`.wz`, `.zip`) are read lazily by the core like those
//! on a disk.
//!
//! Where a file goes decides what the core's search finds beside it: files dropped or
//! picked together go into one folder of their own (a PIE and its texture pages side by
//! side, a PangYa character's parts); a fetched file goes where its URL says
//! (`host/path/of/it`), so a model's `texpages/` at the places the desktop searches on
//! disk are the same paths by HTTP.

use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};
use vitrine_core::files::{
    EntryKind, FileRef, FileSource, Files, MemorySource, Pieces, ReadAt, Stamp,
};

/// The page's files: cheap to clone, all clones share them.
#[derive(Debug, Clone, Default)]
pub struct PageFiles {
    shared: Arc<RwLock<MemorySource>>,
    files: Arc<std::sync::OnceLock<Files>>,
    /// Archives on a server read a piece at a time: their URLs and pieces.
    remote: Arc<RwLock<Vec<Remote>>>,
}

/// An archive on a server read a piece at a time: its URL and pieces.
type Remote = (String, Arc<Pieces>);

impl PageFiles {
    /// No files yet.
    pub fn new() -> PageFiles {
        PageFiles::default()
    }

    /// The files as the core reads them (one [`Files`], so its archive cache is shared).
    pub fn files(&self) -> Files {
        self.files
            .get_or_init(|| Files::new(Shared(self.shared.clone())))
            .clone()
    }

    /// Adds `bytes` at `path` (replacing a file there: its stamp changes, so caches read
    /// it again) and returns how the core names it.
    pub fn add(&self, path: impl Into<PathBuf>, bytes: Vec<u8>) -> FileRef {
        let path = path.into();
        self.shared
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path.clone(), bytes);
        FileRef::Disk(path)
    }

    /// Adds the archive at `url`, read a piece at a time as `pieces`, at `path`.
    pub fn add_remote(&self, path: impl Into<PathBuf>, url: &str, pieces: Arc<Pieces>) -> FileRef {
        let path = path.into();
        self.shared
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert_reader(path.clone(), pieces.clone());
        self.remote
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .push((url.to_string(), pieces));
        FileRef::Disk(path)
    }

    /// The archives read a piece at a time: `(URL, pieces)`.
    pub fn remote(&self) -> Vec<Remote> {
        self.remote
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether a read asked for bytes of a remote archive that have not arrived.
    pub fn wanting(&self) -> bool {
        self.files().wanting()
    }

    /// Adds files given together (one drop, one pick) into a folder of their own,
    /// `drop-<n>/`, so that a second drop's `tank.pie` does not replace the first's while
    /// each model finds the pages dropped with it. Names are the browser's file names
    /// (never a path: the browser gives none). Returns the files in the order given.
    pub fn add_group(&self, group: u32, named: Vec<(String, Vec<u8>)>) -> Vec<FileRef> {
        let folder = PathBuf::from(format!("drop-{group}"));
        named
            .into_iter()
            .map(|(name, bytes)| {
                let name = Path::new(&name)
                    .file_name()
                    .map_or_else(|| "unnamed".into(), |n| n.to_os_string());
                self.add(folder.join(name), bytes)
            })
            .collect()
    }
}

/// Where a file fetched from `url` goes: `host/path` with the path's `%XX` escapes
/// decoded, without query or fragment; `..` and `.` dropped so nothing lands outside the
/// host's folder. `None` for a URL without a file name.
pub fn url_path(url: &str) -> Option<PathBuf> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let mut out = PathBuf::new();
    for segment in rest.split('/') {
        let decoded = vitrine_core::files::percent_decode(segment);
        // A decoded segment may hold a separator of its own; it is one name.
        let name = decoded.replace(['/', '\\'], "_");
        match Path::new(&name).components().next() {
            Some(Component::Normal(_)) => out.push(name),
            _ => continue,
        }
    }
    let has_file = url
        .split(['?', '#'])
        .next()
        .is_some_and(|u| !u.ends_with('/'));
    (out.components().count() >= 2 && has_file).then_some(out)
}

/// The shared memory as a [`FileSource`].
#[derive(Debug)]
struct Shared(Arc<RwLock<MemorySource>>);

impl Shared {
    fn get(&self) -> std::sync::RwLockReadGuard<'_, MemorySource> {
        self.0.read().unwrap_or_else(PoisonError::into_inner)
    }
}

impl FileSource for Shared {
    fn kind(&self, path: &Path) -> Option<EntryKind> {
        self.get().kind(path)
    }
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.get().read(path)
    }
    fn open(&self, path: &Path) -> io::Result<Arc<dyn ReadAt>> {
        self.get().open(path)
    }
    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        self.get().list(dir)
    }
    fn stamp(&self, path: &Path) -> io::Result<Stamp> {
        self.get().stamp(path)
    }
    fn wanting(&self) -> bool {
        self.get().wanting()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use vitrine_core::formats::{LoadOptions, load};

    const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/demo");

    fn demo(name: &str) -> Vec<u8> {
        std::fs::read(Path::new(DEMO).join(name)).unwrap()
    }

    #[test]
    fn a_model_dropped_with_its_pages_finds_them() {
        let page = PageFiles::new();
        let files = page.files();
        let dropped = page.add_group(
            1,
            vec![
                ("tank.pie".into(), demo("tank.pie")),
                (
                    "page-90-demo-tank.png".into(),
                    demo("texpages/page-90-demo-tank.png"),
                ),
            ],
        );
        // Added after the `Files` was made: it sees them.
        let model = load(&files, &dropped[0], &LoadOptions::default()).unwrap();
        let base = &model.textures[0];
        assert_eq!(
            base.resolved,
            Some(FileRef::Disk("drop-1/page-90-demo-tank.png".into()))
        );
    }

    #[test]
    fn a_second_drop_does_not_replace_the_first() {
        let page = PageFiles::new();
        let a = page.add_group(1, vec![("tank.pie".into(), b"PIE 2 a".to_vec())]);
        let b = page.add_group(2, vec![("tank.pie".into(), b"PIE 2 b".to_vec())]);
        let files = page.files();
        assert_eq!(files.read(&a[0]).unwrap(), b"PIE 2 a");
        assert_eq!(files.read(&b[0]).unwrap(), b"PIE 2 b");
    }

    #[test]
    fn a_dropped_archive_reads_lazily_and_a_replaced_one_afresh() {
        let zip = |body: &[u8]| {
            let mut z = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
            z.start_file(
                "components/bodies/body.pie",
                zip::write::SimpleFileOptions::default(),
            )
            .unwrap();
            z.write_all(body).unwrap();
            z.finish().unwrap().into_inner()
        };
        let page = PageFiles::new();
        let files = page.files();
        let wz = page.add("drop-1/mod.wz", zip(b"PIE 3 one"));
        let entry = files.parse(Path::new(&format!(
            "{}!/components/bodies/body.pie",
            wz_path(&wz)
        )));
        assert_eq!(files.read(&entry).unwrap(), b"PIE 3 one");
        page.add("drop-1/mod.wz", zip(b"PIE 3 two"));
        assert_eq!(files.read(&entry).unwrap(), b"PIE 3 two");
    }

    fn wz_path(f: &FileRef) -> String {
        match f {
            FileRef::Disk(p) => p.display().to_string(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn urls_map_to_host_and_path() {
        let p = |u: &str| url_path(u).map(|p| p.display().to_string());
        assert_eq!(
            p("https://raw.githubusercontent.com/Warzone2100/warzone2100/master/data/base/components/bodies/drlbod01.pie").as_deref(),
            Some("raw.githubusercontent.com/Warzone2100/warzone2100/master/data/base/components/bodies/drlbod01.pie")
        );
        assert_eq!(
            p("http://127.0.0.1:8123/corpus/My%20Mod.wz?download=1#x").as_deref(),
            Some("127.0.0.1:8123/corpus/My Mod.wz")
        );
        // Nothing climbs out of the host's folder; an escaped slash stays in its name.
        assert_eq!(
            p("https://example.org/a/../../../etc/%2e%2e/x%2Fy.pie").as_deref(),
            Some("example.org/a/etc/x_y.pie")
        );
        assert_eq!(p("https://example.org/models/"), None);
        assert_eq!(p("https://example.org"), None);
    }
}
