//! What surrounds a scene: distance fog, a sky and the shadows of its sun (a Warzone
//! 2100 map's, set by the map scene alone). The renderer applies the fog to every mesh of the model — not to the
//! guides and overlays drawn over it — and draws the sky behind everything; a view may
//! leave both out (the window's and `vitrine render`'s fog setting).
//!
//! Distances are in model units along the view direction (the depth of a point in front
//! of the eye), as the game's shaders measure them.

use super::Mesh;

/// Fog and sky; the default has neither.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    /// Linear distance fog.
    pub fog: Option<Fog>,
    /// The sky drawn behind the scene.
    pub sky: Option<Sky>,
    /// The shadows the nodes marked [`crate::model::Node::casts_shadow`] cast.
    pub shadows: Option<Shadows>,
}

impl Environment {
    /// Whether there is nothing to apply.
    pub fn is_empty(&self) -> bool {
        self.fog.is_none() && self.sky.is_none() && self.shadows.is_none()
    }
}

/// Shadow volumes: the edges of each caster mesh's outline as its sun sees it (the
/// triangles facing the sun, less the edges two of them share), each pulled along
/// [`Shadows::light`] into a quad. A pixel whose surface lies behind more of those
/// quads' faces turned towards the eye than away from it (or the other way: inside a
/// volume) is darkened once, however many volumes it is in: its colour times
/// `1 − darkness`, in the display's sRGB encoding. The opaque meshes are drawn first and
/// darkened with the ground; the blended ones are drawn after, undarkened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shadows {
    /// The sun's light as it travels (towards the ground), in model space; its length is
    /// how far each outline is pulled, model units.
    pub light: [f32; 3],
    /// How much a shadow takes from the colour (0: nothing, 1: all).
    pub darkness: f32,
}

/// Linear fog: a fragment at depth `d` is mixed towards [`Fog::colour`] by
/// `clamp((d − begin) / (end − begin), 0, 1)`, in the display's sRGB encoding (as the
/// game mixes in its gamma-encoded framebuffer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fog {
    /// The fog's colour, sRGB-encoded 0..1.
    pub colour: [f32; 3],
    /// Where the fog begins.
    pub begin: FogDistance,
    /// Where it is whole.
    pub end: FogDistance,
}

/// A fog distance that grows with the camera's distance from what it looks at:
/// `base + per_camera_distance × distance`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FogDistance {
    /// The distance with the camera at its target.
    pub base: f32,
    /// Added per unit of the camera's distance to its target.
    pub per_camera_distance: f32,
}

impl FogDistance {
    /// The distance for a camera `camera_distance` from its target.
    pub fn at(&self, camera_distance: f32) -> f32 {
        self.base + self.per_camera_distance * camera_distance
    }
}

impl Fog {
    /// Begin and end for a camera `camera_distance` from its target; the end is kept
    /// past the begin.
    pub fn range(&self, camera_distance: f32) -> (f32, f32) {
        let begin = self.begin.at(camera_distance);
        let end = self.end.at(camera_distance).max(begin + 1e-3);
        (begin, end)
    }
}

/// A sky box around the eye: [`Sky::mesh`] (points in a unit box, textured by UV set 0)
/// scaled by [`Sky::scale`], centred on the eye moved by [`Sky::lift`] along +Y, turned
/// about +Y over time, drawn first without depth so everything covers it. With fog, its points below [`Sky::fog_below`] take the fog's colour and
/// those below [`Sky::black_below`] black (unit-box heights), blending the horizon into
/// the fog.
#[derive(Debug, Clone)]
pub struct Sky {
    /// The box, in unit coordinates; one submesh, whose material is not used.
    pub mesh: Mesh,
    /// The texture (index into `Model::textures`).
    pub texture: usize,
    /// Half-extents of the box in model units (x, y, z).
    pub scale: [f32; 3],
    /// Moved along +Y from the eye, model units (negative: lowered).
    pub lift: f32,
    /// Degrees per second it turns about +Y.
    pub turn_deg_per_s: f32,
    /// With fog: unit heights below this are the fog's colour.
    pub fog_below: f32,
    /// With fog: unit heights below this are black.
    pub black_below: f32,
}
