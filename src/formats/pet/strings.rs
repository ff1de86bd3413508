//! The string shapes PET uses: u32-length-prefixed (no NUL), NUL-terminated and
//! fixed-size NUL-padded. Text is cp949 (Korean Windows); see [`super::cp949`].

use super::cp949;
use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};

/// A decoded string and whether decoding replaced anything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text {
    /// The text.
    pub text: String,
    /// Some bytes were not understood and became U+FFFD.
    pub lossy: bool,
}

impl Text {
    fn from_bytes(bytes: &[u8]) -> Self {
        let (text, lossy) = cp949::decode(bytes);
        Text { text, lossy }
    }
}

/// u32 byte length, then the bytes. The length is checked against the bytes left.
pub fn prefixed(r: &mut Reader<'_>, what: &str) -> Result<Text, LoadError> {
    let len = r.u32(&format!("{what} length"))?;
    if len as usize > r.remaining() {
        return Err(r.error(
            ErrorKind::CountTooLarge,
            format!("{what}: length {len} but only {} bytes left", r.remaining()),
        ));
    }
    Ok(Text::from_bytes(r.bytes(len as usize, what)?))
}

/// Bytes up to a NUL (consumed, not included).
pub fn nul_terminated(r: &mut Reader<'_>, what: &str) -> Result<Text, LoadError> {
    let start = r.clone();
    let mut n = 0;
    while r.u8(what).map_err(|e| LoadError {
        kind: ErrorKind::Truncated,
        message: format!("{what}: no NUL terminator before the section end"),
        ..e
    })? != 0
    {
        n += 1;
    }
    let mut s = start;
    Ok(Text::from_bytes(s.bytes(n, what)?))
}

/// `N` bytes holding a NUL-padded name.
pub fn fixed<const N: usize>(r: &mut Reader<'_>, what: &str) -> Result<Text, LoadError> {
    let raw = r.array::<N>(what)?;
    let end = raw.iter().position(|&b| b == 0).unwrap_or(N);
    Ok(Text::from_bytes(&raw[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_shapes() {
        let mut r = Reader::new(b"\x03\x00\x00\x00abcxy\x00z");
        assert_eq!(prefixed(&mut r, "s").unwrap().text, "abc");
        assert_eq!(nul_terminated(&mut r, "n").unwrap().text, "xy");
        assert_eq!(
            nul_terminated(&mut r, "n").unwrap_err().kind,
            ErrorKind::Truncated
        );
        let mut r = Reader::new(b"\xFF\xFF\xFF\xFFab");
        assert_eq!(
            prefixed(&mut r, "s").unwrap_err().kind,
            ErrorKind::CountTooLarge
        );
        let mut r = Reader::new(b"ab\x00\x07");
        assert_eq!(fixed::<4>(&mut r, "f").unwrap().text, "ab");
    }
}
