//! `ANIM`: per animated bone a bone id (u8, 0xFE → u16), then position keys
//! `(t, x, y, z)`, rotation keys and scale keys, each block a u32 count then the keys,
//! and from 1.3 flag keys `(t, value)`; a bone id of 0xFF ends the section.
//!
//! Two layouts are known. The one public readers that animate use (Acrisio's
//! `io_scene_mpet` fork) is tried first: rotation keys are `(t, x, y, z, w)` and the
//! scale count is present in every version. It is accepted when the 0xFF terminator
//! lands exactly at the section end. Otherwise the community document's layout is
//! tried: before 1.2 no scale block and rotation keys `(x, y, z, w, t)`, with one extra
//! u32 after the rotation count in 1.0. Times are seconds; the game runs at 30 fps.

use super::bones::read_id;
use super::sections::PetFile;
use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::{Diagnostic, Location};
use glam::{Quat, Vec3};

/// Frames per second of the ANIM timeline.
pub(crate) const FPS: f32 = 30.0;

/// Which byte layout the section was read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Time first in every key, scale count always present.
    TimeFirst,
    /// The community document's layout for this version.
    Document,
}

impl Layout {
    /// Name shown in `info`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::TimeFirst => "time-first",
            Layout::Document => "document",
        }
    }
}

/// The keys of one bone, in file axes, times in seconds, in file order.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct BoneKeys {
    /// Bone (file index).
    pub bone: usize,
    /// File offset of the bone id.
    pub offset: u64,
    /// Position keys.
    pub position: Vec<(f32, Vec3)>,
    /// Rotation keys (x, y, z, w), normalised.
    pub rotation: Vec<(f32, Quat)>,
    /// Scale keys.
    pub scale: Vec<(f32, Vec3)>,
    /// Flag keys `(time, value)` (always −1 in known files; recorded only).
    pub flags: Vec<(f32, f32)>,
}

/// The parsed `ANIM` section.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AnimData {
    /// Per animated bone.
    pub tracks: Vec<BoneKeys>,
    /// Layout it was read with.
    pub layout: Layout,
}

impl AnimData {
    /// Time of the last key of any track, seconds.
    pub(crate) fn end_time(&self) -> f32 {
        self.tracks
            .iter()
            .flat_map(|t| {
                t.position
                    .iter()
                    .map(|k| k.0)
                    .chain(t.rotation.iter().map(|k| k.0))
                    .chain(t.scale.iter().map(|k| k.0))
            })
            .fold(0.0, f32::max)
    }
}

fn vec3_keys(r: &mut Reader<'_>, what: &str) -> Result<Vec<(f32, Vec3)>, LoadError> {
    let n = r.u32(&format!("{what} key count"))?;
    let n = r.check_count(n as u64, 16, what)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let [t, x, y, z] = r.f32s::<4>(what)?;
        out.push((t, Vec3::new(x, y, z)));
    }
    Ok(out)
}

fn quat(at: u64, [x, y, z, w]: [f32; 4], what: &str) -> Result<Quat, LoadError> {
    let q = Quat::from_xyzw(x, y, z, w);
    let len = q.length();
    if len.partial_cmp(&1e-6) != Some(std::cmp::Ordering::Greater) {
        return Err(LoadError::new(
            ErrorKind::BadValue,
            Location::Offset(at),
            format!("{what}: quaternion ({x}, {y}, {z}, {w}) has no length"),
        ));
    }
    Ok(q / len)
}

