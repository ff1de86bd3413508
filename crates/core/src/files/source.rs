//! Where bytes come from. A front-end gives the core a [`FileSource`] — the desktop's
//! disk, the browser's dropped, picked or downloaded files ([`MemorySource`]) — and
//! everything that reads (loaders and their sidecars, texture look-ups, Warzone stats and
//! parts, checks, the glTF exporter's images, the renderer's textures) asks it, through
//! [`Files`], which reads archive entries lazily on top of it: the source opens the
//! archive for reads at an offset ([`ReadAt`]), the core reads its central directory once and inflates only
//! the entries asked for.

use super::archive::{Archive, ReadAt};
use super::{EntryKind, FileRef, MAX_FILE_BYTES, Stamp};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Plain files and folders by path, as a front-end has them (no archives: [`Files`]
/// reads those on top).
pub trait FileSource: Send + Sync {
    /// What `path` names, or `None` if nothing (or it cannot be told).
    fn kind(&self, path: &Path) -> Option<EntryKind>;
    /// The whole file. Refuses a folder, anything that is not a regular file, and
    /// anything over [`MAX_FILE_BYTES`]; errors name the path.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// The file opened for reads at any offset, by any number of threads at once: what
    /// archives are read through (the disk: positioned reads of the open file; memory:
    /// the bytes).
    fn open(&self, path: &Path) -> io::Result<Arc<dyn ReadAt>>;
    /// The entries of folder `dir`: `(name, kind)`, in any order.
    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>>;
    /// What identifies this version of the file (caches and live reload compare it).
    fn stamp(&self, path: &Path) -> io::Result<Stamp>;
    /// Whether a read asked for bytes that have not arrived yet (a remote archive read a
    /// piece at a time, [`super::Pieces`]): what failed for that reason will read once
    /// they have, so a failure now is not one to remember. By default never.
    fn wanting(&self) -> bool {
        false
    }
    /// `path` with every folder it is in named (what the search for `texpages/` in a
    /// model's ancestors walks up): the disk makes a relative path absolute; by default
    /// the path as given.
    fn full_path(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
}

/// A [`FileSource`] with archive entries on top: what every reader in the core is given.
/// Cheap to clone (shared); opened archives are cached by path and reopened when their
/// stamp changes.
#[derive(Clone)]
pub struct Files {
    source: Arc<dyn FileSource>,
    archives: Arc<Mutex<HashMap<PathBuf, Arc<Archive>>>>,
    /// Set on a [`Files::recording`] copy: every file read through it (or its clones).
    reads: Option<Arc<Mutex<BTreeSet<FileRef>>>>,
}

impl std::fmt::Debug for Files {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Files").finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Files {
    /// Reads through `source`.
    pub fn new(source: impl FileSource + 'static) -> Files {
        Files {
            source: Arc::new(source),
            archives: Arc::default(),
            reads: None,
        }
    }

    /// A copy of these files (same source, same archive cache) that records every file
    /// it reads, and its clones read, successfully ([`Files::read`]): what a load, a
    /// stats read or an assembly needed, to be listed with [`Files::recorded`] (e.g. to
    /// publish exactly those files). Listing folders and looking up kinds are not
    /// recorded; a file inside a file is recorded as itself and its holder.
    pub fn recording(&self) -> Files {
        Files {
            reads: Some(Arc::default()),
            ..self.clone()
        }
    }

    /// The files read so far through this [`Files::recording`] copy, sorted (empty for
    /// files that do not record).
    pub fn recorded(&self) -> Vec<FileRef> {
        self.reads
            .as_ref()
            .map(|r| lock(r).iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The opened archive at `path` (a file of the source), from the cache when its
    /// stamp has not changed.
    pub fn archive(&self, path: &Path) -> io::Result<Arc<Archive>> {
        let stamp = self.source.stamp(path)?;
        if let Some(a) = lock(&self.archives).get(path)
            && a.stamp() == stamp
        {
            return Ok(a.clone());
        }
        let reader = self.source.open(path)?;
        let archive = Arc::new(Archive::from_reader(reader, path, stamp)?);
        lock(&self.archives).insert(path.to_path_buf(), archive.clone());
        Ok(archive)
    }

    /// Whether a read asked for bytes that have not arrived yet ([`FileSource::wanting`]):
    /// a cache does not keep a failure made while this is so.
    pub fn wanting(&self) -> bool {
        self.source.wanting()
    }

    /// Reads a whole file or archive entry, refusing anything over [`MAX_FILE_BYTES`],
    /// a folder, or anything that is not a regular file.
    pub fn read(&self, file: &FileRef) -> io::Result<Vec<u8>> {
        let bytes = self.read_unrecorded(file)?;
        if let Some(reads) = &self.reads {
            lock(reads).insert(file.clone());
        }
        Ok(bytes)
    }

    /// The first `len` bytes of a file or archive entry (all of it when it is no longer):
    /// of an archive entry only those are read ([`Archive::read_prefix`]: a remote
    /// archive fetches no more); any other file is read whole and cut. Not recorded
    /// ([`Files::recording`] lists whole files read).
    pub fn read_prefix(&self, file: &FileRef, len: u64) -> io::Result<Vec<u8>> {
        let mut bytes = match file {
            FileRef::Entry { archive, path } => {
                self.archive(archive)?.read_prefix(archive, path, len)?
            }
            _ => self.read_unrecorded(file)?,
        };
        bytes.truncate(usize::try_from(len).unwrap_or(usize::MAX));
        Ok(bytes)
    }

    /// The size of a file or archive entry in bytes (an entry's as its archive's
    /// directory declares it: nothing of it is read).
    pub fn size(&self, file: &FileRef) -> io::Result<u64> {
        match file {
            FileRef::Entry { archive, path } => {
                let a = self.archive(archive)?;
                a.file(path).map(|e| e.size).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::NotFound, format!("{file}: no such entry"))
                })
            }
            FileRef::Disk(p) => self.source.open(p).map(|r| r.size()),
            FileRef::Embedded { .. } => self.read_unrecorded(file).map(|b| b.len() as u64),
        }
    }

    fn read_unrecorded(&self, file: &FileRef) -> io::Result<Vec<u8>> {
        match file {
            FileRef::Disk(p) => self.source.read(p),
            FileRef::Entry { archive, path } => self.archive(archive)?.read(archive, path),
            FileRef::Embedded {
                file: holder,
                offset,
                len,
                base64,
                ..
            } => read_embedded(file, &self.read(holder)?, *offset, *len, *base64),
        }
    }

    /// What `file` is, or `None` if it does not exist (or its archive cannot be read).
    pub fn kind(&self, file: &FileRef) -> Option<EntryKind> {
        match file {
            FileRef::Disk(p) => self.source.kind(p),
            FileRef::Entry { archive, path } => self.archive(archive).ok()?.kind(path),
            FileRef::Embedded { file, .. } => {
                (self.kind(file)? == EntryKind::File).then_some(EntryKind::File)
            }
        }
    }

    /// Whether `file` exists and is a file.
    pub fn is_file(&self, file: &FileRef) -> bool {
        self.kind(file) == Some(EntryKind::File)
    }

    /// Whether `file` exists and is a folder (an archive's root counts).
    pub fn is_dir(&self, file: &FileRef) -> bool {
        self.kind(file) == Some(EntryKind::Dir)
    }

    /// The current [`Stamp`] of `file`.
    pub fn stamp(&self, file: &FileRef) -> io::Result<Stamp> {
        match file {
            FileRef::Disk(p) => self.source.stamp(p),
            FileRef::Entry { archive, path } => {
                self.archive(archive)?.entry_stamp(path).ok_or_else(|| {
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
                let s = self.stamp(holder)?;
                Ok(Stamp {
                    modified_ns: s.modified_ns,
                    len: s.len ^ offset.rotate_left(32) ^ len,
                })
            }
        }
    }

    /// The entries of folder `dir`, sorted by name: `(name, ref, kind)`.
    pub fn list(&self, dir: &FileRef) -> io::Result<Vec<(String, FileRef, EntryKind)>> {
        let mut out: Vec<(String, FileRef, EntryKind)> = match dir {
            FileRef::Disk(p) => self
                .source
                .list(p)?
                .into_iter()
                .map(|(name, kind)| {
                    let r = FileRef::Disk(p.join(&name));
                    (name, r, kind)
                })
                .collect(),
            FileRef::Entry { archive, path } => {
                let a = self.archive(archive)?;
                if a.kind(path) != Some(EntryKind::Dir) {
                    return Err(io::Error::new(
                        io::ErrorKind::NotFound,
                        format!("{dir}: no such folder"),
                    ));
                }
                a.children(path)
                    .into_iter()
                    .map(|(name, kind)| {
                        let r = dir.join(&name);
                        (name, r, kind)
                    })
                    .collect()
            }
            FileRef::Embedded { .. } => {
                return Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    format!("{dir}: a file inside a file, not a folder"),
                ));
            }
        };
        out.sort();
        Ok(out)
    }

    /// `path` with every folder it is in named ([`FileSource::full_path`]).
    pub fn full_path(&self, path: &Path) -> PathBuf {
        self.source.full_path(path)
    }

    /// What a command-line or settings path names: `a.wz!/x/y.pie` is an entry, `a.wz`
    /// (an archive that is a file of the source) is the archive's root folder, anything
    /// else a plain path.
    pub fn parse(&self, arg: &Path) -> FileRef {
        FileRef::parse_with(arg, |p| self.source.kind(p) == Some(EntryKind::File))
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

/// Files held in memory, by path: what a browser has (files dropped, picked or
/// downloaded) and what tests use when they need no disk. Folders are implied by the
/// files' paths; archives among the files are read lazily like those on disk. A file may
/// also be held as a reader ([`MemorySource::insert_reader`]): a remote archive known a
/// piece at a time ([`super::Pieces`]).
#[derive(Clone, Default)]
pub struct MemorySource {
    files: BTreeMap<PathBuf, (Arc<dyn ReadAt>, u64)>,
}

impl std::fmt::Debug for MemorySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemorySource")
            .field("files", &self.files.len())
            .finish()
    }
}

impl MemorySource {
    /// An empty source.
    pub fn new() -> MemorySource {
        MemorySource::default()
    }

    /// Adds (or replaces) the file at `path`; replacing changes its stamp.
    pub fn insert(&mut self, path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) {
        let bytes: Arc<[u8]> = Arc::from(bytes.into().into_boxed_slice());
        self.insert_reader(path, Arc::new(bytes));
    }

    /// Adds (or replaces) the file at `path`, read through `reader` (bytes that arrive
    /// later: [`super::Pieces`]); replacing changes its stamp.
    pub fn insert_reader(&mut self, path: impl Into<PathBuf>, reader: Arc<dyn ReadAt>) {
        let path = path.into();
        let version = self.files.get(&path).map_or(1, |(_, v)| v + 1);
        self.files.insert(path, (reader, version));
    }

    /// Adds a file; for building a source in one expression.
    pub fn with(mut self, path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) -> MemorySource {
        self.insert(path, bytes);
        self
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.as_os_str().is_empty()
            || path == Path::new(".")
            || self
                .files
                .range(path.to_path_buf()..)
                .next()
                .is_some_and(|(p, _)| p != path && p.starts_with(path))
    }

    fn file(&self, path: &Path) -> io::Result<&(Arc<dyn ReadAt>, u64)> {
        self.files.get(path).ok_or_else(|| {
            let kind = if self.is_dir(path) {
                io::ErrorKind::IsADirectory
            } else {
                io::ErrorKind::NotFound
            };
            io::Error::new(kind, format!("{}: no such file", path.display()))
        })
    }
}

impl FileSource for MemorySource {
    fn kind(&self, path: &Path) -> Option<EntryKind> {
        if self.files.contains_key(path) {
            Some(EntryKind::File)
        } else {
            self.is_dir(path).then_some(EntryKind::Dir)
        }
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let (reader, _) = self.file(path)?;
        let size = reader.size();
        if size > MAX_FILE_BYTES {
            return Err(super::too_large(&path.display().to_string(), size));
        }
        let mut out = vec![0u8; size as usize];
        let mut at = 0;
        while at < out.len() {
            match reader.read_at(&mut out[at..], at as u64)? {
                0 => break,
                n => at += n,
            }
        }
        out.truncate(at);
        Ok(out)
    }

    fn open(&self, path: &Path) -> io::Result<Arc<dyn ReadAt>> {
        let (reader, _) = self.file(path)?;
        Ok(reader.clone())
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        if !self.is_dir(dir) {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{}: no such folder", dir.display()),
            ));
        }
        let base = if dir == Path::new(".") {
            Path::new("")
        } else {
            dir
        };
        let mut out: BTreeMap<String, EntryKind> = BTreeMap::new();
        for p in self.files.keys() {
            let Ok(rest) = p.strip_prefix(base) else {
                continue;
            };
            let mut parts = rest.components();
            let Some(first) = parts.next() else {
                continue;
            };
            let kind = if parts.next().is_some() {
                EntryKind::Dir
            } else {
                EntryKind::File
            };
            out.insert(first.as_os_str().to_string_lossy().into_owned(), kind);
        }
        Ok(out.into_iter().collect())
    }

    fn wanting(&self) -> bool {
        self.files.values().any(|(reader, _)| reader.wanting())
    }

    fn stamp(&self, path: &Path) -> io::Result<Stamp> {
        let (reader, version) = self.file(path)?;
        Ok(Stamp {
            modified_ns: *version,
            len: reader.size(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut z = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        for (name, bytes) in entries {
            z.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            z.write_all(bytes).unwrap();
        }
        z.finish().unwrap().into_inner()
    }

    #[test]
    fn memory_files_folders_and_archives_read_alike() {
        let files = Files::new(
            MemorySource::new()
                .with("mods/tank.pie", b"PIE 3".to_vec())
                .with(
                    "mods/parts.wz",
                    zip(&[("components/bodies/Body.PIE", b"PIE 2")]),
                ),
        );
        assert_eq!(
            files.read(&FileRef::Disk("mods/tank.pie".into())).unwrap(),
            b"PIE 3"
        );
        assert!(files.is_dir(&FileRef::Disk("mods".into())));
        let names: Vec<String> = files
            .list(&FileRef::Disk("mods".into()))
            .unwrap()
            .into_iter()
            .map(|(n, _, _)| n)
            .collect();
        assert_eq!(names, ["parts.wz", "tank.pie"]);
        let wz = files.parse(Path::new("mods/parts.wz"));
        assert_eq!(wz, FileRef::archive_root(Path::new("mods/parts.wz")));
        let entry = files.parse(Path::new("mods/parts.wz!/components/bodies/body.pie"));
        assert_eq!(files.read(&entry).unwrap(), b"PIE 2");
        assert!(files.is_dir(&wz.join("components")));
        assert_eq!(files.kind(&FileRef::Disk("nowhere.pie".into())), None);
        let err = files.read(&FileRef::Disk("mods".into())).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::IsADirectory);
    }

    #[test]
    fn replacing_a_file_changes_its_stamp() {
        let mut source = MemorySource::new().with("a.png", b"one".to_vec());
        let before = source.stamp(Path::new("a.png")).unwrap();
        source.insert("a.png", b"two".to_vec());
        assert_ne!(source.stamp(Path::new("a.png")).unwrap(), before);
    }

    #[test]
    fn a_recording_copy_lists_what_it_and_its_clones_read() {
        let files = Files::new(
            MemorySource::new()
                .with("a.pie", b"PIE 3".to_vec())
                .with("b.png", b"png".to_vec())
                .with("m.wz", zip(&[("x/y.pie", b"PIE 2")])),
        );
        let rec = files.recording();
        let clone = rec.clone();
        rec.read(&FileRef::Disk("a.pie".into())).unwrap();
        let entry = files.parse(Path::new("m.wz!/x/y.pie"));
        clone.read(&entry).unwrap();
        assert!(rec.read(&FileRef::Disk("missing.png".into())).is_err());
        assert!(rec.is_file(&FileRef::Disk("b.png".into())));
        files.read(&FileRef::Disk("b.png".into())).unwrap();
        assert_eq!(rec.recorded(), [FileRef::Disk("a.pie".into()), entry]);
        assert!(files.recorded().is_empty(), "the original records nothing");
    }
}
