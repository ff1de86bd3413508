//! The string shapes PET uses: u32-length-prefixed (no NUL), NUL-terminated and
//! fixed-size NUL-padded. Text is code page 949 (Unified Hangul Code, Korean Windows),
//! decoded with `encoding_rs`'s EUC-KR decoder: the WHATWG Encoding Standard's EUC-KR is
//! all of cp949 (KS X 1001's Hangul, Hanja and symbols plus the 8 822 extension
//! syllables), so nothing a PangYa file can hold becomes U+FFFD unless it is malformed.

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
    /// Decodes cp949 bytes; malformed sequences become U+FFFD and set `lossy`.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let (text, lossy) = encoding_rs::EUC_KR.decode_without_bom_handling(bytes);
        Text {
            text: text.into_owned(),
            lossy,
        }
    }
}

/// u32 byte length, then the bytes. The length is checked against the bytes left.
pub(crate) fn prefixed(r: &mut Reader<'_>, what: &str) -> Result<Text, LoadError> {
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
pub(crate) fn nul_terminated(r: &mut Reader<'_>, what: &str) -> Result<Text, LoadError> {
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
pub(crate) fn fixed<const N: usize>(r: &mut Reader<'_>, what: &str) -> Result<Text, LoadError> {
    let raw = r.array::<N>(what)?;
    let end = raw.iter().position(|&b| b == 0).unwrap_or(N);
    Ok(Text::from_bytes(&raw[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp949_hangul_hanja_symbols_and_extension_syllables() {
        // Bytes as a reference cp949 codec (Python's) encodes the text.
        let cases: &[(&[u8], &str, bool)] = &[
            (
                b"*msg(\"\xB9\xDF\xBC\xD2\xB8\xAE\")",
                "*msg(\"발소리\")",
                false,
            ),
            (b"\xB0\xA1\xC8\xFE", "가힝", false),
            // Syllables outside KS X 1001 (cp949's extension area).
            (b"\x81\x41\xC6\x52", "갂힣", false),
            (b"\xA4\xA1", "ㄱ", false),
            // Hanja.
            (b"\xF9\xD3\xED\xAE", "漢字", false),
            // Symbols.
            (b"\xA1\xD8 \xA1\xDA", "※ ★", false),
            // A lead byte with no trail byte, and an unassigned pair.
            (b"ok\xB0", "ok\u{FFFD}", true),
            (b"\xC9\xA1", "\u{FFFD}", true),
        ];
        for (bytes, want, lossy) in cases {
            let got = Text::from_bytes(bytes);
            assert_eq!((got.text.as_str(), got.lossy), (*want, *lossy), "{bytes:?}");
        }
    }

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
