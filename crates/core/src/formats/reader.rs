//! A bounds-checked little-endian reader for the binary formats (PMF, PET).
//!
//! Every read checks the bytes left first and fails with the offset and what was being
//! read; nothing indexes the input directly. `Reader::check_count` guards allocations:
//! a count is accepted only if the remaining bytes could hold that many records.
//!
//! "What was being read" is any `Display`, formatted only when a read fails: per-record
//! names are passed as `format_args!(…)`, which costs nothing on the good path (a
//! `format!` per field made PET parsing an order of magnitude slower per byte than PIE).

use super::{ErrorKind, LoadError};
use crate::model::Location;
use std::fmt::Display;

/// Cursor over a byte slice. `base` is the slice's offset in the file, so errors inside
/// a sub-reader (a PET section) still report file offsets.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Reader<'a> {
    /// A reader over a whole file.
    pub fn new(data: &'a [u8]) -> Self {
        Reader {
            data,
            pos: 0,
            base: 0,
        }
    }

    /// File offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Bytes left.
    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Whether everything has been read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// An error at the current offset.
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> LoadError {
        LoadError::new(kind, Location::Offset(self.offset()), message)
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize, what: impl Display + Copy) -> Result<&'a [u8], LoadError> {
        if n > self.remaining() {
            return Err(self.error(
                ErrorKind::Truncated,
                format!("{what}: needs {n} bytes, only {} left", self.remaining()),
            ));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// A sub-reader over the next `n` bytes (which this reader skips).
    pub fn sub(&mut self, n: usize, what: impl Display + Copy) -> Result<Reader<'a>, LoadError> {
        let base = self.offset();
        let data = self.bytes(n, what).map_err(|e| LoadError {
            kind: ErrorKind::SectionPastEof,
            ..e
        })?;
        Ok(Reader { data, pos: 0, base })
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize, what: impl Display + Copy) -> Result<(), LoadError> {
        self.bytes(n, what).map(|_| ())
    }

    /// Fixed-size array.
    pub fn array<const N: usize>(
        &mut self,
        what: impl Display + Copy,
    ) -> Result<[u8; N], LoadError> {
        let b = self.bytes(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// u8.
    pub fn u8(&mut self, what: impl Display + Copy) -> Result<u8, LoadError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// Little-endian u16.
    pub fn u16(&mut self, what: impl Display + Copy) -> Result<u16, LoadError> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    /// Little-endian u32.
    pub fn u32(&mut self, what: impl Display + Copy) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// Little-endian f32, which must be finite.
    pub fn f32(&mut self, what: impl Display + Copy) -> Result<f32, LoadError> {
        let at = self.offset();
        let v = f32::from_le_bytes(self.array(what)?);
        if !v.is_finite() {
            return Err(LoadError::new(
                ErrorKind::NonFiniteFloat,
                Location::Offset(at),
                format!("{what}: {v} is not a finite number"),
            ));
        }
        Ok(v)
    }

    /// `N` finite floats.
    pub(crate) fn f32s<const N: usize>(
        &mut self,
        what: impl Display + Copy,
    ) -> Result<[f32; N], LoadError> {
        let mut out = [0.0; N];
        for v in &mut out {
            *v = self.f32(what)?;
        }
        Ok(out)
    }

    /// Accepts `count` records of at least `min_record_bytes` each only if the bytes left
    /// could hold them; call before allocating for `count` records.
    pub(crate) fn check_count(
        &self,
        count: u64,
        min_record_bytes: u64,
        what: impl Display + Copy,
    ) -> Result<usize, LoadError> {
        let need = count.checked_mul(min_record_bytes.max(1));
        match need {
            Some(need) if need <= self.remaining() as u64 => Ok(count as usize),
            _ => Err(self.error(
                ErrorKind::CountTooLarge,
                format!(
                    "{what}: count {count} needs at least {} bytes, only {} left",
                    need.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string()),
                    self.remaining()
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_reports_offsets() {
        let data = [1u8, 0, 2, 0, 0, 0, 0, 0, 0x80, 0x7f];
        let mut r = Reader::new(&data);
        assert_eq!(r.u16("a").unwrap(), 1);
        assert_eq!(r.u32("b").unwrap(), 2);
        let e = r.f32("angle").unwrap_err();
        assert_eq!(e.kind, ErrorKind::NonFiniteFloat);
        assert_eq!(e.location, Location::Offset(6));
        let e = r.u32("tail").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated);
    }

    #[test]
    fn counts_are_checked_against_remaining_bytes() {
        let data = [0u8; 12];
        let r = Reader::new(&data);
        assert_eq!(r.check_count(3, 4, "x").unwrap(), 3);
        assert_eq!(
            r.check_count(4, 4, "x").unwrap_err().kind,
            ErrorKind::CountTooLarge
        );
        assert!(r.check_count(u64::MAX, 8, "x").is_err());
    }

    #[test]
    fn sub_readers_keep_file_offsets() {
        let data = [0u8; 8];
        let mut r = Reader::new(&data);
        r.skip(2, "head").unwrap();
        let mut s = r.sub(4, "section").unwrap();
        s.skip(4, "body").unwrap();
        let e = s.u8("past").unwrap_err();
        assert_eq!(e.location, Location::Offset(6));
        assert_eq!(r.sub(3, "big").unwrap_err().kind, ErrorKind::SectionPastEof);
    }
}
