//! The desktop's [`FileSource`]: the disk through `std::fs` — the only code of the core's
//! kind that touches the file system. [`disk`] is the one shared [`Files`] over it (its
//! archive cache lives as long as the program), and the free functions beside it
//! ([`super::read`], [`super::list`], …) read through it.

use super::{EntryKind, FileSource, Files, MAX_FILE_BYTES, ReadAt, Stamp};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

/// Files and folders on disk. Links are followed (a link to a file is a file); a
/// broken link is left out of a listing.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiskSource;

static DISK: LazyLock<Files> = LazyLock::new(|| Files::new(DiskSource));

/// The disk, with archives read on top: what the window and the command line read from.
pub fn disk() -> &'static Files {
    &DISK
}

fn too_large(what: &str, len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("{what}: {len} bytes; the limit is {MAX_FILE_BYTES}"),
    )
}

impl FileSource for DiskSource {
    fn kind(&self, path: &Path) -> Option<EntryKind> {
        let m = std::fs::metadata(path).ok()?;
        Some(if m.is_dir() {
            EntryKind::Dir
        } else {
            EntryKind::File
        })
    }

    /// Refuses anything over [`MAX_FILE_BYTES`], a folder, or anything that is not a
    /// regular file (a FIFO or a device would block or never end).
    fn read(&self, p: &Path) -> io::Result<Vec<u8>> {
        let m = std::fs::metadata(p).map_err(|e| super::atomic::with_path(e, p))?;
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
        let f = std::fs::File::open(p).map_err(|e| super::atomic::with_path(e, p))?;
        let mut out = Vec::with_capacity(m.len() as usize);
        f.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut out)
            .map_err(|e| super::atomic::with_path(e, p))?;
        if out.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large(&p.display().to_string(), out.len() as u64));
        }
        Ok(out)
    }

    fn open(&self, path: &Path) -> io::Result<Arc<dyn ReadAt>> {
        let file = std::fs::File::open(path).map_err(|e| super::atomic::with_path(e, path))?;
        let len = file
            .metadata()
            .map_err(|e| super::atomic::with_path(e, path))?
            .len();
        Ok(Arc::new(OpenFile { file, len }))
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<(String, EntryKind)>> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).map_err(|e| super::atomic::with_path(e, dir))? {
            let e = e.map_err(|e| super::atomic::with_path(e, dir))?;
            let Some(kind) = self.kind(&e.path()) else {
                continue;
            };
            out.push((e.file_name().to_string_lossy().into_owned(), kind));
        }
        Ok(out)
    }

    fn stamp(&self, path: &Path) -> io::Result<Stamp> {
        let m = std::fs::metadata(path).map_err(|e| super::atomic::with_path(e, path))?;
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

    /// [`absolute_folded`]: `sub/../a.pie` is the file `a.pie` in the working folder (its
    /// folders the ones `texpages/` is looked for in), spelled as the user spelled the
    /// way there — links are not resolved, so a file under a data root given through a
    /// link stays under that root's spelling (publish compares the two).
    fn full_path(&self, path: &Path) -> PathBuf {
        absolute_folded(path)
    }
}

/// `path` made absolute against the working folder, `.` and `..` folded without reading
/// the disk (a link is never followed to name a file).
pub fn absolute_folded(path: &Path) -> PathBuf {
    let joined = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// A file opened for reads at an offset: one `pread` each on Unix, `seek_read` on
/// Windows, so threads reading entries of one archive share no position and no lock.
#[derive(Debug)]
struct OpenFile {
    file: std::fs::File,
    /// Its length when opened.
    len: u64,
}

impl ReadAt for OpenFile {
    #[cfg(unix)]
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(&self.file, buf, offset)
    }

    #[cfg(windows)]
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(&self.file, buf, offset)
    }

    fn size(&self) -> u64 {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_paths_fold_parent_folders_without_following_links() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("a.pie"), "PIE 3").unwrap();
        let files = disk();
        let via_parent = dir.path().join("sub").join("..").join("a.pie");
        assert_eq!(files.full_path(&via_parent), dir.path().join("a.pie"));
        // A file that does not exist is folded the same way.
        let gone = dir.path().join("sub/../gone.pie");
        assert_eq!(files.full_path(&gone), dir.path().join("gone.pie"));
        // A relative path is made absolute.
        assert!(files.full_path(Path::new("a.pie")).is_absolute());
        // Through a link to a folder, the link's spelling stays (a data root named
        // through a link keeps holding the files found under it).
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(dir.path().join("sub"), &link).unwrap();
            std::fs::write(dir.path().join("sub/b.pie"), "PIE 3").unwrap();
            let through = link.join("..").join("link").join("b.pie");
            assert_eq!(files.full_path(&through), link.join("b.pie"));
        }
    }
}
