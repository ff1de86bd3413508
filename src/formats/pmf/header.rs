//! The `PMF1` magic and the 32-byte Pascal names shared by pieces and animations.

use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// The four bytes every Piece Model Editor file starts with.
pub const MAGIC: &[u8; 4] = b"PMF1";

/// Bytes of a name field (a length byte and up to 31 characters).
pub const NAME_BYTES: usize = 32;

/// Reads and checks the magic. Other `.pmf` formats exist (Iceball's voxel-ish models,
/// PCS2's FreeSpace "PCS Model File", Sony PSP movies), so the message names what was
/// found instead of guessing.
pub fn read_magic(r: &mut Reader) -> Result<(), LoadError> {
    if r.is_empty() {
        return Err(LoadError::new(
            ErrorKind::EmptyFile,
            Location::Offset(0),
            "the file is empty (0 bytes); a PMF file starts with 'PMF1'",
        ));
    }
    let have = r.remaining().min(4);
    let found = r.bytes(have, "magic")?;
    if found == MAGIC {
        return Ok(());
    }
    let kind = if have < 4 && MAGIC.starts_with(found) {
        ErrorKind::Truncated
    } else {
        ErrorKind::BadMagic
    };
    let hint = if found == b"PSMF" {
        " (this looks like a Sony PSP movie)"
    } else {
        ""
    };
    Err(LoadError::new(
        kind,
        Location::Offset(0),
        format!(
            "magic is '{}' ({}), not 'PMF1': not a Piece Model Editor file{hint}; \
             other formats also use .pmf (Iceball models, PCS2 FreeSpace models, \
             PSP video) and are not read",
            show_bytes(found),
            hex(found)
        ),
    ))
}

/// Bytes as text with anything non-printable escaped (`PMF\x00`).
fn show_bytes(b: &[u8]) -> String {
    b.iter()
        .flat_map(|&c| std::ascii::escape_default(c))
        .map(char::from)
        .collect()
}

/// Bytes as hex pairs (`50 4d 46 32`).
fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|c| format!("{c:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads a 32-byte Pascal shortstring: a length byte (0..=31) then that many characters;
/// the bytes after them are ignored (one sample fills them with garbage). Characters are
/// decoded as Latin-1, which maps every byte to a character (ASCII is unchanged).
pub fn read_name(r: &mut Reader, what: &str) -> Result<String, LoadError> {
    let at = r.offset();
    let field: [u8; NAME_BYTES] = r.array(what)?;
    let len = usize::from(field[0]);
    let Some(chars) = field.get(1..1 + len).filter(|_| len < NAME_BYTES) else {
        return Err(LoadError::new(
            ErrorKind::BadValue,
            Location::Offset(at),
            format!(
                "{what}: length byte is {len}, but a 32-byte Pascal name holds at most {} characters",
                NAME_BYTES - 1
            ),
        ));
    };
    Ok(chars.iter().map(|&c| char::from(c)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_cases() {
        let cases: &[(&[u8], Result<(), ErrorKind>, &str)] = &[
            (b"PMF1", Ok(()), ""),
            (b"PMF1\x00\x00", Ok(()), ""),
            (b"", Err(ErrorKind::EmptyFile), "empty"),
            (b"PM", Err(ErrorKind::Truncated), "'PM'"),
            (b"PMF2", Err(ErrorKind::BadMagic), "'PMF2' (50 4d 46 32)"),
            (b"pmf1", Err(ErrorKind::BadMagic), "'pmf1'"),
            (b"PSMF0014", Err(ErrorKind::BadMagic), "PSP movie"),
            (b"\x00\xffab", Err(ErrorKind::BadMagic), "'\\x00\\xffab'"),
            (b"XY", Err(ErrorKind::BadMagic), "'XY'"),
        ];
        for (bytes, want, text) in cases {
            let got = read_magic(&mut Reader::new(bytes));
            match (got, want) {
                (Ok(()), Ok(())) => {}
                (Err(e), Err(kind)) => {
                    assert_eq!(e.kind, *kind, "{bytes:?}");
                    assert!(e.message.contains(text), "{bytes:?}: {}", e.message);
                    assert_eq!(e.location, Location::Offset(0));
                    if *kind == ErrorKind::BadMagic {
                        for other in ["Iceball", "PCS2", "PSP"] {
                            assert!(e.message.contains(other), "{}", e.message);
                        }
                    }
                }
                (got, want) => panic!("{bytes:?}: got {got:?}, want {want:?}"),
            }
        }
    }

    fn field(len: u8, text: &[u8], fill: u8) -> Vec<u8> {
        let mut f = vec![fill; NAME_BYTES];
        f[0] = len;
        f[1..1 + text.len()].copy_from_slice(text);
        f
    }

    #[test]
    fn name_cases() {
        let long = [b'a'; 31];
        let cases: Vec<(Vec<u8>, Result<String, ErrorKind>)> = vec![
            (field(4, b"head", 0), Ok("head".into())),
            (field(3, b"arm", 0xAB), Ok("arm".into())),
            (field(0, b"", 0x55), Ok(String::new())),
            (field(31, &long, 0), Ok("a".repeat(31))),
            (field(2, b"\xe9t", 0), Ok("ét".into())),
            (field(32, b"", 0), Err(ErrorKind::BadValue)),
            (field(40, b"pelvis", 0), Err(ErrorKind::BadValue)),
            (vec![4, b'h', b'e'], Err(ErrorKind::Truncated)),
        ];
        for (bytes, want) in cases {
            let mut data = vec![0u8; 8];
            data.extend_from_slice(&bytes);
            let mut r = Reader::new(&data);
            r.skip(8, "lead").unwrap();
            let got = read_name(&mut r, "piece 0 name").map_err(|e| {
                assert_eq!(e.location, Location::Offset(8), "{e}");
                assert!(e.message.starts_with("piece 0 name"), "{e}");
                e.kind
            });
            assert_eq!(got, want, "{bytes:?}");
        }
    }
}
