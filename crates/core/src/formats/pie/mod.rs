//! Warzone 2100 PIE 2, 3 and 4, as the game loads them (`lib/ivis_opengl/imdload.cpp`
//! of the current loader and its 2.x and 2017–2020 predecessors), plus the
//! legacy input older engines accepted (several records on one line, n-gons, `BSP`
//! blocks, `NOTEXTURE`, texture names with a space).
//!
//! Stages: [`tokens`] (words with line numbers) → [`header`] → [`level`] (one per
//! `LEVEL`) → [`anim`] and [`build`] (the [`Model`]). Errors name the line; counts are
//! checked against the bytes left before anything is allocated for them.

pub mod anim;
pub mod build;
pub mod header;
pub mod level;
pub mod tileset;
pub mod tokens;

pub use tileset::Tileset;

/// The Warzone 2100 map tile, in PIE units: the grid PIE models and assemblies are laid
/// out on ([`Model::grid_unit`](crate::model::Model::grid_unit)).
pub const TILE: f32 = 128.0;

use crate::formats::{ErrorKind, LoadError};
use crate::model::{Diagnostic, Location, Model};
use tokens::{Tokens, error};

/// Parses a PIE file for the arizona tileset (`parse_for` picks another). Texture and
/// event names stay unresolved (see [`crate::formats::resolve`]).
///
/// # Errors
/// Whatever the game refuses (bad header, version outside 2–4, levels out of sequence,
/// missing POINTS/POLYGONS, an index out of range, a truncated block, …), as a
/// [`LoadError`] with the line; warnings for what it tolerates go to
/// [`Model::diagnostics`].
pub fn parse(bytes: &[u8]) -> Result<Model, LoadError> {
    parse_for(bytes, Tileset::Arizona)
}

/// [`parse`], with the materials drawing the pages of `tileset` (see [`tileset`]); the
/// other tilesets' pages are listed in [`Model::textures`] with their slot.
///
/// # Errors
/// As [`parse`].
pub(crate) fn parse_for(bytes: &[u8], tileset: Tileset) -> Result<Model, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::new(
            ErrorKind::EmptyFile,
            Location::File,
            "the file is empty",
        ));
    }
    let mut warnings: Vec<Diagnostic> = Vec::new();
    let mut toks = Tokens::new(bytes);
    let header = header::parse_header(&mut toks, &mut warnings)?;
    // Smallest level: `LEVEL k POINTS 0 POLYGONS 0`.
    let cap = toks.check_count(u64::from(header.levels), 6, "LEVELS", header.levels_line)?;
    let mut levels = Vec::with_capacity(cap);
    for k in 1..=header.levels {
        let Some(t) = toks.next_token() else {
            // The game loads the levels that are there.
            if k > 1 {
                warnings.push(Diagnostic::coded(
                    "pie/levels-count",
                    Location::Line(header.levels_line),
                    format!(
                        "LEVELS {} but the file ends after {} level(s)",
                        header.levels,
                        k - 1
                    ),
                ));
                break;
            }
            return Err(error(
                ErrorKind::Truncated,
                toks.line(),
                format!("file ends after {} of LEVELS {}", k - 1, header.levels),
            ));
        };
        if !t.is("LEVEL") {
            return Err(error(
                ErrorKind::Syntax,
                t.line,
                format!("expected LEVEL {k}, found {}", t.show()),
            ));
        }
        let number = toks.uint(|| format!("LEVEL {k} number"))?;
        if number != k {
            return Err(error(
                ErrorKind::Invalid,
                t.line,
                format!("LEVEL {number} out of sequence: expected LEVEL {k}"),
            ));
        }
        let last = k == header.levels;
        let (level, end) =
            level::parse_level(&mut toks, header.version, k, t.line, last, &mut warnings)?;
        levels.push(level);
        if end == level::End::JunkIgnored {
            break;
        }
    }
    if let Some(t) = toks.peek()
        && t.is("LEVEL")
    {
        warnings.push(Diagnostic::coded(
            "pie/extra-levels",
            Location::Line(t.line),
            format!(
                "more LEVEL blocks than LEVELS {} declared; ignored from here on",
                header.levels
            ),
        ));
    }
    Ok(build::build(header, levels, warnings, tileset))
}
