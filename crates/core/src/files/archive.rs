//! Zip archives (`.wz`, `.zip`) as read-only folders.
//!
//! An archive's central directory is read once and kept (by path, reopened when the
//! file's size or modification time changes), indexed by folder, so listing a folder
//! costs what is in it, whatever the archive holds. Entries are decompressed only when
//! read, one at a time, never the whole archive, straight from their byte range: no lock,
//! readers on several threads do not wait on each other. Entry names are normalised
//! (`\` → `/`); a name that would leave the archive or an output folder on any system
//! (`..`, absolute, a UNC share, a drive `C:`), that is empty or `.`, holds a control
//! character or is a Windows device is ignored ([`super::entry_name`]), and reported.
//!
//! What a hostile archive cannot do:
//! - inflate one entry past [`super::MAX_FILE_BYTES`], or past the size it declares;
//! - make entries share compressed bytes (the overlapping-entry zip bomb, where a
//!   thousand names inflate one kernel a thousand times): such entries are refused;
//! - inflate, over all its entries, more than [`super::INFLATE_RATIO`] times its own
//!   size (at least [`super::MIN_INFLATE_LIMIT`]); an entry counts once however often it
//!   is read;
//! - make opening cost more than its directory: the folder index is a tree (each name is
//!   stored once, not once per ancestor), and a name over [`super::MAX_ENTRY_NAME_BYTES`]
//!   or [`super::MAX_ENTRY_DEPTH`] is refused (the other entries are read);
//! - hide an entry behind another of the same name (any case): the first in the
//!   directory is read, as always, and the others are listed in [`Archive::duplicates`].

mod central;
mod folders;
mod source;

use super::path::{NameError, entry_name, printable};
use super::{EntryKind, INFLATE_RATIO, MAX_FILE_BYTES, MIN_INFLATE_LIMIT, Stamp};
use central::Record;
use folders::Folders;
pub use source::ReadAt;
use source::{Cursor, Source};
use std::collections::{HashMap, HashSet};
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// One file entry of an archive.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Normalised path, as spelled in the archive.
    pub path: String,
    /// Index of its record in the central directory.
    index: usize,
    /// Uncompressed size as declared.
    pub size: u64,
    /// CRC-32 as declared (changes when the entry's content does).
    pub crc: u32,
    /// Where its local header is, its compressed size, method and flags.
    header: u64,
    compressed: u64,
    method: u16,
    flags: u16,
    /// Where the next entry's local header (or the central directory) starts: this
    /// entry's header and data must end there.
    limit: u64,
    /// The file entry (index in the archive's files) whose header is at `limit`; `None`
    /// for the central directory.
    next: Option<usize>,
}

/// A file entry ignored because an earlier one has the same name (any case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The ignored entry's normalised path, as spelled.
    pub path: String,
    /// The entry read instead: the first of that name in the central directory.
    pub first: String,
    /// Whether the two hold the same bytes (same size and CRC-32).
    pub same_content: bool,
}

impl Duplicate {
    /// One line for the user: what is read instead, and that this one is ignored.
    pub fn message(&self) -> String {
        let contents = if self.same_content {
            "the same contents"
        } else {
            "different contents"
        };
        format!(
            "duplicate name: {} comes first in the archive with the same name (any case) and is \
             the one read; this entry ({contents}) is ignored",
            self.first
        )
    }
}

/// An entry not read because of its name: refused ([`super::entry_name`]), or a file
/// with the name of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    /// Its name, printable ([`super::printable`]) and shortened to about 120 characters
    /// (a refused name may be 64 KiB long).
    pub name: String,
    /// Its index in the central directory (from 0).
    pub index: usize,
    /// Where its local header is, in bytes from the start of the archive.
    pub header: u64,
    /// Why it is not read.
    pub why: String,
}

impl Ignored {
    /// One line for the user: which entry (index, offset), why, and that it is ignored.
    pub fn message(&self) -> String {
        format!(
            "entry {} (local header at byte {}): {}; ignored",
            self.index, self.header, self.why
        )
    }
}

/// `name` to show in a message: printable, and its first and last characters only when
/// it is long (the end holds the extension).
fn shown(name: &str) -> String {
    let text = printable(name);
    let n = text.chars().count();
    if n <= 120 {
        return text.into_owned();
    }
    let head: String = text.chars().take(60).collect();
    let tail: String = text.chars().skip(n - 40).collect();
    format!("{head}…({} bytes)…{tail}", name.len())
}

