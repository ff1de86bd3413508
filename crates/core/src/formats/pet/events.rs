//! The timeline and gameplay sections: `FRAM` (event scripts at frames), `MOTI` (named
//! motions = frame ranges of the one ANIM timeline), `COLL` (collision boxes in bone
//! space) and `FANM` (face animations: texture swaps, recorded only).
//!
//! Strings are a u32 byte length then cp949 bytes without a NUL.

use super::strings::{self, Text};
use crate::formats::LoadError;
use crate::formats::reader::Reader;
use crate::model::{Diagnostic, Location};
use glam::Vec3;

/// One `FRAM` entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FrameRecord {
    /// Frame (30 fps) of the ANIM timeline.
    pub frame: u32,
    /// The three script strings (the last two are usually empty).
    pub scripts: [String; 3],
    /// The trailing u32, absent in a lone entry with an empty first script.
    pub check: Option<u32>,
}

/// One `MOTI` entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MotionRecord {
    /// Motion name.
    pub name: String,
    /// First frame.
    pub start: u32,
    /// Last frame (inclusive).
    pub end: u32,
    /// Motion that follows.
    pub next: String,
    /// Connection (blend) method.
    pub(crate) blend_method: String,
    /// Connection (blend) time, seconds.
    pub blend_time: f32,
    /// The last string (`top_version` in Acrisio's reader).
    pub(crate) top_version: String,
}

/// One `COLL` entry (file axes, bone space).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CollRecord {
    /// Shape code.
    pub shape: u32,
    /// Show flag.
    pub show: u32,
    /// Box name.
    pub name: String,
    /// Bone whose space the box is in.
    pub bone: String,
    /// Option strings.
    pub options: [String; 2],
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
    /// File offset of the record.
    pub offset: u64,
}

/// One `FANM` entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FanmRecord {
    /// Group byte.
    pub group: u8,
    /// Name.
    pub name: String,
    /// Material (texture) name.
    pub material: String,
}

fn text(t: Text, at: u64, what: &str, notes: &mut Vec<Diagnostic>) -> String {
    if t.lossy {
        notes.push(Diagnostic::warning(
            Location::Offset(at),
            format!("{what}: bytes that are not valid cp949 shown as U+FFFD"),
        ));
    }
    t.text
}

/// Parses a `FRAM` payload.
pub(crate) fn parse_fram(
    r: &mut Reader<'_>,
    notes: &mut Vec<Diagnostic>,
) -> Result<Vec<FrameRecord>, LoadError> {
    let n = r.u32("FRAM count")?;
    let n = r.check_count(n as u64, 16, "FRAM entries")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let frame = r.u32(&format!("FRAM entry {i} frame"))?;
        let mut scripts: [String; 3] = Default::default();
        for (k, s) in scripts.iter_mut().enumerate() {
            let at = r.offset();
            let what = format!("FRAM entry {i} script {k}");
            *s = text(strings::prefixed(r, &what)?, at, &what, notes);
        }
        let check = if i + 1 == n && r.is_empty() {
            None
        } else {
            Some(r.u32(&format!("FRAM entry {i} check"))?)
        };
        out.push(FrameRecord {
            frame,
            scripts,
            check,
        });
    }
    Ok(out)
}

/// Parses a `MOTI` payload.
pub(crate) fn parse_moti(r: &mut Reader<'_>) -> Result<Vec<MotionRecord>, LoadError> {
    let n = r.u32("MOTI count")?;
    let n = r.check_count(n as u64, 28, "MOTI entries")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let s = |r: &mut Reader<'_>, what: &str| {
            strings::prefixed(r, &format!("MOTI entry {i} {what}")).map(|t| t.text)
        };
        let name = s(r, "name")?;
        let start = r.u32(&format!("MOTI {name} start frame"))?;
        let end = r.u32(&format!("MOTI {name} end frame"))?;
        let next = s(r, "next motion")?;
        let blend_method = s(r, "blend method")?;
        let blend_time = r.f32(&format!("MOTI {name} blend time"))?;
        let top_version = s(r, "last string")?;
        out.push(MotionRecord {
            name,
            start,
            end,
            next,
            blend_method,
            blend_time,
            top_version,
        });
    }
    Ok(out)
}

