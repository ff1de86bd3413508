//! The only module that touches the file system. Everything Vitrine reads — models,
//! textures, sibling parts, stats — comes through [`read`] and [`list`], from a folder
//! or from inside a zip archive alike ([`FileRef`]); everything it writes goes through
//! [`atomic`]; folders are walked by [`walk`]; per-platform folders come from
//! [`folders`].
//!
//! Not here: parsing (the loaders get bytes), and knowledge of any game's layout (the
//! data-root search order lives in `formats::resolve`).

mod archive;
pub mod atomic;
pub mod folders;
mod path;
pub mod walk;

pub use archive::{Archive, Duplicate};
pub use path::{ARCHIVE_EXTENSIONS, ARCHIVE_SEPARATOR, FileRef, is_archive_path, normalise_entry};

use std::collections::HashMap;
use std::io;
use std::path::Path;

/// Largest file or archive entry Vitrine reads (no real model or texture page comes
/// near it; a 16384² RGBA page as PNG is far smaller).
pub(crate) const MAX_FILE_BYTES: u64 = 256 << 20;

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

fn disk_stamp(path: &Path) -> io::Result<Stamp> {
    let m = std::fs::metadata(path).map_err(|e| atomic::with_path(e, path))?;
    let modified_ns = m
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64);
    Ok(Stamp {
        modified_ns,
        len: m.len(),
    })
}

/// Reads a whole file, refusing anything over [`MAX_FILE_BYTES`], a folder, or anything
/// that is not a regular file (a FIFO or a device would block or never end).
pub fn read(file: &FileRef) -> io::Result<Vec<u8>> {
    match file {
        FileRef::Disk(p) => read_disk(p),
        FileRef::Entry { archive, path } => archive::open(archive)?.read(archive, path),
        FileRef::Embedded {
            file: holder,
            offset,
            len,
            base64,
            ..
        } => read_embedded(file, &read(holder)?, *offset, *len, *base64),
    }
}

/// The bytes `offset..offset + len` of `holder` (the file `file` is embedded in), decoded
/// from base64 when `base64`.
fn read_embedded(
    file: &FileRef,
    holder: &[u8],
    offset: u64,
    len: u64,
    base64: bool,
) -> io::Result<Vec<u8>> {
    let bytes = usize::try_from(offset)
        .ok()
        .zip(usize::try_from(len).ok())
        .and_then(|(o, l)| holder.get(o..o.checked_add(l)?))
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "{file}: bytes {offset}..{} lie past the end of the {} bytes holding them",
                    offset.saturating_add(len),
                    holder.len()
                ),
            )
        })?;
    if !base64 {
        return Ok(bytes.to_vec());
    }
    use ::base64::Engine;
    ::base64::engine::general_purpose::STANDARD
        .decode(bytes)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{file}: base64: {e}")))
}

fn read_disk(p: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let m = std::fs::metadata(p).map_err(|e| atomic::with_path(e, p))?;
    if m.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            format!("{}: is a folder, not a file", p.display()),
        ));
    }
    if !m.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: not a regular file (a pipe, socket or device)",
                p.display()
            ),
        ));
    }
    if m.len() > MAX_FILE_BYTES {
        return Err(too_large(&p.display().to_string(), m.len()));
    }
    let f = std::fs::File::open(p).map_err(|e| atomic::with_path(e, p))?;
    let mut out = Vec::with_capacity(m.len() as usize);
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| atomic::with_path(e, p))?;
    if out.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(&p.display().to_string(), out.len() as u64));
    }
    Ok(out)
}

/// What `file` is, or `None` if it does not exist (or its archive cannot be read).
pub fn kind(file: &FileRef) -> Option<EntryKind> {
    match file {
        FileRef::Disk(p) => {
            let m = std::fs::metadata(p).ok()?;
            Some(if m.is_dir() {
                EntryKind::Dir
            } else {
                EntryKind::File
            })
        }
        FileRef::Entry { archive, path } => archive::open(archive).ok()?.kind(path),
        FileRef::Embedded { file, .. } => {
            (kind(file)? == EntryKind::File).then_some(EntryKind::File)
        }
    }
}

/// Whether `file` exists and is a file.
pub fn is_file(file: &FileRef) -> bool {
    kind(file) == Some(EntryKind::File)
}

/// Whether `file` exists and is a folder (an archive's root counts).
pub fn is_dir(file: &FileRef) -> bool {
    kind(file) == Some(EntryKind::Dir)
}

/// The current [`Stamp`] of `file`.
pub fn stamp(file: &FileRef) -> io::Result<Stamp> {
    match file {
        FileRef::Disk(p) => disk_stamp(p),
        FileRef::Entry { archive, path } => {
            archive::open(archive)?.entry_stamp(path).ok_or_else(|| {
                io::Error::new(io::ErrorKind::NotFound, format!("{file}: no such entry"))
            })
        }
        // The holder's version, told apart from its other embedded files.
        FileRef::Embedded {
            file: holder,
            offset,
            len,
            ..
        } => {
            let s = stamp(holder)?;
            Ok(Stamp {
                modified_ns: s.modified_ns,
                len: s.len ^ offset.rotate_left(32) ^ len,
            })
        }
    }
}

/// The entries of folder `dir`, sorted by name: `(name, ref, kind)`. Links are
/// followed for the kind (a link to a file is a file); a broken link is left out.
pub fn list(dir: &FileRef) -> io::Result<Vec<(String, FileRef, EntryKind)>> {
    match dir {
        FileRef::Disk(p) => {
            let mut out = Vec::new();
            for e in std::fs::read_dir(p).map_err(|e| atomic::with_path(e, p))? {
                let e = e.map_err(|e| atomic::with_path(e, p))?;
                let path = e.path();
                let Ok(m) = std::fs::metadata(&path) else {
                    continue;
                };
                let kind = if m.is_dir() {
                    EntryKind::Dir
                } else {
                    EntryKind::File
                };
                out.push((
                    e.file_name().to_string_lossy().into_owned(),
                    FileRef::Disk(path),
                    kind,
                ));
            }
            out.sort();
            Ok(out)
        }
        FileRef::Entry { archive, path } => {
            let a = archive::open(archive)?;
            if a.kind(path) != Some(EntryKind::Dir) {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("{dir}: no such folder"),
                ));
            }
            Ok(a.children(path)
                .into_iter()
                .map(|(name, kind)| {
                    let r = dir.join(&name);
                    (name, r, kind)
                })
                .collect())
        }
        FileRef::Embedded { .. } => Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{dir}: a file inside a file, not a folder"),
        )),
    }
}

/// The last component of `path` as text (the whole path if it has none): for titles,
/// menus and messages.
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The opened archive at `path` (its entries, the names it ignored).
pub(crate) fn open_archive(path: &Path) -> io::Result<std::sync::Arc<Archive>> {
    archive::open(path)
}

/// Case-insensitive lookups with cached folder listings, so a batch of models lists each
/// texture folder once.
#[derive(Debug, Default)]
pub(crate) struct Lookup {
    listings: HashMap<FileRef, Vec<(String, FileRef, EntryKind)>>,
}

impl Lookup {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// `(lower-case name, ref, kind)` of the entries of `dir` (empty if unreadable).
    pub fn listing(&mut self, dir: &FileRef) -> &[(String, FileRef, EntryKind)] {
        self.listings.entry(dir.clone()).or_insert_with(|| {
            let mut v: Vec<_> = list(dir)
                .unwrap_or_default()
                .into_iter()
                .map(|(n, r, k)| (n.to_lowercase(), r, k))
                .collect();
            v.sort();
            v
        })
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
