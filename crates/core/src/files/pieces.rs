//! A file known a piece at a time: what a front-end that reads over a network (the page
//! reading a remote archive with HTTP `Range` requests) opens as an archive. The core
//! reads it like any other [`ReadAt`]; a read of bytes that have not arrived fails with
//! [`io::ErrorKind::WouldBlock`] and notes them as wanted. The front-end fetches what is
//! wanted ([`Pieces::take_wanted`]), hands it over ([`Pieces::insert`]) and runs the
//! read again: the core stays synchronous, and only what is read is ever held.
//!
//! Readers tell what they are about to read ([`ReadAt::advise`]): the archive reader
//! advises an entry's whole span before reading its local header, so one round trip
//! fetches header and data together.

use super::ReadAt;
use std::collections::BTreeMap;
use std::io;
use std::ops::Range;
use std::sync::Mutex;

/// The bytes of one file of a known size, held piece by piece.
#[derive(Debug)]
pub struct Pieces {
    name: String,
    size: u64,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Disjoint, non-adjacent pieces by start offset.
    held: BTreeMap<u64, Vec<u8>>,
    /// Ranges asked for and not held.
    wanted: Vec<Range<u64>>,
    /// Ranges whose fetch failed, and why: reads there fail with that reason.
    failed: Vec<(Range<u64>, String)>,
}

