//! [`Output`]: where what Vitrine makes goes, as the front-end provides it — the
//! desktop's disk (written atomically, never half a file), the page's downloads, memory
//! in tests ([`MemoryOutput`]). The egui app's `Host` extends it, so the window, the page
//! and the command line write through the same seam.

use crate::files::{EntryKind, FileRef, Files, MemorySource};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// Where files are written, and the files as they are (to read pages from, and to see
/// what a new file would meet).
pub trait Output: Send + Sync {
    /// The files read: the desktop's disk (archives read on top), the browser's
    /// dropped, picked or fetched files.
    fn files(&self) -> Files;

    /// Writes `bytes` to `path` (a place the user chose), whole or not at all.
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()>;

    /// Writes `bytes` to `path` as a new file, whole or not at all; an
    /// [`io::ErrorKind::AlreadyExists`] error if there is a file there already.
    fn write_new(&self, path: &Path, bytes: &[u8]) -> io::Result<()>;

    /// A file at `path` written as a stream and kept only once committed (animation
    /// exports).
    fn create(&self, path: &Path) -> io::Result<Box<dyn OutputFile>>;

    /// Removes a file written through this output (a cancelled PNG sequence).
    fn remove(&self, path: &Path) -> io::Result<()>;
}

/// A file being written by [`Output::create`].
pub trait OutputFile: io::Write + Send {
    /// Keeps the file; where it is.
    fn commit(self: Box<Self>) -> io::Result<PathBuf>;
}

/// An output with no disk: files read from memory ([`MemorySource`]) and what is written
/// kept in memory by path ([`MemoryOutput::written`]). Tests use it, and the app's
/// `MemoryHost` writes through one.
#[derive(Debug, Default)]
pub struct MemoryOutput {
    files: Option<Files>,
    written: Written,
}

/// Files written to a [`MemoryOutput`], by path.
type Written = Arc<Mutex<BTreeMap<PathBuf, Vec<u8>>>>;

fn lock(w: &Written) -> MutexGuard<'_, BTreeMap<PathBuf, Vec<u8>>> {
    w.lock().unwrap_or_else(|e| e.into_inner())
}

impl MemoryOutput {
    /// An output reading `source`.
    pub fn new(source: MemorySource) -> MemoryOutput {
        MemoryOutput {
            files: Some(Files::new(source)),
            written: Written::default(),
        }
    }

    /// The bytes written to `path`, if any.
    pub fn written(&self, path: &Path) -> Option<Vec<u8>> {
        lock(&self.written).get(path).cloned()
    }
}

/// A file of a [`MemoryOutput`], kept when committed.
struct MemoryFile {
    path: PathBuf,
    bytes: Vec<u8>,
    written: Written,
}

impl io::Write for MemoryFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl OutputFile for MemoryFile {
    fn commit(self: Box<Self>) -> io::Result<PathBuf> {
        let MemoryFile {
            path,
            bytes,
            written,
        } = *self;
        lock(&written).insert(path.clone(), bytes);
        Ok(path)
    }
}

impl Output for MemoryOutput {
    fn files(&self) -> Files {
        self.files
            .clone()
            .unwrap_or_else(|| Files::new(MemorySource::new()))
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        if self.files().kind(&FileRef::Disk(path.to_path_buf())) == Some(EntryKind::Dir) {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                format!("{}: is a folder", path.display()),
            ));
        }
        lock(&self.written).insert(path.to_path_buf(), bytes.to_vec());
        Ok(())
    }

    fn write_new(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let taken = lock(&self.written).contains_key(path)
            || self
                .files()
                .kind(&FileRef::Disk(path.to_path_buf()))
                .is_some();
        if taken {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{}: already exists", path.display()),
            ));
        }
        self.write(path, bytes)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn OutputFile>> {
        Ok(Box::new(MemoryFile {
            path: path.to_path_buf(),
            bytes: Vec::new(),
            written: self.written.clone(),
        }))
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        lock(&self.written).remove(path);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_never_replaces_one_read_or_written() {
        let out = MemoryOutput::new(MemorySource::new().with("old.png", "x"));
        let e = out.write_new(Path::new("old.png"), b"y").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        out.write_new(Path::new("new.png"), b"1").unwrap();
        let e = out.write_new(Path::new("new.png"), b"2").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(
            out.written(Path::new("new.png")).as_deref(),
            Some(&b"1"[..])
        );
        out.write(Path::new("new.png"), b"3").unwrap();
        assert_eq!(
            out.written(Path::new("new.png")).as_deref(),
            Some(&b"3"[..])
        );
    }

    #[test]
    fn a_streamed_file_is_kept_only_once_committed() {
        use std::io::Write;
        let out = MemoryOutput::default();
        let mut f = out.create(Path::new("a.gif")).unwrap();
        f.write_all(b"GIF89a").unwrap();
        assert_eq!(out.written(Path::new("a.gif")), None);
        assert_eq!(f.commit().unwrap(), Path::new("a.gif"));
        assert_eq!(
            out.written(Path::new("a.gif")).as_deref(),
            Some(&b"GIF89a"[..])
        );
        drop(out.create(Path::new("b.gif")).unwrap());
        assert_eq!(
            out.written(Path::new("b.gif")),
            None,
            "dropped: nothing kept"
        );
    }
}