/// Parses a `COLL` payload.
pub(crate) fn parse_coll(r: &mut Reader<'_>) -> Result<Vec<CollRecord>, LoadError> {
    let n = r.u32("COLL count")?;
    let n = r.check_count(n as u64, 48, "COLL boxes")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let offset = r.offset();
        let shape = r.u32(&format!("COLL box {i} shape"))?;
        let show = r.u32(&format!("COLL box {i} show flag"))?;
        let mut s =
            |what: &str| strings::prefixed(r, &format!("COLL box {i} {what}")).map(|t| t.text);
        let name = s("name")?;
        let bone = s("bone name")?;
        let options = [s("option 1")?, s("option 2")?];
        let min = Vec3::from(r.f32s::<3>(&format!("COLL box {i} min"))?);
        let max = Vec3::from(r.f32s::<3>(&format!("COLL box {i} max"))?);
        out.push(CollRecord {
            shape,
            show,
            name,
            bone,
            options,
            min,
            max,
            offset,
        });
    }
    Ok(out)
}

/// Parses a `FANM` payload.
pub(crate) fn parse_fanm(r: &mut Reader<'_>) -> Result<Vec<FanmRecord>, LoadError> {
    let n = r.u32("FANM count")?;
    let n = r.check_count(n as u64, 65, "FANM entries")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let group = r.u8(&format!("FANM entry {i} group"))?;
        let name = strings::fixed::<32>(r, &format!("FANM entry {i} name"))?.text;
        let material = strings::fixed::<32>(r, &format!("FANM entry {i} material"))?.text;
        out.push(FanmRecord {
            group,
            name,
            material,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ErrorKind;

    fn s(v: &mut Vec<u8>, text: &[u8]) {
        v.extend_from_slice(&(text.len() as u32).to_le_bytes());
        v.extend_from_slice(text);
    }

    #[test]
    fn fram_check_is_optional_only_at_the_end() {
        let mut v = 2u32.to_le_bytes().to_vec();
        v.extend_from_slice(&30u32.to_le_bytes());
        s(&mut v, b"*msg(\"\xB9\xDF\")");
        s(&mut v, b"");
        s(&mut v, b"");
        v.extend_from_slice(&0u32.to_le_bytes());
        v.extend_from_slice(&50u32.to_le_bytes());
        s(&mut v, b"");
        s(&mut v, b"");
        s(&mut v, b"");
        let mut notes = Vec::new();
        let f = parse_fram(&mut Reader::new(&v), &mut notes).unwrap();
        assert_eq!(f[0].scripts[0], "*msg(\"발\")");
        assert_eq!((f[0].check, f[1].check), (Some(0), None));
        assert!(notes.is_empty());
    }

    #[test]
    fn moti_fields_and_bad_lengths() {
        let mut v = 1u32.to_le_bytes().to_vec();
        s(&mut v, b"walk");
        v.extend_from_slice(&20u32.to_le_bytes());
        v.extend_from_slice(&59u32.to_le_bytes());
        s(&mut v, b"walk");
        s(&mut v, b"linear");
        v.extend_from_slice(&0.25f32.to_le_bytes());
        s(&mut v, b"");
        let m = parse_moti(&mut Reader::new(&v)).unwrap();
        assert_eq!((m[0].start, m[0].end, m[0].blend_time), (20, 59, 0.25));
        assert_eq!(m[0].next, "walk");
        v[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = parse_moti(&mut Reader::new(&v)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge);
        assert_eq!(e.location, Location::Offset(8));
    }
}