/// What one archive has inflated: bytes, and the records counted (each once).
#[derive(Debug, Default)]
struct Inflated {
    bytes: u64,
    counted: HashSet<usize>,
}

/// An opened archive: its entries, and a handle to read them.
pub struct Archive {
    stamp: Stamp,
    source: Source,
    /// File entries sorted by path.
    files: Vec<Entry>,
    /// Index in `files` by lower-case path.
    by_lower: HashMap<String, usize>,
    /// Every folder, explicit or implied by a file, with its children.
    folders: Folders,
    /// Entries (by record) refused because their bytes overlap another's: why.
    refused: HashMap<usize, String>,
    /// What may be inflated in all, and what has been.
    inflate_limit: u64,
    inflated: Mutex<Inflated>,
    /// Entries ignored for their names (refused, or a file named as a folder), in
    /// directory order, for the caller to report.
    pub ignored: Vec<Ignored>,
    /// File entries ignored because an earlier entry has the same name (any case), in
    /// directory order, for the caller to report.
    pub duplicates: Vec<Duplicate>,
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive")
            .field("files", &self.files.len())
            .field("ignored", &self.ignored)
            .field("duplicates", &self.duplicates)
            .finish()
    }
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

/// The parent folder of a path (`""` at the top) and its last component.
fn split_parent(path: &str) -> (&str, &str) {
    path.rsplit_once('/').unwrap_or(("", path))
}

/// `bytes` for a message: `12.3 MiB`.
fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1u32 << 20))
}

impl Archive {
    /// An archive held in memory (a zip downloaded or nested in another); `name` is
    /// used in messages only. Reads the same way as one on disk.
    pub fn from_bytes(bytes: Vec<u8>, name: &Path) -> io::Result<Archive> {
        let bytes: Arc<[u8]> = bytes.into();
        Archive::from_reader(Arc::new(bytes), name, Stamp::default())
    }

    /// The archive in `reader` (what a [`super::FileSource`] opened), at `path` (for
    /// messages) in the version `stamp`.
    pub fn from_reader(reader: Arc<dyn ReadAt>, path: &Path, stamp: Stamp) -> io::Result<Archive> {
        let source = Source::new(reader);
        let (records, directory_start) = {
            let reader = BufReader::with_capacity(1 << 16, Cursor::new(source.clone(), 0));
            let zip = zip::ZipArchive::new(reader).map_err(|e| bad(path, e))?;
            let records = central::records(&source, &zip).map_err(|e| bad(path, e))?;
            (records, zip.central_directory_start())
        };
        let mut a = Archive {
            stamp,
            inflate_limit: source
                .len()
                .saturating_mul(INFLATE_RATIO)
                .max(MIN_INFLATE_LIMIT),
            source,
            files: Vec::new(),
            by_lower: HashMap::new(),
            folders: Folders::default(),
            refused: HashMap::new(),
            inflated: Mutex::default(),
            ignored: Vec::new(),
            duplicates: Vec::new(),
        };
        a.index(records);
        a.bound_entries(directory_start);
        Ok(a)
    }

