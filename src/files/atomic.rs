//! The one way Vitrine writes a file: into a temporary file beside the target, then a
//! rename, so a reader (the game, a forum upload, the next start of Vitrine) sees either
//! the old file or the whole new one — never half of it. Settings, screenshots, batch
//! thumbnails and every exporter use it.
//!
//! A writer that is dropped without [`AtomicFile::commit`] (an error, a cancelled export,
//! a panic) removes its temporary file: nothing is left behind.
//!
//! Permissions: a written file gets the mode `File::create` would give it (0666 less the
//! process's umask, so 0644 usually) or, when it replaces a file, that file's mode — an
//! export or a screenshot must be readable by the game, a web server or another user
//! like any other file the user saves (`tempfile` alone would leave it 0600).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file being written; becomes visible under its name only on [`AtomicFile::commit`].
#[derive(Debug)]
pub struct AtomicFile {
    tmp: tempfile::NamedTempFile,
    target: PathBuf,
}

impl AtomicFile {
    /// Starts writing `target`, creating its folder if needed. The temporary file lives
    /// in the same folder (a rename across file systems is not atomic).
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
        let dir = parent_dir(target);
        std::fs::create_dir_all(dir).map_err(|e| with_path(e, dir))?;
        let stem = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{stem}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // What `File::create` gives: 0666 less the umask (tempfile's default is 0600).
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let tmp = builder.tempfile_in(dir).map_err(|e| with_path(e, target))?;
        Ok(AtomicFile {
            tmp,
            target: target.to_path_buf(),
        })
    }

    /// The name the file will have once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes to disk and renames over `target` (replacing an existing file, whose mode
    /// the new one keeps).
    pub fn commit(self) -> io::Result<PathBuf> {
        self.finish()?;
        let target = self.target;
        self.tmp
            .persist(&target)
            .map_err(|e| with_path(e.error, &target))?;
        Ok(target)
    }

    /// Gives the temporary file the mode of the file it replaces (if any) and flushes it
    /// to disk.
    fn finish(&self) -> io::Result<()> {
        self.keep_mode()?;
        let file = self.tmp.as_file();
        file.sync_all().map_err(|e| with_path(e, self.tmp.path()))
    }

    /// Gives the temporary file the mode of the file it replaces, if any.
    fn keep_mode(&self) -> io::Result<()> {
        if let Ok(m) = std::fs::metadata(&self.target)
            && m.is_file()
        {
            self.tmp
                .as_file()
                .set_permissions(m.permissions())
                .map_err(|e| with_path(e, self.tmp.path()))?;
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}

impl io::Seek for AtomicFile {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.tmp.seek(pos)
    }
}

/// Writes `bytes` to `path` atomically, replacing what was there.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| with_path(e, path))?;
    f.commit().map(|_| ())
}

/// Writes `bytes` as `folder/<stem>-<n>.<ext>` with the smallest `n ≥ 1` whose name is
/// free, never replacing a file (two processes saving at once get different names).
/// Returns the path written.
pub fn write_numbered(folder: &Path, stem: &str, ext: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    let mut f = AtomicFile::create(&folder.join(format!("{stem}.{ext}")))?;
    f.write_all(bytes)?;
    f.finish()?;
    let mut tmp = f.tmp;
    for n in 1..=100_000u32 {
        let path = folder.join(format!("{stem}-{n}.{ext}"));
        if path.exists() {
            continue;
        }
        match tmp.persist_noclobber(&path) {
            Ok(_) => return Ok(path),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => tmp = e.file,
            Err(e) => return Err(with_path(e.error, &path)),
        }
    }
    Err(io::Error::other(format!(
        "no free name {stem}-<n>.{ext} in {}",
        folder.display()
    )))
}

/// Removes a file this process committed earlier: the frames of a PNG sequence already
/// written when the export is cancelled or fails. A file already gone is not an error.
pub fn remove(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(with_path(e, path)),
        _ => Ok(()),
    }
}

/// Moves the file `from` to `to` (replacing `to`): a corrupt settings file set aside as
/// `settings.json.bad`.
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::rename(from, to).map_err(|e| with_path(e, from))
}

