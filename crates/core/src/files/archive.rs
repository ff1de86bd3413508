//! Zip archives (`.wz`, `.zip`) as read-only folders.
//!
//! An archive's central directory is read once and kept (by path, reopened when the
//! file's size or modification time changes); entries are decompressed only when read,
//! one at a time, never the whole archive. Entry names are normalised (`\` → `/`); names
//! with `..` or an absolute path are ignored. An entry may inflate to at most
//! [`super::MAX_FILE_BYTES`], whatever its header claims (zip bombs stop there).

use super::path::normalise_entry;
use super::{EntryKind, MAX_FILE_BYTES, Stamp};
use std::collections::{BTreeSet, HashMap};
use std::fs::File;
use std::io::{self, BufReader, Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

/// One file entry of an archive.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Normalised path, as spelled in the archive.
    pub path: String,
    /// Index in the zip's central directory.
    index: usize,
    /// Uncompressed size as declared.
    pub size: u64,
    /// CRC-32 as declared (changes when the entry's content does).
    pub crc: u32,
}

/// An opened archive: its entries, and a handle to read them.
pub struct Archive {
    stamp: Stamp,
    /// File entries by lower-case path.
    files: HashMap<String, Entry>,
    /// Every folder (lower-case path; `""` is the root), explicit or implied by a file.
    dirs: BTreeSet<String>,
    /// Names that were ignored (`..`, absolute, or a file named as a folder), for the
    /// caller to report.
    pub ignored: Vec<String>,
    zip: Mutex<zip::ZipArchive<Box<dyn ReadSeek>>>,
}

/// What an archive is read from: a file on disk, or bytes in memory.
pub trait ReadSeek: Read + Seek + Send {}
impl<T: Read + Seek + Send> ReadSeek for T {}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive")
            .field("files", &self.files.len())
            .field("ignored", &self.ignored)
            .finish()
    }
}

static OPEN: LazyLock<Mutex<HashMap<PathBuf, Arc<Archive>>>> = LazyLock::new(Default::default);

/// The archive at `path`, from the cache when the file has not changed.
pub fn open(path: &Path) -> io::Result<Arc<Archive>> {
    let stamp = super::disk_stamp(path)?;
    if let Some(a) = lock(&OPEN).get(path)
        && a.stamp == stamp
    {
        return Ok(a.clone());
    }
    let archive = Arc::new(Archive::load(path, stamp)?);
    lock(&OPEN).insert(path.to_path_buf(), archive.clone());
    Ok(archive)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn bad(path: &Path, e: impl std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: not a readable zip archive: {e}", path.display()),
    )
}

impl Archive {
    fn load(path: &Path, stamp: Stamp) -> io::Result<Archive> {
        let file = File::open(path).map_err(|e| super::atomic::with_path(e, path))?;
        Archive::from_reader(Box::new(BufReader::new(file)), path, stamp)
    }

    /// An archive held in memory (a zip downloaded or nested in another); `name` is
    /// used in messages only. Reads the same way as one on disk.
    pub fn from_bytes(bytes: Vec<u8>, name: &Path) -> io::Result<Archive> {
        Archive::from_reader(Box::new(io::Cursor::new(bytes)), name, Stamp::default())
    }

    fn from_reader(reader: Box<dyn ReadSeek>, path: &Path, stamp: Stamp) -> io::Result<Archive> {
        let mut zip = zip::ZipArchive::new(reader).map_err(|e| bad(path, e))?;
        let mut files = HashMap::new();
        let mut dirs = BTreeSet::from([String::new()]);
        let mut ignored = Vec::new();
        for index in 0..zip.len() {
            let e = zip.by_index_raw(index).map_err(|e| bad(path, e))?;
            let raw = match e.name() {
                Ok(n) => n.into_owned(),
                Err(_) => String::from_utf8_lossy(e.name_raw()).into_owned(),
            };
            let Some(name) = normalise_entry(&raw) else {
                ignored.push(raw);
                continue;
            };
            let lower = name.to_lowercase();
            let mut parent = lower.as_str();
            while let Some((d, _)) = parent.rsplit_once('/') {
                dirs.insert(d.to_string());
                parent = d;
            }
            if e.is_dir() || raw.ends_with(['/', '\\']) {
                if !lower.is_empty() {
                    dirs.insert(lower);
                }
                continue;
            }
            let entry = Entry {
                path: name,
                index,
                size: e.size(),
                crc: e.crc32(),
            };
            files.entry(lower).or_insert(entry);
        }
        // A name that is both a file and a folder (`a` and `a/b`: impossible on disk,
        // easy in a zip) is the folder; the file is ignored (found by fuzzing).
        files.retain(|lower, e| {
            let clash = dirs.contains(lower);
            if clash {
                ignored.push(e.path.clone());
            }
            !clash
        });
        ignored.sort();
        Ok(Archive {
            stamp,
            files,
            dirs,
            ignored,
            zip: Mutex::new(zip),
        })
    }

