//! Animations: a count, then per animation a name, flags, fps and frames. Each frame
//! holds flags, the root position and one X/Y/Z rotation per piece in hierarchy order.
//!
//! Frames are stored fully interpolated (the editor fills the in-betweens with
//! Catmull-Rom), so `to_clip` keys every stored frame and plays them back linearly
//! (slerp) between frames; nothing is re-interpolated from the keyframes.

use super::header::{NAME_BYTES, read_name};
use super::options::PmfOptions;
use super::pieces::RawPiece;
use super::{at_offset, read_count, with_context};
use crate::formats::LoadError;
use crate::formats::reader::Reader;
use crate::model::{Clip, Diagnostic, EventMarker, Interpolation, Location, NodeTrack, Track};
use glam::Vec3;

/// Animation flag bit 0: the animation loops.
pub(crate) const ANIM_LOOP: u8 = 1;
/// Frame flag bit 0: the author marked this frame as a keyframe.
pub(crate) const FRAME_KEY: u8 = 1;
/// Frame flag bit 1: the game fires an animation event at this frame.
pub(crate) const FRAME_EVENT: u8 = 2;

/// The fewest bytes an animation can take: name, flags, fps, frame count.
pub(crate) const MIN_ANIMATION_BYTES: u64 = NAME_BYTES as u64 + 1 + 1 + 2;

/// One stored frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawFrame {
    /// Flags ([`FRAME_KEY`], [`FRAME_EVENT`]).
    pub flags: u8,
    /// Root piece position.
    pub root: [f32; 3],
    /// One rotation (X, Y, Z, file units) per piece, in hierarchy order.
    pub rotations: Vec<[f32; 3]>,
}

/// One stored animation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawAnimation {
    /// Name.
    pub name: String,
    /// Flags ([`ANIM_LOOP`]).
    pub flags: u8,
    /// Playback speed as stored.
    pub fps: u8,
    /// Frames in order.
    pub frames: Vec<RawFrame>,
    /// File offset of the animation record.
    pub offset: u64,
}

impl RawAnimation {
    /// Whether bit 0 of the flags is set.
    pub fn looping(&self) -> bool {
        self.flags & ANIM_LOOP != 0
    }

    /// Frame numbers with `flag` set.
    pub(crate) fn frames_with(&self, flag: u8) -> Vec<u32> {
        (0u32..)
            .zip(&self.frames)
            .filter(|(_, f)| f.flags & flag != 0)
            .map(|(i, _)| i)
            .collect()
    }
}