fn read(
    body: &Reader<'_>,
    file: &PetFile,
    bone_count: Option<usize>,
    layout: Layout,
) -> Result<(Vec<BoneKeys>, usize), LoadError> {
    let mut r = body.clone();
    let doc = layout == Layout::Document;
    let time_last = doc && !file.at_least(2);
    let extra_u32 = doc && !file.at_least(1);
    let has_scale = !doc || file.at_least(2);
    let has_flags = file.at_least(3);
    let mut tracks = Vec::new();
    loop {
        let offset = r.offset();
        let Some(bone) = read_id(&mut r, "ANIM bone id")? else {
            break;
        };
        let bones = bone_count.ok_or_else(|| {
            LoadError::new(
                ErrorKind::Missing,
                Location::Offset(offset),
                "ANIM animates bones, but the file has no BONE section",
            )
        })?;
        if bone as usize >= bones {
            return Err(LoadError::new(
                ErrorKind::IndexOutOfRange,
                Location::Offset(offset),
                format!("ANIM track for bone {bone}, but there are {bones} bones"),
            ));
        }
        let b = bone as usize;
        let position = vec3_keys(&mut r, &format!("bone {b} position"))?;
        let what = format!("bone {b} rotation");
        let n = r.u32(&format!("{what} key count"))?;
        if extra_u32 {
            r.u32(&format!("{what} extra u32 (1.0 document layout)"))?;
        }
        let n = r.check_count(n as u64, 20, &what)?;
        let mut rotation = Vec::with_capacity(n);
        for _ in 0..n {
            let at = r.offset();
            let f = r.f32s::<5>(&what)?;
            let (t, xyzw) = if time_last {
                (f[4], [f[0], f[1], f[2], f[3]])
            } else {
                (f[0], [f[1], f[2], f[3], f[4]])
            };
            rotation.push((t, quat(at, xyzw, &what)?));
        }
        let scale = if has_scale {
            vec3_keys(&mut r, &format!("bone {b} scale"))?
        } else {
            Vec::new()
        };
        let mut flags = Vec::new();
        if has_flags {
            let what = format!("bone {b} flag");
            let n = r.u32(&format!("{what} key count"))?;
            let n = r.check_count(n as u64, 8, &what)?;
            flags.reserve(n);
            for _ in 0..n {
                let [t, v] = r.f32s::<2>(&what)?;
                flags.push((t, v));
            }
        }
        tracks.push(BoneKeys {
            bone: b,
            offset,
            position,
            rotation,
            scale,
            flags,
        });
    }
    Ok((tracks, r.remaining()))
}

