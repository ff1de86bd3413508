//! Trespasser TPM loader. TPM is a community interchange text format (TresEd, GeomAdd,
//! the LtSten/Blender-TPM add-on, whose `Documentation/TPM Specification.md` is the
//! spec followed), not a file the game itself loads.
//!
//! Stages: `grammar` (lines → blocks), [`values`] (property values), [`blocks`]
//! (blocks → typed, range-checked file terms, warnings), [`build`] (→ [`Model`], axis
//! conversion, nodes, materials, skins), [`details`] (the panel's lines and the
//! `info --json` details, in file terms).
//!
//! Textures are only named here; `formats::resolve` finds them (user roots with the
//! whole relative path, then the bare name next to the file, case-insensitively).

pub mod blocks;
pub mod build;
pub mod details;
pub(crate) mod grammar;
pub mod values;

use super::{ErrorKind, LoadError};
use crate::model::{Location, Model};

/// Parses TPM bytes.
///
/// # Errors
/// [`ErrorKind::EmptyFile`] for zero bytes; otherwise see `grammar::parse_blocks` and
/// `blocks::type_blocks`. Every error names its line.
pub fn parse(bytes: &[u8]) -> Result<Model, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::new(
            ErrorKind::EmptyFile,
            Location::File,
            "the file is empty (a TPM file needs at least a fileinfo block)",
        ));
    }
    let blocks = grammar::parse_blocks(bytes)?;
    let file = blocks::type_blocks(&blocks)?;
    Ok(build::build(file))
}