/// The folder `path` is in (`.` for a bare name).
fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Adds the path to an I/O error's message (std's errors do not name it).
pub(crate) fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Writes `bytes` to `path` as [`write()`] does (a temporary file renamed over the
/// target, keeping a replaced file's mode) but without waiting for the disk: no fsync.
/// For batches of many files (`vitrine export DIR`) and caches (the gallery's
/// thumbnails), where one flush per file took more time than making the files. A
/// reader, or a crash of Vitrine, still sees the old file or the whole new one; only a
/// power cut or a kernel crash within seconds of the batch may leave some of its files
/// empty, which running the batch again (or re-rendering the cache entry) repairs.
/// Everything else (settings, screenshots, single exports, animations) uses [`write()`].
pub fn write_unsynced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| with_path(e, path))?;
    f.keep_mode()?;
    f.tmp.persist(path).map_err(|e| with_path(e.error, path))?;
    Ok(())
}

/// Writes `bytes` to `path` only if no file is there: the rename refuses to replace one
/// (an `AlreadyExists` error), even one another process created meanwhile.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| with_path(e, path))?;
    f.finish()?;
    f.tmp
        .persist_noclobber(path)
        .map_err(|e| with_path(e.error, path))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn write_replaces_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("nested/settings.json");
        write(&p, b"one").unwrap();
        write(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(names(&dir.path().join("nested")), ["settings.json"]);
    }

    #[test]
    fn dropped_writer_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.gif");
        {
            let mut f = AtomicFile::create(&p).unwrap();
            f.write_all(b"half a gif").unwrap();
        }
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }

    #[test]
    fn numbered_names_count_up() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_numbered(dir.path(), "tank", "png", b"first").unwrap();
        let b = write_numbered(dir.path(), "tank", "png", b"second").unwrap();
        assert_eq!(a.file_name().unwrap(), "tank-1.png");
        assert_eq!(b.file_name().unwrap(), "tank-2.png");
        assert_eq!(std::fs::read(&b).unwrap(), b"second");
        assert_eq!(names(dir.path()), ["tank-1.png", "tank-2.png"]);
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    /// The process's umask, read from a file made the ordinary way.
    #[cfg(unix)]
    fn umask_mode(dir: &Path) -> u32 {
        let probe = dir.join("probe");
        std::fs::write(&probe, b"").unwrap();
        let m = mode(&probe);
        std::fs::remove_file(&probe).unwrap();
        m
    }

    #[cfg(unix)]
    #[test]
    fn new_files_get_ordinary_permissions_and_replaced_files_keep_theirs() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let ordinary = umask_mode(dir.path());
        assert_ne!(
            ordinary & 0o044,
            0,
            "test needs a umask that lets others read"
        );

        let p = dir.path().join("shot.png");
        write(&p, b"new").unwrap();
        assert_eq!(mode(&p), ordinary, "a new file is made like File::create's");
        let n = write_numbered(dir.path(), "tank", "png", b"x").unwrap();
        assert_eq!(mode(&n), ordinary);
        let mut f = AtomicFile::create(&dir.path().join("c.glb")).unwrap();
        f.write_all(b"x").unwrap();
        assert_eq!(mode(&f.commit().unwrap()), ordinary);

        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&p, b"again").unwrap();
        assert_eq!(mode(&p), 0o640, "a replaced file keeps its mode");
    }

    #[test]
    fn unwritable_target_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, b"x").unwrap();
        let err = write(&blocker.join("out.png"), b"x").unwrap_err();
        assert!(err.to_string().contains("file"), "{err}");
        assert_eq!(names(dir.path()), ["file"]);
    }

    #[test]
    fn unsynced_writes_replace_atomically_too() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub/m.glb");
        write_unsynced(&p, b"one").unwrap();
        write_unsynced(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(names(&dir.path().join("sub")), ["m.glb"]);
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, b"x").unwrap();
        let err = write_unsynced(&blocker.join("m.glb"), b"x").unwrap_err();
        assert!(err.to_string().contains("file"), "{err}");
    }
}
