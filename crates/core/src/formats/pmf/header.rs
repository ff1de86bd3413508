//! The `PMF1` magic and the 32-byte Pascal names shared by pieces and animations.

use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// The four bytes every Piece Model Editor file starts with.
pub(crate) const MAGIC: &[u8; 4] = b"PMF1";

/// Bytes of a name field (a length byte and up to 31 characters).
pub(crate) const NAME_BYTES: usize = 32;

/// Reads and checks the magic. Other `.pmf` formats exist (Iceball's voxel-ish models,
/// PCS2's FreeSpace "PCS Model File", Sony PSP movies), so the message names what was
/// found instead of guessing.
pub(crate) fn read_magic(r: &mut Reader) -> Result<(), LoadError> {
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

/// What [`root_fits`] adds to a message when the bytes after the magic are not a root
/// piece: another format writes `PMF1` too.
const OTHER_PMF1: &str = "not a Piece Model Editor file (another format, a video codec's, \
     also starts with 'PMF1', followed by three u32 counts), or a damaged one";

/// Checks, without consuming anything, that the bytes after the magic can be a root
/// piece: a name of at most 31 printable characters (the editor's names are typed text;
/// an unrelated `PMF1` file has small u32 counts there, i.e. NUL and control bytes), a
/// finite translation and a vertex count the file can hold. A reader that finds none of
/// this would otherwise fail deep inside with an offset error that hides the real
/// problem; the error names both readings.
///
/// # Errors
/// [`ErrorKind::BadMagic`] for control bytes in the name; otherwise the kind the piece
/// reader would give (a bad name length, a non-finite float, a count too large,
/// truncation), with the message saying that this is not a Piece Model Editor file.
pub(crate) fn root_fits(r: &Reader) -> Result<(), LoadError> {
    let mut peek = r.clone();
    let at = peek.offset();
    let not_pmf = |mut e: LoadError| {
        e.message = format!("{OTHER_PMF1}: {}", e.message);
        e
    };
    if peek.is_empty() {
        return Err(peek.error(
            ErrorKind::Truncated,
            "the file ends after the magic 'PMF1': no root piece (a Piece Model Editor \
             file has at least one)",
        ));
    }
    let name = read_name(&mut peek, "piece 0 name").map_err(not_pmf)?;
    if name.chars().any(|c| c.is_ascii_control()) {
        let bytes: Vec<u8> = name.chars().map(|c| c as u8).collect();
        return Err(LoadError::new(
            ErrorKind::BadMagic,
            Location::Offset(at),
            format!(
                "{OTHER_PMF1}: the root piece's name holds control bytes ({}) where the \
                 editor writes typed text",
                hex(&bytes)
            ),
        ));
    }
    let label = |mut e: LoadError| {
        e.message = format!("piece 0 ({name}): {}", e.message);
        not_pmf(e)
    };
    peek.f32s::<3>("translation").map_err(label)?;
    let count_at = peek.offset();
    peek.u32("vertex count")
        .and_then(|n| peek.check_count(u64::from(n), super::pieces::VERTEX_BYTES, "vertex count"))
        .map(|_| ())
        .map_err(|mut e| {
            e.location = Location::Offset(count_at);
            label(e)
        })
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
pub(crate) fn read_name(r: &mut Reader, what: &str) -> Result<String, LoadError> {
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

    /// A file of the unrelated format that shares the magic: `PMF1`, three u32 counts,
    /// then its own data.
    fn other_pmf1(counts: [u32; 3]) -> Vec<u8> {
        let mut bytes = b"PMF1".to_vec();
        for c in counts {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
        bytes.extend((0..200u8).map(|i| i.wrapping_mul(37)));
        bytes
    }

    #[test]
    fn another_formats_pmf1_is_named_as_such() {
        for (counts, kind) in [
            ([3, 120, 7], ErrorKind::BadMagic),
            ([12, 0, 1], ErrorKind::BadMagic),
            ([1000, 2, 2], ErrorKind::BadValue),
            ([0, 0x4000_0000, 9], ErrorKind::CountTooLarge),
        ] {
            let bytes = other_pmf1(counts);
            let e = crate::formats::pmf::parse(&bytes, &Default::default()).unwrap_err();
            assert_eq!(e.kind, kind, "{counts:?}: {e}");
            assert!(
                e.message.starts_with("not a Piece Model Editor file"),
                "{counts:?}: {e}"
            );
            let Location::Offset(at) = e.location else {
                panic!("{counts:?}: {e}")
            };
            assert!((4..=48).contains(&at), "{counts:?}: {e}");
        }
        // A real root piece passes the check and the reader continues.
        let mut ok = b"PMF1".to_vec();
        ok.extend(field(4, b"root", 0));
        ok.extend([0u8; 12]);
        ok.extend(0u32.to_le_bytes());
        ok.extend(0u32.to_le_bytes());
        ok.extend(0u32.to_le_bytes());
        assert!(crate::formats::pmf::parse(&ok, &Default::default()).is_ok());
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
