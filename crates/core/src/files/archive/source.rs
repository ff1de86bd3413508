//! The bytes of an archive — whatever the file source opened, a file on disk or a buffer
//! in memory — read at an offset, so that any number of threads read entries at once
//! without a lock or a shared file position (on disk one `pread` each on Unix,
//! `seek_read` on Windows).

use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;

/// Bytes that can be read at any offset by any number of threads at once, without a
/// shared position: what a [`super::super::FileSource`] opens an archive as (the disk: a
/// file read with `pread` / `seek_read`; memory: a byte slice).
pub trait ReadAt: Send + Sync {
    /// Reads up to `buf.len()` bytes at `offset`; 0 at the end.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
    /// The number of bytes (as when opened).
    fn size(&self) -> u64;
    /// Says that `range` is about to be read (a hint: a reader over a network fetches it
    /// in one request, see [`super::super::Pieces`]); by default nothing.
    fn advise(&self, range: std::ops::Range<u64>) {
        let _ = range;
    }
    /// Whether a read asked for bytes that have not arrived (see
    /// [`super::super::Pieces`]); by default never.
    fn wanting(&self) -> bool {
        false
    }
}

impl ReadAt for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.len());
        let n = buf.len().min(self.len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }

    fn size(&self) -> u64 {
        self.len() as u64
    }
}

impl ReadAt for Arc<[u8]> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        (**self).read_at(buf, offset)
    }

    fn size(&self) -> u64 {
        (**self).size()
    }
}

/// Where an archive's bytes are: cheap to clone, shared by every reader.
#[derive(Clone)]
pub(super) struct Source(Arc<dyn ReadAt>);

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Source({} bytes)", self.len())
    }
}

impl Source {
    pub fn new(reader: Arc<dyn ReadAt>) -> Source {
        Source(reader)
    }

    pub fn len(&self) -> u64 {
        self.0.size()
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        self.0.read_at(buf, offset)
    }

    /// Says that `range` is about to be read ([`ReadAt::advise`]).
    pub fn advise(&self, range: std::ops::Range<u64>) {
        self.0.advise(range)
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