impl Pieces {
    /// A file of `size` bytes of which nothing is held yet; `name` (its URL) is for
    /// messages.
    pub fn new(name: impl Into<String>, size: u64) -> Pieces {
        Pieces {
            name: name.into(),
            size,
            inner: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Holds `bytes` as the file's bytes from `offset` (clipped to its size), merged with
    /// the pieces they touch.
    pub fn insert(&self, offset: u64, bytes: &[u8]) {
        let end = offset.saturating_add(bytes.len() as u64).min(self.size);
        if offset >= end {
            return;
        }
        let bytes = &bytes[..(end - offset) as usize];
        let mut inner = self.lock();
        // The pieces that overlap or touch offset..end, merged into one.
        let touching: Vec<u64> = inner
            .held
            .range(..=end)
            .filter(|(s, b)| **s + b.len() as u64 >= offset)
            .map(|(s, _)| *s)
            .collect();
        let start = touching.first().map_or(offset, |s| (*s).min(offset));
        let last_end = touching
            .last()
            .map_or(end, |s| (s + inner.held[s].len() as u64).max(end));
        let mut merged = vec![0u8; (last_end - start) as usize];
        for s in touching {
            let piece = inner.held.remove(&s).unwrap_or_default();
            let at = (s - start) as usize;
            merged[at..at + piece.len()].copy_from_slice(&piece);
        }
        let at = (offset - start) as usize;
        merged[at..at + bytes.len()].copy_from_slice(bytes);
        inner.held.insert(start, merged);
        inner
            .wanted
            .retain(|w| !(w.start >= start && w.end <= last_end));
    }

    /// Notes that fetching `range` failed: reads there fail with `why` from now on (so a
    /// read that cannot be served ends instead of asking again).
    pub fn failed(&self, range: Range<u64>, why: impl Into<String>) {
        let mut inner = self.lock();
        inner
            .wanted
            .retain(|w| w.end <= range.start || w.start >= range.end);
        inner.failed.push((range, why.into()));
    }

    /// The ranges wanted and not held, sorted, merged where they touch or lie within
    /// `gap` bytes of each other (one request is cheaper than two close ones); clears
    /// them.
    pub fn take_wanted(&self, gap: u64) -> Vec<Range<u64>> {
        let mut inner = self.lock();
        let mut wanted = std::mem::take(&mut inner.wanted);
        wanted.sort_by_key(|r| (r.start, r.end));
        let mut out: Vec<Range<u64>> = Vec::new();
        for r in wanted {
            match out.last_mut() {
                Some(last) if r.start <= last.end.saturating_add(gap) => {
                    last.end = last.end.max(r.end)
                }
                _ => out.push(r),
            }
        }
        out
    }

    /// The bytes held (what this file costs in memory).
    pub fn held(&self) -> u64 {
        self.lock().held.values().map(|b| b.len() as u64).sum()
    }

    fn want(inner: &mut Inner, range: Range<u64>) {
        if !inner.wanted.contains(&range) {
            inner.wanted.push(range);
        }
    }
}

impl ReadAt for Pieces {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        if offset >= self.size || buf.is_empty() {
            return Ok(0);
        }
        let end = offset.saturating_add(buf.len() as u64).min(self.size);
        let mut inner = self.lock();
        if let Some((s, piece)) = inner.held.range(..=offset).next_back() {
            let piece_end = s + piece.len() as u64;
            if piece_end > offset {
                let from = (offset - s) as usize;
                let n = ((piece_end.min(end)) - offset) as usize;
                buf[..n].copy_from_slice(&piece[from..from + n]);
                return Ok(n);
            }
        }
        if let Some((_, why)) = inner
            .failed
            .iter()
            .find(|(r, _)| r.start <= offset && offset < r.end)
        {
            return Err(io::Error::other(format!("{}: {why}", self.name)));
        }
        // Up to the next held piece: what this read needs and does not have.
        let next = inner
            .held
            .range(offset..)
            .next()
            .map_or(end, |(s, _)| (*s).min(end));
        Pieces::want(&mut inner, offset..next);
        Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            format!(
                "{}: bytes {offset}..{next} have not been fetched yet",
                self.name
            ),
        ))
    }

    fn size(&self) -> u64 {
        self.size
    }

    fn wanting(&self) -> bool {
        !self.lock().wanted.is_empty()
    }

    fn advise(&self, range: Range<u64>) {
        let range = range.start.min(self.size)..range.end.min(self.size);
        let mut inner = self.lock();
        // Only the parts not held are wanted.
        let mut at = range.start;
        let pieces: Vec<(u64, u64)> = inner
            .held
            .iter()
            .map(|(s, b)| (*s, s + b.len() as u64))
            .filter(|(s, e)| *e > range.start && *s < range.end)
            .collect();
        for (s, e) in pieces {
            if s > at {
                Pieces::want(&mut inner, at..s);
            }
            at = at.max(e);
        }
        if at < range.end {
            Pieces::want(&mut inner, at..range.end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(p: &Pieces, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let mut buf = vec![0u8; len];
        let n = p.read_at(&mut buf, offset)?;
        buf.truncate(n);
        Ok(buf)
    }

    #[test]
    fn a_read_of_missing_bytes_waits_and_names_them() {
        let p = Pieces::new("http://x/a.wz", 100);
        let e = read(&p, 10, 5).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::WouldBlock);
        assert!(e.to_string().contains("a.wz: bytes 10..15"), "{e}");
        assert_eq!(p.take_wanted(0), vec![(10..15)]);
        assert!(!p.wanting(), "taken");
        p.insert(10, b"hello");
        assert_eq!(read(&p, 10, 5).unwrap(), b"hello");
        assert_eq!(read(&p, 12, 10).unwrap(), b"llo", "up to what is held");
        assert_eq!(read(&p, 100, 4).unwrap(), b"", "the end");
    }

    #[test]
    fn pieces_merge_and_only_the_gaps_are_wanted() {
        let p = Pieces::new("f", 50);
        p.insert(0, b"0123");
        p.insert(8, b"89");
        p.insert(4, b"4567");
        assert_eq!(read(&p, 0, 10).unwrap(), b"0123456789");
        assert_eq!(p.held(), 10);
        p.insert(45, &[7; 20]);
        assert_eq!(p.held(), 15, "clipped to the size");
        p.advise(2..48);
        assert_eq!(p.take_wanted(0), vec![(10..45)]);
        p.advise(20..22);
        p.advise(30..31);
        assert_eq!(p.take_wanted(16), vec![(20..31)], "close ranges become one");
    }

    #[test]
    fn a_failed_fetch_ends_the_wait_with_its_reason() {
        let p = Pieces::new("http://x/a.wz", 100);
        p.advise(0..40);
        p.failed(0..40, "the server answered HTTP 500");
        assert!(!p.wanting());
        let e = read(&p, 5, 5).unwrap_err();
        assert_ne!(e.kind(), io::ErrorKind::WouldBlock);
        assert!(e.to_string().contains("HTTP 500"), "{e}");
    }

    #[test]
    fn an_archive_over_pieces_fetches_its_directory_then_only_what_is_read() {
        use crate::files::{Files, MemorySource};
        use std::io::Write;
        use std::sync::Arc;
        let body = |i: u8| vec![i; 64 << 10];
        let mut z = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        let stored = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        for i in 0..40u8 {
            z.start_file(format!("filler/{i:02}.bin"), stored).unwrap();
            z.write_all(&body(i)).unwrap();
        }
        let bytes = z.finish().unwrap().into_inner();
        let len = bytes.len() as u64;
        // What the page's first request brings: the last 64 KiB (the directory).
        let pieces = Arc::new(Pieces::new("http://x/remote.zip", len));
        let tail = len - (64 << 10);
        pieces.insert(tail, &bytes[tail as usize..]);
        let mut fetched = len - tail;
        let mut source = MemorySource::new();
        source.insert_reader("remote.zip", pieces.clone());
        let files = Files::new(source);
        let entry = files.parse(std::path::Path::new("remote.zip!/filler/07.bin"));
        let (read, more, rounds) = fetch_until(&pieces, &bytes, || files.read(&entry));
        fetched += more;
        assert_eq!(read, body(7));
        assert_eq!(rounds, 1, "header and data in one fetch");
        // The directory and the one entry (with its header), not the 2.5 MiB archive.
        assert!(fetched < (64 << 10) * 2 + 100, "{fetched} of {len} bytes");
        assert_eq!(pieces.held(), fetched);
    }

    /// Reads `what` of `files` until its bytes have come from `bytes` (the server),
    /// counting what was fetched: the result, the bytes fetched and the rounds.
    fn fetch_until<T>(
        pieces: &Pieces,
        bytes: &[u8],
        mut what: impl FnMut() -> io::Result<T>,
    ) -> (T, u64, u32) {
        let (mut fetched, mut rounds) = (0, 0);
        loop {
            match what() {
                Ok(v) => return (v, fetched, rounds),
                Err(e) => {
                    assert_eq!(e.kind(), io::ErrorKind::WouldBlock, "{e}");
                    for r in pieces.take_wanted(0) {
                        fetched += r.end - r.start;
                        pieces.insert(r.start, &bytes[r.start as usize..r.end as usize]);
                    }
                    rounds += 1;
                    assert!(rounds < 4, "{e}");
                }
            }
        }
    }

    #[test]
    fn the_start_of_an_entry_costs_what_it_weighs() {
        use crate::files::{Files, MemorySource};
        use std::io::Write;
        use std::sync::Arc;
        let big: Vec<u8> = (0..(1u32 << 20)).map(|i| (i * 7 % 251) as u8).collect();
        let mut z = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        let stored = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        let deflated = stored.compression_method(zip::CompressionMethod::Deflated);
        z.start_file("texpages/page.ktx2", stored).unwrap();
        z.write_all(&big).unwrap();
        z.start_file("texpages/packed.bin", deflated).unwrap();
        z.write_all(&big).unwrap();
        let bytes = z.finish().unwrap().into_inner();
        let tail = bytes.len() - 4096;
        let open = || {
            let pieces = Arc::new(Pieces::new("http://x/base.wz", bytes.len() as u64));
            pieces.insert(tail as u64, &bytes[tail..]);
            let mut source = MemorySource::new();
            source.insert_reader("base.wz", pieces.clone());
            (pieces, Files::new(source))
        };
        // A stored entry: its header and the bytes asked for, in one round.
        let (pieces, files) = open();
        let page = files.parse(std::path::Path::new("base.wz!/texpages/page.ktx2"));
        let (head, fetched, rounds) =
            fetch_until(&pieces, &bytes, || files.read_prefix(&page, 64 << 10));
        assert_eq!(head, big[..64 << 10]);
        assert_eq!(rounds, 1);
        assert!(fetched < (64 << 10) + 1024, "{fetched} bytes for 64 KiB");
        assert_eq!(files.size(&page).unwrap(), 1 << 20);
        // The rest when the whole entry is read (checked against its CRC): only what
        // is not held yet.
        let (whole, more, _) = fetch_until(&pieces, &bytes, || files.read(&page));
        assert_eq!(whole, big);
        assert!(more < (1 << 20) - (63 << 10), "{more} bytes more");
        // A deflated entry: its start inflated from its first compressed bytes.
        let (pieces, files) = open();
        let packed = files.parse(std::path::Path::new("base.wz!/texpages/packed.bin"));
        let (start, _, _) = fetch_until(&pieces, &bytes, || files.read_prefix(&packed, 1000));
        assert_eq!(start, big[..1000]);
        // Asking for more than there is gives all of it.
        let (all, _, _) = fetch_until(&pieces, &bytes, || files.read_prefix(&packed, 5 << 20));
        assert_eq!(all, big);
    }

    #[test]
    fn a_part_asked_for_before_its_bytes_arrived_is_read_again_once_they_have() {
        use crate::files::{FileRef, Files, MemorySource};
        use crate::wz::PartFinder;
        use std::io::Write;
        use std::sync::Arc;
        let mut z = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        let stored = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        z.start_file("components/bodies/tank.pie", stored).unwrap();
        z.write_all(include_bytes!("../../../../assets/demo/tank.pie"))
            .unwrap();
        z.start_file("filler.bin", stored).unwrap();
        z.write_all(&[7u8; 100 << 10]).unwrap();
        let bytes = z.finish().unwrap().into_inner();
        let pieces = Arc::new(Pieces::new("http://x/parts.wz", bytes.len() as u64));
        let tail = bytes.len() - (16 << 10);
        pieces.insert(tail as u64, &bytes[tail..]);
        let mut source = MemorySource::new();
        source.insert_reader("parts.wz", pieces.clone());
        let files = Files::new(source);
        let root = FileRef::archive_root(std::path::Path::new("parts.wz"));
        let mut finder = PartFinder::new(&files, &[root]);
        assert!(finder.load("tank.pie").is_err(), "its bytes are not here");
        assert!(files.wanting());
        for r in pieces.take_wanted(0) {
            pieces.insert(r.start, &bytes[r.start as usize..r.end as usize]);
        }
        let (file, model) = finder.load("tank.pie").expect("read again, not the miss");
        assert!(
            file.to_string().ends_with("components/bodies/tank.pie"),
            "{file}"
        );
        assert!(!model.meshes.is_empty());
    }
}
