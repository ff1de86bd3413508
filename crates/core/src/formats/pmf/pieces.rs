//! The piece hierarchy: pieces stored pre-order, each followed by its children.
//!
//! The hierarchy is read with an explicit stack, not recursion, and nesting is limited
//! to `MAX_DEPTH`, so a hostile child count or a very deep chain cannot overflow the
//! stack (here or in anything that walks the tree later).

use super::header::{NAME_BYTES, read_name};
use super::{read_count, with_context};
use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::{Diagnostic, Location};

/// Bytes of one stored vertex: position, normal (3 floats each) and UV (2 floats).
pub(crate) const VERTEX_BYTES: u64 = 32;

/// The fewest bytes a piece can take: name, translation, vertex count, child count.
pub(crate) const MIN_PIECE_BYTES: u64 = NAME_BYTES as u64 + 12 + 4 + 4;

/// Deepest nesting accepted (the root is depth 1). Real models nest a handful of levels;
/// the limit only stops hostile files.
pub(crate) const MAX_DEPTH: usize = 256;

/// One stored vertex, as the file gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RawVertex {
    /// Position in the piece's own space.
    pub position: [f32; 3],
    /// Authored normal.
    pub normal: [f32; 3],
    /// Texture coordinates, V up (0 = bottom of the image).
    pub uv: [f32; 2],
}

/// One piece, as the file gives it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawPiece {
    /// Name (Latin-1 decoded).
    pub name: String,
    /// Index of the parent piece (always smaller than this piece's index).
    pub parent: Option<usize>,
    /// Translation relative to the parent.
    pub translation: [f32; 3],
    /// Vertices; every three make a triangle.
    pub vertices: Vec<RawVertex>,
    /// File offset of the piece record.
    pub offset: u64,
}

/// Reads the whole hierarchy (the root piece and all its descendants) in file order.
/// Problems that still leave a usable model (a vertex count that is not a multiple of
/// 3) are reported in `warnings`.
pub(crate) fn read_pieces(
    r: &mut Reader,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<RawPiece>, LoadError> {
    let mut pieces: Vec<RawPiece> = Vec::new();
    // (piece index, children still to read) for every open ancestor.
    let mut open: Vec<(usize, u64)> = Vec::new();
    loop {
        let index = pieces.len();
        let parent = open.last().map(|&(p, _)| p);
        let (piece, children) = read_piece(r, index, parent, warnings)?;
        if let Some(top) = open.last_mut() {
            top.1 -= 1;
        }
        if children > 0 {
            // This piece is at depth open.len() + 1; its children one deeper.
            if open.len() + 2 > MAX_DEPTH {
                return Err(LoadError::new(
                    ErrorKind::Invalid,
                    Location::Offset(piece.offset),
                    format!(
                        "piece {index} ({}): its children would nest deeper than {MAX_DEPTH} levels",
                        piece.name
                    ),
                ));
            }
            open.push((index, children));
        }
        pieces.push(piece);
        while open.last().is_some_and(|&(_, left)| left == 0) {
            open.pop();
        }
        if open.is_empty() {
            return Ok(pieces);
        }
    }
}

/// Reads one piece record up to and including its child count.
fn read_piece(
    r: &mut Reader,
    index: usize,
    parent: Option<usize>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(RawPiece, u64), LoadError> {
    let offset = r.offset();
    let name = read_name(r, &format!("piece {index} name"))?;
    let label = || format!("piece {index} ({name})");
    let translation = with_context(r.f32s::<3>("translation"), label)?;
    let count_at = r.offset();
    let count = with_context(read_count(r, VERTEX_BYTES, "vertex count"), label)?;
    if count % 3 != 0 {
        warnings.push(Diagnostic::coded(
            "pmf/vertex-count",
            Location::Offset(count_at),
            format!(
                "{}: vertex count {count} is not a multiple of 3; the last {} form no triangle and are not drawn",
                label(),
                if count % 3 == 1 { "vertex" } else { "2 vertices" }
            ),
        ));
    }
    let mut vertices = Vec::with_capacity(count);
    for v in 0..count {
        let vertex = (|| {
            Ok(RawVertex {
                position: r.f32s("position")?,
                normal: r.f32s("normal")?,
                uv: r.f32s("uv")?,
            })
        })();
        vertices.push(with_context(vertex, || format!("{} vertex {v}", label()))?);
    }
    let children = with_context(read_count(r, MIN_PIECE_BYTES, "child count"), label)?;
    let piece = RawPiece {
        name,
        parent,
        translation,
        vertices,
        offset,
    };
    Ok((piece, children as u64))
}