    /// Builds the file and folder indexes from the directory: the first entry of each
    /// name (any case) wins; a folder takes the spelling that first names it. Costs each
    /// name's length once (the folders are a tree, not a map of full paths).
    fn index(&mut self, records: Vec<Record>) {
        let mut files: Vec<(String, Entry)> = Vec::new();
        let mut first: HashMap<String, usize> = HashMap::new();
        for (index, r) in records.into_iter().enumerate() {
            let name = match entry_name(&r.name) {
                Ok(name) => name,
                // `./` or `/` as a folder: the root, said again.
                Err(NameError::Empty) if r.is_dir() => continue,
                Err(why) => {
                    self.ignore(&r.name, index, r.header, why.to_string());
                    continue;
                }
            };
            let lower = name.to_lowercase();
            // Every ancestor (and a folder entry itself) is a folder. Lower-casing may
            // change lengths, so components are cut from each spelling separately.
            let is_dir = r.is_dir();
            let depth = lower.split('/').count() - usize::from(!is_dir);
            self.folders.add(&lower, &name, depth);
            if is_dir {
                continue;
            }
            if let Some(&i) = first.get(&lower) {
                let kept: &Entry = &files[i].1;
                self.duplicates.push(Duplicate {
                    path: name,
                    first: kept.path.clone(),
                    same_content: kept.size == r.size && kept.crc == r.crc,
                });
                continue;
            }
            first.insert(lower.clone(), files.len());
            let entry = Entry {
                path: name,
                index,
                size: r.size,
                crc: r.crc,
                header: r.header,
                compressed: r.compressed,
                method: r.method,
                flags: r.flags,
                limit: u64::MAX,
                next: None,
            };
            files.push((lower, entry));
        }
        drop(first);
        // A name that is both a file and a folder (`a` and `a/b`: impossible on disk,
        // easy in a zip) is the folder; the file is ignored (found by fuzzing).
        let mut clashes = Vec::new();
        files.retain(|(lower, e)| {
            let clash = self.folders.contains(lower);
            if clash {
                clashes.push((e.path.clone(), e.index, e.header));
            }
            !clash
        });
        for (path, index, header) in clashes {
            let why = "a folder has the same name (any case); the folder is read".to_string();
            self.ignore(&path, index, header, why);
        }
        self.ignored.sort_by_key(|i| i.index);
        for (lower, e) in &files {
            let (parent, _) = split_parent(lower);
            let (_, name) = split_parent(&e.path);
            self.folders.add_file(parent, name);
        }
        self.folders.sort();
        files.sort_by(|a, b| a.1.path.cmp(&b.1.path));
        self.by_lower = files
            .iter()
            .enumerate()
            .map(|(i, (lower, _))| (lower.clone(), i))
            .collect();
        self.files = files.into_iter().map(|(_, e)| e).collect();
    }

    /// Records that the entry `index` (named `name`, its header at `header`) is not read.
    fn ignore(&mut self, name: &str, index: usize, header: u64, why: String) {
        self.ignored.push(Ignored {
            name: shown(name),
            index,
            header,
            why,
        });
    }

    /// Bounds each file entry by the next local header (or the central directory) in
    /// the file, from the directory alone: entries whose headers share an offset (the
    /// shared-kernel zip bomb), or lie in the directory, are refused now; an entry whose
    /// data runs past its bound (Fifield's nested entries) is refused when read, once its
    /// local header says where its data starts. Opening reads no local header, so it
    /// costs the directory, however many entries there are (and a remote archive
    /// fetches nothing more).
    fn bound_entries(&mut self, directory_start: u64) {
        let mut order: Vec<usize> = (0..self.files.len()).collect();
        order.sort_by_key(|&i| (self.files[i].header, i));
        for (k, &i) in order.iter().enumerate() {
            let header = self.files[i].header;
            let shared = [k.checked_sub(1), Some(k + 1)]
                .into_iter()
                .flatten()
                .filter_map(|j| order.get(j))
                .find(|&&j| self.files[j].header == header);
            let why = if let Some(&other) = shared {
                Some(format!(
                    "refused: its local header (byte {header}) is that of entry {} too; \
                     entries that share compressed data (their bytes overlap those of \
                     entry {}) are how zip bombs inflate one stream many times",
                    self.files[other].path, self.files[other].path
                ))
            } else if header >= directory_start {
                Some(format!(
                    "refused: its bytes (from {header}) overlap those of the central \
                     directory (from byte {directory_start})"
                ))
            } else {
                None
            };
            if let Some(why) = why {
                self.refused.insert(self.files[i].index, why);
                continue;
            }
            let next = order[k + 1..]
                .iter()
                .find(|&&j| self.files[j].header > header)
                .copied()
                .filter(|&j| self.files[j].header < directory_start);
            let limit = next.map_or(directory_start, |j| self.files[j].header);
            let e = &mut self.files[i];
            e.next = next;
            e.limit = limit;
        }
    }

    /// Where `entry`'s local header and data lie, as far as the directory tells: from its
    /// header to the next entry's (bounded, whatever lies between the two).
    fn span(entry: &Entry) -> std::ops::Range<u64> {
        let most = entry
            .header
            .saturating_add(central::LOCAL_FIXED + 2 * u64::from(u16::MAX))
            .saturating_add(entry.compressed);
        entry.header..entry.limit.min(most)
    }

    /// Says that the file entries whose paths `pick` accepts are about to be read
    /// ([`ReadAt::advise`]): a gallery of an archive read over a network fetches its
    /// models in a few requests instead of one per model.
    pub fn advise_entries(&self, pick: impl Fn(&str) -> bool) {
        for e in &self.files {
            if pick(&e.path) && !self.refused.contains_key(&e.index) {
                self.source.advise(Archive::span(e));
            }
        }
    }

