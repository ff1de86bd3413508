//! Piece Model Editor `PMF1` loader (`../shared/specs/pmf.txt`).
//!
//! Stages: [`header`] (magic, Pascal names) → [`pieces`] (the pre-order hierarchy and
//! its triangle soup) → [`anim`] (frames → clips) → [`scene`] (the neutral model and the
//! `"pmf"` details). [`sidecar`] is the one file-system step: an optional `<stem>.png`
//! beside the model becomes its texture.
//!
//! Strictness follows the corpus manifest's severities: anything that leaves no model
//! (bad magic, a count the bytes cannot hold, truncation, a non-finite float, a name
//! length over 31) is an error with its byte offset; a vertex count that is not a
//! multiple of 3, unknown flag bits and bytes after the last animation are warnings.
//!
//! Not supported: nothing in the format is skipped, but the transform rules are not
//! known from any real file — see [`options`].

pub mod anim;
pub mod header;
pub mod options;
pub mod pieces;
pub mod scene;
pub mod sidecar;
#[cfg(test)]
mod tests;

pub use options::{EulerOrder, PmfOptions, RootMode, RotationUnits};
pub(crate) use sidecar::attach_sidecar;

use super::LoadError;
use super::reader::Reader;
use crate::model::{Diagnostic, Location, Model};

/// Parses PMF bytes with the given settings.
///
/// # Errors
/// A [`LoadError`] with the byte offset and what was being read when the bytes are not a
/// `PMF1` file or cannot be read to the end of the animations.
pub fn parse(bytes: &[u8], options: &PmfOptions) -> Result<Model, LoadError> {
    let mut r = Reader::new(bytes);
    let mut warnings = Vec::new();
    header::read_magic(&mut r)?;
    header::root_fits(&r)?;
    let pieces = pieces::read_pieces(&mut r, &mut warnings)?;
    let animations = anim::read_animations(&mut r, pieces.len(), &mut warnings)?;
    if !r.is_empty() {
        warnings.push(Diagnostic::coded(
            "pmf/trailing-bytes",
            Location::Offset(r.offset()),
            format!(
                "{} bytes after the last animation are not part of the format; ignored",
                r.remaining()
            ),
        ));
    }
    Ok(scene::build(&pieces, &animations, options, warnings))
}

/// Prefixes a failed read's message with the record being read (`piece 2 (head)`); the
/// label is only built when there is an error.
fn with_context<T>(
    result: Result<T, LoadError>,
    label: impl FnOnce() -> String,
) -> Result<T, LoadError> {
    result.map_err(|mut e| {
        e.message = format!("{}: {}", label(), e.message);
        e
    })
}

/// Reads a u32 count of records of at least `min_record_bytes` each and checks it against
/// the bytes left (before anything is allocated); an error points at the count itself.
fn read_count(r: &mut Reader, min_record_bytes: u64, what: &str) -> Result<usize, LoadError> {
    let at = r.offset();
    r.u32(what)
        .and_then(|n| r.check_count(u64::from(n), min_record_bytes, what))
        .map_err(|e| at_offset(e, at))
}

/// The same error, placed at file offset `at`.
fn at_offset(mut e: LoadError, at: u64) -> LoadError {
    e.location = Location::Offset(at);
    e
}
