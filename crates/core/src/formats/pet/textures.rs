//! `TEXT`: u32 count, then 44-byte records — a 32-byte NUL-padded file name, u8 flags,
//! u8 group, 2 padding bytes, u32 ARGB colour and a u32 "handle" (garbage).

use super::strings;
use crate::formats::LoadError;
use crate::formats::reader::Reader;

/// Bytes per `TEXT` record.
pub(crate) const RECORD_BYTES: u64 = 44;

/// One `TEXT` entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextEntry {
    /// File name as written (bare, mostly `.jpg`).
    pub name: String,
    /// Flag byte.
    pub flags: u8,
    /// Group byte.
    pub group: u8,
    /// Diffuse colour, ARGB.
    pub colour: u32,
}

/// Parses a `TEXT` payload.
pub(crate) fn parse(r: &mut Reader<'_>) -> Result<Vec<TextEntry>, LoadError> {
    let count = r.u32("TEXT texture count")?;
    let count = r.check_count(count as u64, RECORD_BYTES, "TEXT textures")?;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let mut rec = r.sub(RECORD_BYTES as usize, &format!("TEXT record {i}"))?;
        let name = strings::fixed::<32>(&mut rec, &format!("TEXT record {i} name"))?.text;
        let flags = rec.u8("TEXT flags")?;
        let group = rec.u8("TEXT group")?;
        rec.skip(2, "TEXT padding")?;
        let colour = rec.u32("TEXT colour")?;
        out.push(TextEntry {
            name,
            flags,
            group,
            colour,
        });
    }
    Ok(out)
}

/// Splits a `TEXT` name into its flag prefix (`[`, `][`, `!`, `+`, `]`: mask, specular,
/// unknown) and the file name the game looks up.
pub(crate) fn split_prefix(name: &str) -> (&str, &str) {
    let bare = name.trim_start_matches(['[', ']', '!', '+']);
    (&name[..name.len() - bare.len()], bare)
}

/// Whether a `TEXT` name carries its own alpha: a `[`-prefixed `.dds` (the DDS's alpha
/// channel is the mask; no `_mask.jpg` companion is looked up).
pub(crate) fn own_alpha(name: &str) -> bool {
    let (prefix, bare) = split_prefix(name);
    prefix.contains('[') && bare.to_lowercase().ends_with(".dds")
}

/// The alpha companion of a texture name: `<stem>_mask.jpg`.
pub(crate) fn mask_name(name: &str) -> String {
    let stem = match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    };
    format!("{stem}_mask.jpg")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ErrorKind;

    #[test]
    fn records_and_counts() {
        let mut bytes = 1u32.to_le_bytes().to_vec();
        let mut rec = [0u8; 44];
        rec[..7].copy_from_slice(b"a.jpg\0X");
        rec[32] = 1;
        rec[36..40].copy_from_slice(&0xFF80_80FFu32.to_le_bytes());
        bytes.extend_from_slice(&rec);
        let t = parse(&mut Reader::new(&bytes)).unwrap();
        assert_eq!(t[0].name, "a.jpg");
        assert_eq!((t[0].flags, t[0].colour), (1, 0xFF80_80FF));
        bytes[0] = 2;
        let e = parse(&mut Reader::new(&bytes)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge);
    }

    #[test]
    fn mask_names() {
        assert_eq!(mask_name("puppet_cape.jpg"), "puppet_cape_mask.jpg");
        assert_eq!(mask_name("a.b.dds"), "a.b_mask.jpg");
        assert_eq!(mask_name("noext"), "noext_mask.jpg");
    }

    #[test]
    fn prefixes() {
        assert_eq!(split_prefix("][a.dds"), ("][", "a.dds"));
        assert_eq!(split_prefix("!spec.jpg"), ("!", "spec.jpg"));
        assert_eq!(split_prefix("plain.jpg"), ("", "plain.jpg"));
        assert!(own_alpha("[a.DDS") && own_alpha("][a.dds"));
        assert!(!own_alpha("[a.jpg") && !own_alpha("a.dds") && !own_alpha("!a.dds"));
    }
}