    /// Where `entry`'s compressed data starts (from its local header), or why it may not
    /// be read: no header there, or its data running into the next entry's bytes.
    /// `reading` is what is about to be read, from the local header on (advised at once:
    /// a reader over a network fetches header and data in one request).
    fn data_start(
        &self,
        entry: &Entry,
        reading: std::ops::Range<u64>,
    ) -> Result<u64, (io::ErrorKind, String)> {
        self.source.advise(reading);
        let data = central::data_start(&self.source, entry.header)?;
        let end = data.saturating_add(entry.compressed);
        if end > entry.limit {
            let what = match entry.next {
                Some(j) => format!(
                    "entry {} (from byte {})",
                    self.files[j].path, self.files[j].header
                ),
                None => format!("the central directory (from byte {})", entry.limit),
            };
            let why = format!(
                "refused: its bytes {}..{end} overlap those of {what}; entries that share \
                 compressed data are how zip bombs inflate one stream many times",
                entry.header
            );
            return Err((io::ErrorKind::InvalidData, why));
        }
        Ok(data)
    }

    /// The file entry at `path` (any case).
    pub fn file(&self, path: &str) -> Option<&Entry> {
        self.by_lower
            .get(&path.to_lowercase())
            .map(|&i| &self.files[i])
    }

    /// What `path` (any case) is: a file, a folder, or nothing.
    pub fn kind(&self, path: &str) -> Option<EntryKind> {
        let lower = path.to_lowercase();
        if self.by_lower.contains_key(&lower) {
            Some(EntryKind::File)
        } else if self.folders.contains(&lower) {
            Some(EntryKind::Dir)
        } else {
            None
        }
    }

    /// Every file entry, sorted by path.
    pub fn files(&self) -> Vec<&Entry> {
        self.files.iter().collect()
    }

    /// The immediate children of folder `dir` (any case): `(name as spelled, kind)`,
    /// sorted. Costs what the folder holds, not what the archive does.
    pub fn children(&self, dir: &str) -> Vec<(String, EntryKind)> {
        self.folders
            .children(&dir.to_lowercase())
            .map(<[_]>::to_vec)
            .unwrap_or_default()
    }

