//! What the core reads from: [`FileRef`] (a file or folder, or an entry of a `.wz`/`.zip`
//! archive, written `a.wz!/x/y.pie`), the [`FileSource`] a front-end provides (the
//! desktop's disk, a browser's files, [`MemorySource`] for files held in memory) and
//! [`Files`], which reads archives lazily on top of it. Everything the core reads —
//! models, textures, sibling parts, stats — comes through a [`Files`] it is given; no
//! code here touches the file system (writing, walking folders and per-platform folders
//! are the program's: `vitrine::files`).
//!
//! Not here: parsing (the loaders get bytes), and knowledge of any game's layout (the
//! data-root search order lives in `formats::resolve`).

mod archive;
mod path;
mod pieces;
mod source;

pub use archive::{Archive, Duplicate, Ignored, ReadAt};
pub use path::{
    ARCHIVE_EXTENSIONS, ARCHIVE_SEPARATOR, FileRef, NameError, entry_name, is_archive_path,
    normalise_entry, percent_decode, percent_encode, printable, printable_text,
};
pub use pieces::Pieces;
pub use source::{FileSource, Files, MemorySource};

use std::collections::HashMap;
use std::io;
use std::path::Path;

/// Largest file or archive entry Vitrine reads (no real model or texture page comes
/// near it; a 16384² RGBA page as PNG is far smaller).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Longest archive entry name Vitrine reads, in bytes (real ones are under 100; a zip
/// allows 65,535). A longer name is refused, as is a deeper one: see [`MAX_ENTRY_DEPTH`].
pub const MAX_ENTRY_NAME_BYTES: usize = 1024;

/// Most folders an archive entry's name may go down (Warzone 2100's data goes 4 deep).
/// With [`MAX_ENTRY_NAME_BYTES`] it bounds what one entry costs to index.
pub const MAX_ENTRY_DEPTH: usize = 64;

/// What one archive may inflate, over all its entries, per byte of its own size (each
/// entry counted once, however often it is read). Real archives come nowhere near it:
/// `mp.wz` stores its entries (1 : 1); Warzone models deflate about 4 : 1.
pub const INFLATE_RATIO: u64 = 100;

/// What any archive may inflate in all, however small: one entry of the largest size
/// Vitrine reads.
pub const MIN_INFLATE_LIMIT: u64 = MAX_FILE_BYTES;

/// What a [`FileRef`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    /// A regular file (or archive entry).
    File,
    /// A folder (or a folder inside an archive).
    Dir,
}

/// What identifies one version of a file: a change of content changes it (used by
/// caches and the file watcher).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Stamp {
    /// Modification time, nanoseconds since the Unix epoch (0 if unknown).
    pub modified_ns: u64,
    /// Length in bytes (for entries, mixed with the entry's CRC).
    pub len: u64,
}

fn too_large(what: &str, len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("{what}: {len} bytes; the limit is {MAX_FILE_BYTES}"),
    )
}

/// The last component of `path` as text (the whole path if it has none): for titles,
/// menus and messages.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Case-insensitive lookups with cached folder listings, so a batch of models lists each
/// texture folder once.
#[derive(Debug)]
pub(crate) struct Lookup {
    files: Files,
    listings: HashMap<FileRef, Vec<(String, FileRef, EntryKind)>>,
}

impl Lookup {
    /// An empty cache over `files`.
    pub(crate) fn new(files: &Files) -> Self {
        Lookup {
            files: files.clone(),
            listings: HashMap::new(),
        }
    }

    /// What the look-ups read from.
    pub(crate) fn files(&self) -> &Files {
        &self.files
    }

    /// `(lower-case name, ref, kind)` of the entries of `dir` (empty if unreadable; not
    /// kept while its archive's bytes are on their way, [`Files::wanting`]).
    pub fn listing(&mut self, dir: &FileRef) -> &[(String, FileRef, EntryKind)] {
        let files = &self.files;
        if !self.listings.contains_key(dir) {
            let listed = match files.list(dir) {
                Ok(v) => v,
                Err(_) if files.wanting() => return &[],
                Err(_) => Vec::new(),
            };
            let mut v: Vec<_> = listed
                .into_iter()
                .map(|(n, r, k)| (n.to_lowercase(), r, k))
                .collect();
            v.sort();
            self.listings.insert(dir.clone(), v);
        }
        &self.listings[dir]
    }

    /// The entry of `dir` named `name` in any case (of several, the first in sorted
    /// order). A binary search of the cached listing: looking up a name in a folder of
    /// 200,000 costs what it does in a folder of ten.
    pub fn child(&mut self, dir: &FileRef, name: &str) -> Option<(FileRef, EntryKind)> {
        let want = name.to_lowercase();
        let listing = self.listing(dir);
        let at = listing.partition_point(|(n, _, _)| n.as_str() < want.as_str());
        listing
            .get(at)
            .filter(|(n, _, _)| *n == want)
            .map(|(_, r, k)| (r.clone(), *k))
    }

    /// Follows `components` from `dir`, each matched case-insensitively; the result must
    /// be a file.
    pub fn walk(&mut self, dir: &FileRef, components: &[&str]) -> Option<FileRef> {
        let mut cur = dir.clone();
        let mut kind = EntryKind::Dir;
        for c in components {
            if kind != EntryKind::Dir {
                return None;
            }
            (cur, kind) = self.child(&cur, c)?;
        }
        (kind == EntryKind::File).then_some(cur)
    }
}