    /// The file entry at `path` (any case).
    pub fn file(&self, path: &str) -> Option<&Entry> {
        self.files.get(&path.to_lowercase())
    }

    /// What `path` (any case) is: a file, a folder, or nothing.
    pub fn kind(&self, path: &str) -> Option<EntryKind> {
        let lower = path.to_lowercase();
        if self.files.contains_key(&lower) {
            Some(EntryKind::File)
        } else if self.dirs.contains(&lower) {
            Some(EntryKind::Dir)
        } else {
            None
        }
    }

    /// Every file entry, sorted by path.
    pub fn files(&self) -> Vec<&Entry> {
        let mut v: Vec<&Entry> = self.files.values().collect();
        v.sort_by(|a, b| a.path.cmp(&b.path));
        v
    }

    /// The immediate children of folder `dir` (any case): `(name as spelled, kind)`.
    pub fn children(&self, dir: &str) -> Vec<(String, EntryKind)> {
        let lower = dir.to_lowercase();
        let prefix = if lower.is_empty() {
            String::new()
        } else {
            format!("{lower}/")
        };
        let mut out: Vec<(String, EntryKind)> = Vec::new();
        for (l, e) in &self.files {
            if let Some(rest) = l.strip_prefix(&prefix)
                && !rest.contains('/')
            {
                let name = e.path.rsplit('/').next().unwrap_or(&e.path);
                out.push((name.to_string(), EntryKind::File));
            }
        }
        for d in self.dirs.range(prefix.clone()..) {
            let Some(rest) = d.strip_prefix(&prefix) else {
                break;
            };
            if !rest.is_empty() && !rest.contains('/') {
                out.push((self.dir_spelling(d), EntryKind::Dir));
            }
        }
        out.sort();
        out
    }

    /// A folder's last component as some file below it spells it.
    fn dir_spelling(&self, lower: &str) -> String {
        let depth = lower.matches('/').count();
        let prefix = format!("{lower}/");
        self.files
            .iter()
            .find(|(l, _)| l.starts_with(&prefix))
            .and_then(|(_, e)| e.path.split('/').nth(depth))
            .unwrap_or_else(|| lower.rsplit('/').next().unwrap_or(lower))
            .to_string()
    }

    /// Decompresses the file at `path`; refuses an entry that declares or inflates to
    /// more than [`MAX_FILE_BYTES`].
    pub fn read(&self, archive_path: &Path, path: &str) -> io::Result<Vec<u8>> {
        let entry = self.file(path).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("{}!/{path}: no such entry", archive_path.display()),
            )
        })?;
        let where_ = || format!("{}!/{}", archive_path.display(), entry.path);
        if entry.size > MAX_FILE_BYTES {
            return Err(super::too_large(&where_(), entry.size));
        }
        let mut zip = lock(&self.zip);
        let file = zip.by_index(entry.index).map_err(|e| {
            io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", where_()))
        })?;
        let mut out = Vec::with_capacity(entry.size.min(16 << 20) as usize);
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut out)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", where_())))?;
        if out.len() as u64 > MAX_FILE_BYTES {
            return Err(super::too_large(&where_(), out.len() as u64));
        }
        Ok(out)
    }

    /// The stamp of the entry at `path`: the archive's, with the entry's CRC mixed in.
    pub fn entry_stamp(&self, path: &str) -> Option<Stamp> {
        let e = self.file(path)?;
        Some(Stamp {
            modified_ns: self.stamp.modified_ns,
            len: e.size ^ (u64::from(e.crc) << 32),
        })
    }
}
