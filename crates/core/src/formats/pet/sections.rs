//! The PET container: sections of a FourCC tag and a u32 payload length, the version,
//! and the dispatch of each section to its parser.
//!
//! Every section is parsed inside its own bounds (`Reader::sub`), so a parser that
//! reads too little leaves the rest unread (noted) and one that reads too much fails
//! at the section end with the file offset. Unknown tags (`EXTR`, anything else) are
//! skipped by length with a note. No `VERS` section means version 1.0.

use super::Kind;
use super::anim::{self, AnimData};
use super::bones::{self, BoneData};
use super::events::{self, CollRecord, FanmRecord, FrameRecord, MotionRecord};
use super::mesh::{self, MeshData};
use super::textures::{self, TextEntry};
use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::{Diagnostic, Location};

/// Newest version this reader knows.
pub(crate) const MAX_MINOR: u8 = 3;

/// A section as found in the file.
#[derive(Debug, Clone)]
pub struct Section<'a> {
    /// Tag, e.g. `BONE` (non-ASCII bytes shown as `\xNN`).
    pub tag: String,
    /// Raw tag bytes.
    pub(crate) raw_tag: [u8; 4],
    /// File offset of the tag.
    pub offset: u64,
    /// Payload length.
    pub length: u32,
    /// Reader over the payload only.
    pub(crate) body: Reader<'a>,
}

/// `(tag, offset, length)` of a section, kept for `info`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SectionInfo {
    /// Tag.
    pub tag: String,
    /// File offset of the tag.
    pub offset: u64,
    /// Payload length.
    pub length: u32,
}

/// Everything one PET-family file says, in file axes and file units.
#[derive(Debug, Clone)]
pub(crate) struct PetFile {
    /// Kind, from the extension.
    pub kind: Kind,
    /// `(major, minor)`.
    pub version: (u8, u8),
    /// Sections in file order.
    pub sections: Vec<SectionInfo>,
    /// `TEXT` entries.
    pub textures: Vec<TextEntry>,
    /// `BONE`.
    pub bones: Option<BoneData>,
    /// `MESH`.
    pub mesh: Option<MeshData>,
    /// `ANIM`.
    pub anim: Option<AnimData>,
    /// `FRAM` entries.
    pub frames: Vec<FrameRecord>,
    /// `MOTI` entries.
    pub motions: Vec<MotionRecord>,
    /// `COLL` entries (with the offset of each).
    pub collision: Vec<CollRecord>,
    /// `FANM` entries.
    pub(crate) fanm: Vec<FanmRecord>,
    /// Notes and warnings found while reading.
    pub notes: Vec<Diagnostic>,
}

impl PetFile {
    /// The version as `"1.2"`.
    pub(crate) fn version_string(&self) -> String {
        format!("{}.{}", self.version.0, self.version.1)
    }

    /// Whether the file is at least version `1.minor`.
    pub(crate) fn at_least(&self, minor: u8) -> bool {
        self.version >= (1, minor)
    }
}

fn tag_name(raw: [u8; 4]) -> String {
    raw.iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                (b as char).to_string()
            } else {
                format!("\\x{b:02X}")
            }
        })
        .collect()
}

/// Splits `bytes` into sections. A header cut short is `Truncated`; a payload that runs
/// past the end of the file is `SectionPastEof`, both at the section's offset.
pub fn split(bytes: &[u8]) -> Result<Vec<Section<'_>>, LoadError> {
    let mut r = Reader::new(bytes);
    let mut out = Vec::new();
    while !r.is_empty() {
        let offset = r.offset();
        if r.remaining() < 8 {
            return Err(r.error(
                ErrorKind::Truncated,
                format!(
                    "section header (tag + u32 length) needs 8 bytes, only {} left",
                    r.remaining()
                ),
            ));
        }
        let raw_tag = r.array::<4>("section tag")?;
        let tag = tag_name(raw_tag);
        let length = r.u32(&format!("{tag} section length"))?;
        let left = r.remaining();
        let body = r
            .sub(length as usize, &format!("{tag} section"))
            .map_err(|_| {
                LoadError::new(
                    ErrorKind::SectionPastEof,
                    Location::Offset(offset),
                    format!(
                        "section {tag} at 0x{offset:x} claims {length} bytes, but only {left} \
                     bytes follow its header"
                    ),
                )
            })?;
        out.push(Section {
            tag,
            raw_tag,
            offset,
            length,
            body,
        });
    }
    Ok(out)
}