/// Parses an `ANIM` payload (the whole section reader; it is not advanced).
pub(crate) fn parse(
    body: &Reader<'_>,
    file: &PetFile,
    bone_count: Option<usize>,
) -> Result<(AnimData, Vec<Diagnostic>), LoadError> {
    let mut notes = Vec::new();
    let first = read(body, file, bone_count, Layout::TimeFirst);
    if let Ok((tracks, 0)) = first {
        return Ok((
            AnimData {
                tracks,
                layout: Layout::TimeFirst,
            },
            notes,
        ));
    }
    // Before 1.2 the document's layout differs; try it.
    if !file.at_least(2)
        && let Ok((tracks, 0)) = read(body, file, bone_count, Layout::Document)
    {
        notes.push(Diagnostic::warning(
            Location::Offset(body.offset()),
            "ANIM did not end at its terminator in the time-first layout; read with the \
             community document's layout instead",
        ));
        return Ok((
            AnimData {
                tracks,
                layout: Layout::Document,
            },
            notes,
        ));
    }
    let (tracks, left) = first?;
    notes.push(Diagnostic::warning(
        Location::Offset(body.offset() + (body.remaining() - left) as u64),
        format!("ANIM: {left} bytes after the 0xFF terminator ignored"),
    ));
    Ok((
        AnimData {
            tracks,
            layout: Layout::TimeFirst,
        },
        notes,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pet::Kind;
    use crate::formats::pet::sections::parse_file;

    fn section(tag: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut v = tag.to_vec();
        v.extend_from_slice(&(body.len() as u32).to_le_bytes());
        v.extend_from_slice(body);
        v
    }

    fn floats(v: &mut Vec<u8>, f: &[f32]) {
        for x in f {
            v.extend_from_slice(&x.to_le_bytes());
        }
    }

    /// A `.apet` of version 1.`minor` with one bone and the given ANIM payload.
    fn file(minor: u8, anim: &[u8]) -> Vec<u8> {
        let mut out = section(b"VERS", &[minor, 1, 0xFE, 0xFF]);
        out.extend(section(b"BONE", b"\x01root\x00\xFF"));
        out.extend(section(b"ANIM", anim));
        out
    }

    #[test]
    fn layouts_table() {
        // Time-first (Acrisio): one position key, one rotation key, no scale keys.
        let mut time_first = vec![0u8];
        time_first.extend_from_slice(&1u32.to_le_bytes());
        floats(&mut time_first, &[0.5, 1.0, 2.0, 3.0]);
        time_first.extend_from_slice(&1u32.to_le_bytes());
        floats(&mut time_first, &[0.5, 0.0, 0.0, 0.0, 2.0]);
        time_first.extend_from_slice(&0u32.to_le_bytes());
        time_first.push(0xFF);
        // The community document's 1.0 layout: extra u32, rotation (x, y, z, w, t), no
        // scale block.
        let mut doc = vec![0u8];
        doc.extend_from_slice(&0u32.to_le_bytes());
        doc.extend_from_slice(&1u32.to_le_bytes());
        doc.extend_from_slice(&7u32.to_le_bytes());
        floats(&mut doc, &[0.0, 0.0, 0.0, 1.0, 0.5]);
        doc.push(0xFF);
        let mut escaped = vec![0xFE, 0, 0];
        escaped.extend_from_slice(&[0; 12]);
        escaped.push(0xFF);
        type Case = (
            &'static str,
            u8,
            Vec<u8>,
            Result<(Layout, usize), ErrorKind>,
        );
        let cases: Vec<Case> = vec![
            (
                "time-first 1.1",
                1,
                time_first.clone(),
                Ok((Layout::TimeFirst, 1)),
            ),
            ("document 1.0", 0, doc.clone(), Ok((Layout::Document, 1))),
            (
                "document layout is not tried from 1.2",
                2,
                doc,
                Err(ErrorKind::CountTooLarge),
            ),
            ("escaped bone id", 2, escaped, Ok((Layout::TimeFirst, 1))),
            (
                "no terminator",
                1,
                time_first[..time_first.len() - 1].to_vec(),
                Err(ErrorKind::Truncated),
            ),
            (
                "bone out of range",
                1,
                vec![3, 0xFF],
                Err(ErrorKind::IndexOutOfRange),
            ),
            ("empty", 3, vec![0xFF], Ok((Layout::TimeFirst, 0))),
        ];
        for (name, minor, anim, want) in cases {
            let got = parse_file(&file(minor, &anim), Kind::Apet)
                .map(|f| f.anim.map(|a| (a.layout, a.tracks.len())).unwrap());
            assert_eq!(got.map_err(|e| e.kind), want, "{name}");
        }
    }

    #[test]
    fn keys_are_read_in_order() {
        let mut a = vec![0u8];
        a.extend_from_slice(&0u32.to_le_bytes());
        a.extend_from_slice(&1u32.to_le_bytes());
        floats(&mut a, &[1.0, 0.0, 0.0, 0.0, 2.0]);
        a.extend_from_slice(&1u32.to_le_bytes());
        floats(&mut a, &[1.0, 2.0, 2.0, 2.0]);
        a.extend_from_slice(&1u32.to_le_bytes());
        floats(&mut a, &[1.0, -1.0]);
        a.push(0xFF);
        let f = parse_file(&file(3, &a), Kind::Apet).unwrap();
        let t = &f.anim.unwrap().tracks[0];
        assert_eq!(
            t.rotation,
            vec![(1.0, Quat::IDENTITY)],
            "normalised (t, x, y, z, w)"
        );
        assert_eq!(t.scale, vec![(1.0, Vec3::splat(2.0))]);
        assert_eq!(t.flags, vec![(1.0, -1.0)]);
    }
}
