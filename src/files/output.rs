//! The disk as vitrine-media's [`Output`] ([`DiskOutput`]): what the command line's
//! animations and packed pages, and the window's (through `DesktopHost`), are written
//! through — [`super::atomic`] writes (a temporary file renamed into place, never half a
//! file), reads through [`super::disk`].

use super::atomic;
use std::io;
use std::path::{Path, PathBuf};
use vitrine_media::{Output, OutputFile};

/// The disk, written atomically.
#[derive(Debug, Default, Clone, Copy)]
pub struct DiskOutput;

impl Output for DiskOutput {
    fn files(&self) -> super::Files {
        super::disk().clone()
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        atomic::write(path, bytes)
    }

    fn write_new(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        atomic::write_new(path, bytes)
    }

    fn create(&self, path: &Path) -> io::Result<Box<dyn OutputFile>> {
        Ok(Box::new(Streamed(atomic::AtomicFile::create(path)?)))
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        atomic::remove(path)
    }
}

/// An [`atomic::AtomicFile`] as an [`OutputFile`].
struct Streamed(atomic::AtomicFile);

impl io::Write for Streamed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl OutputFile for Streamed {
    fn commit(self: Box<Self>) -> io::Result<PathBuf> {
        self.0.commit()
    }
}