/// Reads a `VERS` payload: u8 minor, u8 major, then (normally) u16 0xFFFE.
fn version(s: &Section<'_>, notes: &mut Vec<Diagnostic>) -> Result<(u8, u8), LoadError> {
    let mut r = s.body.clone();
    let minor = r.u8("VERS minor version")?;
    let major = r.u8("VERS major version")?;
    if major != 1 || minor > MAX_MINOR {
        return Err(LoadError::new(
            ErrorKind::UnsupportedVersion,
            Location::Offset(s.offset + 8),
            format!("VERS says {major}.{minor}; this viewer reads 1.0 to 1.{MAX_MINOR}"),
        ));
    }
    if r.remaining() >= 2 {
        let marker = r.u16("VERS marker")?;
        if marker != 0xFFFE {
            notes.push(Diagnostic::warning(
                Location::Offset(s.offset + 10),
                format!("VERS marker is 0x{marker:04X}, expected 0xFFFE"),
            ));
        }
    }
    Ok((major, minor))
}

/// Notes bytes a section parser left unread.
pub(crate) fn note_leftover(r: &Reader<'_>, tag: &str, notes: &mut Vec<Diagnostic>) {
    if !r.is_empty() {
        notes.push(Diagnostic::warning(
            Location::Offset(r.offset()),
            format!(
                "{tag}: {} unread bytes at the end of the section",
                r.remaining()
            ),
        ));
    }
}

