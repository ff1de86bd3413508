//! The bytes of an archive — a file on disk or a buffer in memory — read at an offset,
//! so that any number of threads read entries at once without a lock or a shared file
//! position (one `pread` each on Unix, `seek_read` on Windows).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;

/// Where an archive's bytes are: cheap to clone, shared by every reader.
#[derive(Debug, Clone)]
pub(super) enum Source {
    Disk(Arc<File>, u64),
    Memory(Arc<[u8]>),
}

impl Source {
    /// The file, and its length now.
    pub fn disk(file: File) -> io::Result<Source> {
        let len = file.metadata()?.len();
        Ok(Source::Disk(Arc::new(file), len))
    }

    pub fn len(&self) -> u64 {
        match self {
            Source::Disk(_, len) => *len,
            Source::Memory(b) => b.len() as u64,
        }
    }

    /// Reads up to `buf.len()` bytes at `offset`; 0 at the end.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        match self {
            Source::Memory(b) => {
                let start = usize::try_from(offset).unwrap_or(usize::MAX).min(b.len());
                let n = buf.len().min(b.len() - start);
                buf[..n].copy_from_slice(&b[start..start + n]);
                Ok(n)
            }
            #[cfg(unix)]
            Source::Disk(f, _) => std::os::unix::fs::FileExt::read_at(&**f, buf, offset),
            #[cfg(windows)]
            Source::Disk(f, _) => std::os::windows::fs::FileExt::seek_read(&**f, buf, offset),
            // No positioned reads here (wasm): archives come as bytes, `Source::Memory`.
            #[cfg(not(any(unix, windows)))]
            Source::Disk(f, _) => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!("{f:?}: positioned reads are not available on this platform"),
            )),
        }
    }

    /// Fills `buf` from `offset`, or fails with `UnexpectedEof`.
    pub fn read_exact_at(&self, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
        while !buf.is_empty() {
            match self.read_at(buf, offset) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buf = &mut buf[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// A reader over a [`Source`] with its own position, ending at `end`.
#[derive(Debug, Clone)]
pub(super) struct Cursor {
    source: Source,
    pos: u64,
    end: u64,
}

impl Cursor {
    /// From `pos` to the end of the source.
    pub fn new(source: Source, pos: u64) -> Cursor {
        let end = source.len();
        Cursor { source, pos, end }
    }

    /// The bytes `start .. start + len` (clipped to the source).
    pub fn range(source: Source, start: u64, len: u64) -> Cursor {
        let end = start.saturating_add(len).min(source.len());
        Cursor {
            source,
            pos: start,
            end,
        }
    }
}

impl Read for Cursor {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.end.saturating_sub(self.pos);
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        if want == 0 {
            return Ok(0);
        }
        let n = self.source.read_at(&mut buf[..want], self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Cursor {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.end.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.pos)
    }
}
