//! Raw pieces and animations → the neutral [`Model`]: one node, one mesh and one
//! material per piece, one clip per animation, and the `"pmf"` details object.
//!
//! Axes: the file's numbers are used as they are (+Y up, right-handed, counter-clockwise
//! front faces; an assumption the PMF document does not state). UVs are stored with
//! V up (0 = bottom of the image) and are flipped to the model's top-left origin.
//!
//! Materials: PMF names no texture or material. Every piece gets its own untextured,
//! opaque, lit material named after the piece, with a distinct soft colour
//! (`piece_colour`), so a per-piece colour mode can show them and a legend can list
//! them by material (material `i` belongs to piece `i`).

use super::anim::{RawAnimation, to_clip};
use super::options::PmfOptions;
use super::pieces::RawPiece;
use crate::model::colour::{hsv_to_rgb, srgb_to_linear};
use crate::model::details::{Details, PmfAnimation, PmfDetails, PmfPiece};
use crate::model::{
    Corner, Diagnostic, Format, Location, Material, Mesh, Model, Node, NodeKind, Submesh,
};
use glam::{Vec2, Vec3};

/// The version string every PMF model reports.
pub const VERSION: &str = "PMF1";

/// The linear RGBA colour of piece `index`: hues a golden angle apart, soft saturation,
/// so neighbouring pieces differ clearly and none is garish.
pub(crate) fn piece_colour(index: usize) -> [f32; 4] {
    const GOLDEN: f32 = 0.618_034;
    let hue = (0.58 + index as f32 * GOLDEN).fract();
    let [r, g, b] = hsv_to_rgb(hue, 0.45, 0.85).map(srgb_to_linear);
    [r, g, b, 1.0]
}

/// Builds the model. `warnings` become the model's diagnostics.
pub(crate) fn build(
    pieces: &[RawPiece],
    animations: &[RawAnimation],
    options: &PmfOptions,
    mut warnings: Vec<Diagnostic>,
) -> Model {
    let mut model = Model::new(Format::Pmf, VERSION);
    for (i, piece) in pieces.iter().enumerate() {
        let display = if piece.name.is_empty() {
            format!("piece {i}")
        } else {
            piece.name.clone()
        };
        let mut node = Node::new(display.clone(), piece.parent, NodeKind::Piece);
        node.translation = Vec3::from(piece.translation);
        node.mesh = Some(i);
        model.nodes.push(node);
        model.meshes.push(piece_mesh(piece, display.clone(), i));
        model
            .materials
            .push(Material::new(display, piece_colour(i)));
    }
    for anim in animations {
        let clip = to_clip(anim, pieces, options, &mut warnings);
        model.clips.push(clip);
    }
    model.details = details(pieces, animations, options);
    add_properties(&mut model, pieces, options);
    // In file order, whichever stage found them.
    warnings.sort_by_key(|d| match d.location {
        Location::Offset(o) => o,
        _ => 0,
    });
    model.diagnostics = warnings;
    model
}

/// The mesh of one piece: its vertices as points, three corners per triangle using them
/// in order, authored normals, V flipped. Leftover vertices (a count that is not a
/// multiple of 3, already warned about) stay points but form no triangle.
fn piece_mesh(piece: &RawPiece, name: String, material: usize) -> Mesh {
    let triangles = piece.vertices.len() / 3;
    let corners: Vec<Corner> = (0u32..)
        .zip(&piece.vertices)
        .take(triangles * 3)
        .map(|(i, v)| Corner {
            point: i,
            normal: Some(Vec3::from(v.normal)),
            uv: [Vec2::new(v.uv[0], 1.0 - v.uv[1]), Vec2::ZERO],
            animated: false,
        })
        .collect();
    let submeshes = if triangles > 0 {
        vec![Submesh {
            first_triangle: 0,
            triangle_count: u32::try_from(triangles).unwrap_or(u32::MAX),
            material,
        }]
    } else {
        Vec::new()
    };
    Mesh {
        name,
        points: piece
            .vertices
            .iter()
            .map(|v| Vec3::from(v.position))
            .collect(),
        influences: Vec::new(),
        corners,
        submeshes,
        skin: None,
        uv_sets: 1,
        point_alpha: Vec::new(),
        point_light: Vec::new(),
        surface_layer: false,
    }
}

/// The `"pmf"` object of `info --json`, in the file's own terms.
fn details(pieces: &[RawPiece], animations: &[RawAnimation], options: &PmfOptions) -> Details {
    let pieces = pieces
        .iter()
        .map(|p| PmfPiece {
            name: p.name.clone(),
            parent: p.parent.map(|i| pieces[i].name.clone()),
            translation: p.translation.map(short),
            vertices: p.vertices.len(),
            triangles: p.vertices.len() / 3,
        })
        .collect();
    let animations = animations
        .iter()
        .map(|a| PmfAnimation {
            name: a.name.clone(),
            frames: a.frames.len(),
            fps: a.fps,
            looping: a.looping(),
            flags: a.flags,
            keyframes: a.frames_with(super::anim::FRAME_KEY),
            event_frames: a.frames_with(super::anim::FRAME_EVENT),
        })
        .collect();
    Details::Pmf(PmfDetails {
        magic: VERSION,
        pieces,
        animations,
        options: options.rules(),
        texture: None,
    })
}

/// An f32 as the shortest decimal that reads back as the same f32 (`0.55`, not
/// `0.550000011920929`), so the JSON shows the numbers an editor would.
fn short(x: f32) -> Option<f64> {
    x.to_string().parse::<f64>().ok().filter(|v| v.is_finite())
}

fn add_properties(model: &mut Model, pieces: &[RawPiece], options: &PmfOptions) {
    let vertices: usize = pieces.iter().map(|p| p.vertices.len()).sum();
    let triangles: usize = pieces.iter().map(|p| p.vertices.len() / 3).sum();
    model.property(
        "Pieces",
        format!(
            "{} ({vertices} vertices, {triangles} triangles)",
            pieces.len()
        ),
    );
    let clips: Vec<String> = model
        .clips
        .iter()
        .map(|c| format!("{} ({} frames)", c.name, c.frame_count))
        .collect();
    model.property(
        "Animations",
        if clips.is_empty() {
            "none".to_string()
        } else {
            clips.join(", ")
        },
    );
    model.property(
        "Rotation units",
        format!(
            "{} (not stated by the format; --pmf-units)",
            options.units.name()
        ),
    );
    model.property(
        "Euler order",
        format!(
            "{}: {} (not stated by the format; --pmf-euler)",
            options.euler.name(),
            options.euler.formula()
        ),
    );
    model.property(
        "Root position",
        format!(
            "{}: a frame's root position {} the root piece's translation (not stated by the format; --pmf-root)",
            options.root.name(),
            match options.root {
                super::options::RootMode::Replace => "replaces",
                super::options::RootMode::Add => "is added to",
            }
        ),
    );
}