/// Reads the animation count and every animation for a hierarchy of `pieces` pieces.
pub(crate) fn read_animations(
    r: &mut Reader,
    pieces: usize,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<RawAnimation>, LoadError> {
    let count = read_count(r, MIN_ANIMATION_BYTES, "animation count")?;
    let mut out = Vec::with_capacity(count);
    for a in 0..count {
        out.push(read_animation(r, a, pieces, warnings)?);
    }
    Ok(out)
}

fn read_animation(
    r: &mut Reader,
    index: usize,
    pieces: usize,
    warnings: &mut Vec<Diagnostic>,
) -> Result<RawAnimation, LoadError> {
    let offset = r.offset();
    let name = read_name(r, &format!("animation {index} name"))?;
    let label = || format!("animation {index} ({name})");
    let flags_at = r.offset();
    let flags = with_context(r.u8("flags"), label)?;
    if flags & !ANIM_LOOP != 0 {
        warnings.push(Diagnostic::warning(
            Location::Offset(flags_at),
            format!(
                "{}: unknown animation flag bits 0x{flags:02x} ignored",
                label()
            ),
        ));
    }
    let fps = with_context(r.u8("fps"), label)?;
    let frame_bytes = 1 + 12 + 12 * pieces as u64;
    let count_at = r.offset();
    let count = with_context(
        r.u16("frame count")
            .and_then(|n| r.check_count(u64::from(n), frame_bytes, "frame count"))
            .map_err(|e| at_offset(e, count_at)),
        label,
    )?;
    let mut frames = Vec::with_capacity(count);
    let mut unknown_flags = None;
    for f in 0..count {
        let frame_at = r.offset();
        let frame = (|| {
            let flags = r.u8("frame flags")?;
            let root = r.f32s("root position")?;
            let mut rotations = Vec::with_capacity(pieces);
            for p in 0..pieces {
                let what = || format!("rotation of piece {p}");
                rotations.push(with_context(r.f32s("x, y, z"), what)?);
            }
            Ok(RawFrame {
                flags,
                root,
                rotations,
            })
        })();
        let frame = with_context(frame, || format!("{} frame {f}", label()))?;
        if frame.flags & !(FRAME_KEY | FRAME_EVENT) != 0 && unknown_flags.is_none() {
            unknown_flags = Some((f, frame_at, frame.flags));
        }
        frames.push(frame);
    }
    if let Some((f, at, bits)) = unknown_flags {
        warnings.push(Diagnostic::warning(
            Location::Offset(at),
            format!(
                "{}: frame {f} (and maybe others) has unknown flag bits 0x{bits:02x}; ignored",
                label()
            ),
        ));
    }
    Ok(RawAnimation {
        name,
        flags,
        fps,
        frames,
        offset,
    })
}

/// Builds the clip of `anim`: a rotation track on every piece, a translation track on the
/// root (per [`PmfOptions::root`]), keyframe ticks and event markers. A stored fps of 0
/// plays at 1 fps, with a warning.
pub(crate) fn to_clip(
    anim: &RawAnimation,
    pieces: &[RawPiece],
    options: &PmfOptions,
    warnings: &mut Vec<Diagnostic>,
) -> Clip {
    let fps = if anim.fps == 0 {
        warnings.push(Diagnostic::warning(
            Location::Offset(anim.offset + NAME_BYTES as u64 + 1),
            format!(
                "animation {}: fps is 0; playing it at 1 frame per second",
                anim.name
            ),
        ));
        1.0
    } else {
        f32::from(anim.fps)
    };
    let frame_count = u32::try_from(anim.frames.len()).unwrap_or(u32::MAX);
    let mut clip = Clip::new(anim.name.clone(), fps, frame_count, anim.looping());
    clip.keyframes = anim.frames_with(FRAME_KEY);
    clip.events = anim
        .frames_with(FRAME_EVENT)
        .into_iter()
        .map(|frame| EventMarker {
            frame,
            text: "event frame".to_string(),
        })
        .collect();
    if anim.frames.is_empty() {
        warnings.push(Diagnostic::warning(
            Location::Offset(anim.offset),
            format!(
                "animation {} has no frames; it shows the rest pose",
                anim.name
            ),
        ));
        return clip;
    }
    // A looping clip blends its last frame back into frame 0.
    let period = clip.looping.then(|| clip.duration());
    let times: Vec<f32> = (0..anim.frames.len())
        .map(|f| clip.frame_time(f as f32))
        .collect();
    for (p, piece) in pieces.iter().enumerate() {
        let mut node = NodeTrack::new(p);
        node.period = period;
        let rotations = anim
            .frames
            .iter()
            .map(|f| options.rotation(f.rotations.get(p).copied().unwrap_or_default()))
            .collect();
        node.rotation = Some(keyed(&times, rotations));
        if piece.parent.is_none() {
            let rest = Vec3::from(piece.translation);
            let positions = anim
                .frames
                .iter()
                .map(|f| options.root.root_translation(rest, Vec3::from(f.root)))
                .collect();
            node.translation = Some(keyed(&times, positions));
        }
        clip.node_tracks.push(node);
    }
    clip
}

/// A linearly interpolated track with one key per stored frame.
fn keyed<T>(times: &[f32], values: Vec<T>) -> Track<T> {
    Track {
        times: times.to_vec(),
        values,
        interpolation: Interpolation::Linear,
    }
}