    /// Decompresses the file at `path`. Refuses an entry that declares or inflates to
    /// more than [`MAX_FILE_BYTES`] or than it declares, one whose bytes overlap
    /// another's, and one that would take what this archive has inflated past its limit.
    pub fn read(&self, archive_path: &Path, path: &str) -> io::Result<Vec<u8>> {
        let entry = self.entry(archive_path, path)?;
        let where_ = format!("{}!/{}", archive_path.display(), entry.path);
        let reading = Archive::span(entry);
        let raw = self.open_data(archive_path, entry, reading)?;
        // One byte more than declared tells an entry that lies about its size.
        let out = self.inflate(&where_, entry, raw, entry.size + 1)?;
        if out.len() as u64 != entry.size {
            let why = format!(
                "damaged entry: it inflates to {}{} bytes, its header says {}",
                out.len(),
                if out.len() as u64 > entry.size {
                    " or more"
                } else {
                    ""
                },
                entry.size
            );
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{where_}: {why}"),
            ));
        }
        if crc32fast::hash(&out) != entry.crc {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{where_}: damaged entry: its CRC-32 does not match its contents"),
            ));
        }
        Ok(out)
    }

    /// The first `len` bytes of the file at `path` (the whole file when it is no longer,
    /// read and checked as [`Archive::read`] does): a reader over a network fetches only
    /// its local header and those bytes (a stored entry), or about as many compressed
    /// bytes as its ratio says (a deflated one; more are asked for when they do not
    /// suffice). The entry's CRC-32 covers all of it, so a part is checked for
    /// everything but that: its header, its bounds, its method and that it holds `len`
    /// bytes.
    pub fn read_prefix(&self, archive_path: &Path, path: &str, len: u64) -> io::Result<Vec<u8>> {
        let entry = self.entry(archive_path, path)?;
        if len >= entry.size {
            return self.read(archive_path, path);
        }
        let where_ = format!("{}!/{}", archive_path.display(), entry.path);
        // The local header's name and extra field: the directory's name and some room.
        let header = central::LOCAL_FIXED + entry.path.len() as u64 + 256;
        let compressed = match entry.method {
            0 => len,
            _ => (u128::from(entry.compressed) * u128::from(len) / u128::from(entry.size))
                .try_into()
                .unwrap_or(u64::MAX)
                .saturating_add(16 << 10),
        };
        let span = Archive::span(entry);
        let end = entry
            .header
            .saturating_add(header)
            .saturating_add(compressed)
            .min(span.end);
        let raw = self.open_data(archive_path, entry, span.start..end)?;
        let out = self.inflate(&where_, entry, raw, len)?;
        if (out.len() as u64) < len {
            let why = format!(
                "damaged entry: it inflates to {} bytes, its header says {}",
                out.len(),
                entry.size
            );
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{where_}: {why}"),
            ));
        }
        Ok(out)
    }

    /// The file entry at `path`, or the error naming it.
    fn entry(&self, archive_path: &Path, path: &str) -> io::Result<&Entry> {
        self.file(path).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("{}!/{path}: no such entry", archive_path.display()),
            )
        })
    }

    /// A reader of `entry`'s compressed bytes, once it is checked: not too large, not
    /// refused, not encrypted, its local header there, its data within its bounds, and
    /// what it inflates to counted; `reading` is what is about to be read of it.
    fn open_data(
        &self,
        archive_path: &Path,
        entry: &Entry,
        reading: std::ops::Range<u64>,
    ) -> io::Result<Cursor> {
        let where_ = format!("{}!/{}", archive_path.display(), entry.path);
        let fail =
            |kind: io::ErrorKind, why: &str| io::Error::new(kind, format!("{where_}: {why}"));
        if entry.size > MAX_FILE_BYTES {
            return Err(super::too_large(&where_, entry.size));
        }
        if let Some(why) = self.refused.get(&entry.index) {
            return Err(fail(io::ErrorKind::InvalidData, why));
        }
        if entry.flags & 1 != 0 {
            return Err(fail(
                io::ErrorKind::Unsupported,
                "encrypted entries are not supported",
            ));
        }
        let start = match self.data_start(entry, reading) {
            Ok(start) => start,
            Err((kind, why)) => return Err(fail(kind, &why)),
        };
        self.count_inflated(entry, archive_path)
            .map_err(|why| fail(io::ErrorKind::FileTooLarge, &why))?;
        Ok(Cursor::range(self.source.clone(), start, entry.compressed))
    }

    /// Up to `limit` bytes inflated from `raw`, `entry`'s compressed bytes (`where_`
    /// names it in errors).
    fn inflate(&self, where_: &str, entry: &Entry, raw: Cursor, limit: u64) -> io::Result<Vec<u8>> {
        let fail =
            |kind: io::ErrorKind, why: &str| io::Error::new(kind, format!("{where_}: {why}"));
        let mut out = Vec::with_capacity(entry.size.min(limit).min(16 << 20) as usize);
        let read = match entry.method {
            0 => raw.take(limit).read_to_end(&mut out),
            8 => flate2::read::DeflateDecoder::new(raw)
                .take(limit)
                .read_to_end(&mut out),
            m => {
                let why =
                    format!("compression method {m} is not supported (only stored and deflate)");
                return Err(fail(io::ErrorKind::Unsupported, &why));
            }
        };
        read.map_err(|e| fail(e.kind(), &format!("damaged entry: {e}")))?;
        Ok(out)
    }

    /// Counts `entry`'s declared size against the archive's inflate limit (once per
    /// entry), or says why it may not be inflated.
    fn count_inflated(&self, entry: &Entry, archive_path: &Path) -> Result<(), String> {
        let mut done = lock(&self.inflated);
        if done.counted.contains(&entry.index) {
            return Ok(());
        }
        let total = done.bytes.saturating_add(entry.size);
        if total > self.inflate_limit {
            return Err(format!(
                "refused: inflating its {} would bring what {} has inflated to {}, over its \
                 limit of {} ({INFLATE_RATIO} × the archive's {}, at least {}; a zip bomb?)",
                mib(entry.size),
                super::file_name(archive_path),
                mib(total),
                mib(self.inflate_limit),
                mib(self.source.len()),
                mib(MIN_INFLATE_LIMIT),
            ));
        }
        done.bytes = total;
        done.counted.insert(entry.index);
        Ok(())
    }

    /// The version of the archive file this was read from.
    pub fn stamp(&self) -> Stamp {
        self.stamp
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

#[cfg(test)]
mod tests;