/// Parses a whole PET-family file of `kind`.
pub(crate) fn parse_file(bytes: &[u8], kind: Kind) -> Result<PetFile, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::new(
            ErrorKind::EmptyFile,
            Location::File,
            "zero-byte file",
        ));
    }
    let sections = split(bytes)?;
    let mut notes = Vec::new();
    let mut version = (1, 0);
    if let Some(s) = sections.iter().find(|s| &s.raw_tag == b"VERS") {
        version = self::version(s, &mut notes)?;
    }
    let mut file = PetFile {
        kind,
        version,
        sections: sections
            .iter()
            .map(|s| SectionInfo {
                tag: s.tag.clone(),
                offset: s.offset,
                length: s.length,
            })
            .collect(),
        textures: Vec::new(),
        bones: None,
        mesh: None,
        anim: None,
        frames: Vec::new(),
        motions: Vec::new(),
        collision: Vec::new(),
        fanm: Vec::new(),
        notes,
    };
    // BONE first: MESH and ANIM check their bone ids against it.
    if let Some(s) = sections.iter().find(|s| &s.raw_tag == b"BONE") {
        let mut r = s.body.clone();
        file.bones = Some(bones::parse(&mut r, &file)?);
        note_leftover(&r, "BONE", &mut file.notes);
    }
    let bone_count = file.bones.as_ref().map(|b| b.bones.len());
    let mut seen: Vec<[u8; 4]> = Vec::new();
    for s in &sections {
        let mut r = s.body.clone();
        let repeated = seen.contains(&s.raw_tag);
        seen.push(s.raw_tag);
        if repeated && &s.raw_tag != b"EXTR" {
            file.notes.push(Diagnostic::warning(
                Location::Offset(s.offset),
                format!("second {} section ignored", s.tag),
            ));
            continue;
        }
        match &s.raw_tag {
            b"VERS" | b"BONE" => continue,
            b"TEXT" => file.textures = textures::parse(&mut r)?,
            b"SMTL" => {
                file.notes.push(Diagnostic::warning(
                    Location::Offset(s.offset),
                    format!(
                        "SMTL (specular material, {} bytes) is not interpreted; skipped",
                        s.length
                    ),
                ));
                continue;
            }
            b"MESH" => {
                let (m, notes) = mesh::parse(&mut r, &file, bone_count)?;
                file.mesh = Some(m);
                file.notes.extend(notes);
            }
            b"ANIM" => {
                let (a, notes) = anim::parse(&s.body, &file, bone_count)?;
                file.anim = Some(a);
                file.notes.extend(notes);
            }
            b"FRAM" => file.frames = events::parse_fram(&mut r, &mut file.notes)?,
            b"MOTI" => file.motions = events::parse_moti(&mut r)?,
            b"COLL" => file.collision = events::parse_coll(&mut r)?,
            b"FANM" => file.fanm = events::parse_fanm(&mut r)?,
            _ => {
                file.notes.push(Diagnostic::warning(
                    Location::Offset(s.offset),
                    format!("unknown section {} ({} bytes) skipped", s.tag, s.length),
                ));
                continue;
            }
        }
        if &s.raw_tag != b"ANIM" {
            note_leftover(&r, &s.tag, &mut file.notes);
        }
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(tag: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut v = tag.to_vec();
        v.extend_from_slice(&(body.len() as u32).to_le_bytes());
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn splitting_table() {
        let mut ok = section(b"VERS", &[2, 1, 0xFE, 0xFF]);
        ok.extend(section(b"EXTR", &[1, 2, 3]));
        let mut past = section(b"VERS", &[2, 1, 0xFE, 0xFF]);
        past.extend_from_slice(b"MESH\xF0\xFF\xFF\x7F\x00");
        type Case<'a> = (&'a str, &'a [u8], Result<usize, (ErrorKind, u64)>);
        let cases: &[Case] = &[
            ("two sections", &ok, Ok(2)),
            ("empty input", &[], Ok(0)),
            (
                "header cut",
                b"VERS\x04\x00",
                Err((ErrorKind::Truncated, 0)),
            ),
            ("past eof", &past, Err((ErrorKind::SectionPastEof, 12))),
        ];
        for (name, bytes, want) in cases {
            let got = split(bytes).map(|s| s.len()).map_err(|e| {
                (
                    e.kind,
                    match e.location {
                        Location::Offset(o) => o,
                        _ => u64::MAX,
                    },
                )
            });
            assert_eq!(&got, want, "{name}");
        }
    }

    #[test]
    fn versions_and_unknown_sections() {
        type Case<'a> = (&'a [u8], Result<(u8, u8), ErrorKind>);
        let cases: &[Case] = &[
            (&[0, 1, 0xFE, 0xFF], Ok((1, 0))),
            (&[3, 1, 0xFE, 0xFF], Ok((1, 3))),
            (&[4, 1, 0xFE, 0xFF], Err(ErrorKind::UnsupportedVersion)),
            (&[9, 9, 0xFE, 0xFF], Err(ErrorKind::UnsupportedVersion)),
            (&[2], Err(ErrorKind::Truncated)),
        ];
        for (body, want) in cases {
            let mut bytes = section(b"VERS", body);
            bytes.extend(section(b"ZZZZ", &[0; 5]));
            let got = parse_file(&bytes, Kind::Pet)
                .map(|f| f.version)
                .map_err(|e| e.kind);
            assert_eq!(&got, want, "{body:?}");
        }
        let f = parse_file(&section(b"EXTR", &[0; 6]), Kind::Bpet).unwrap();
        assert_eq!(f.version, (1, 0), "no VERS means 1.0");
        assert!(f.notes.iter().any(|n| n.message.contains("EXTR")));
    }
}
