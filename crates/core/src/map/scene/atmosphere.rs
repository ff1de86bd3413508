//! The water, the fog and the sky of a map as Warzone 2100 4.3 draws them.
//!
//! - **Water** (`drawWater` in `src/terrain.cpp`, `terrain_water.vert`, `water.frag`):
//!   `page-80-water-1.png` repeating every 4 tiles and scrolling 0.1 of a repeat per
//!   second along u (the texture matrix `translate(waterOffset)`, `waterOffset += 0.1`
//!   per second), times the red of `page-81-water-2.png`, repeating every 5 tiles;
//!   u runs south (world y) and v east (world x), as the game's `paramsX`/`paramsY` give
//!   them. The result multiplies the riverbed under it (`REND_MULTIPLICATIVE`: water
//!   darkens and tints what it covers), unlit, writing no depth.
//! - **Fog** (`updateFogDistance` in `src/lighting.cpp`, `terrain.frag`): linear, from
//!   a new config's `fogstart` (4000) to its `fogend` (8000) with the camera at its
//!   start distance (`mapZoom`, 2600), both moving 1.3 units per unit the camera moves
//!   away, in the game's clip-space depth of its view space scaled by the window
//!   (1.6 at 1024 × 768); in world units, depth in front of the eye, from
//!   796 + 1.29 × the camera's distance to 3280 + 1.29 × it ([`FOG_BEGIN`],
//!   [`FOG_END`]). Its colour is the palette's fog colour (`palette.txt`'s entry
//!   `WZCOL_FOG`, index 76, which `pie_EnableFog` sets: `#b05f08` in 4.3.3's base.wz);
//!   without the data, the per-tileset colours of later versions' `setDefaultFogColour`
//!   (Arizona `#b08f5f`, Urban `#101040`, Rockies `#b6e1ec`). Water fades towards white
//!   (no change under a multiplication) as `water.frag` does.
//! - **Sky** (`pie_Skybox_Init`, `pie_DrawSkybox` in `lib/ivis_opengl/piefunc.cpp`,
//!   `skybox.vert`/`.frag`): four walls from height −1 to 1, the top narrowed by 0.15,
//!   the texture twice per wall between heights 0.15 and 1, its bottom row from −0.45
//!   down, scaled (10000, 5000, 10000) and lowered by 10000 / 8; with fog, points below
//!   0.5 take the fog's colour and those below −0.7 black. Arizona's sky is
//!   `page-25-sky-arizona.png`, still (`init3DView`'s default); the mp rules script sets
//!   `page-25-sky-urban.png` turning 0.5° a second for every other tileset
//!   (`setupgame.js`).
//!
//! Not as the game (the renderer's part): the sky box is centred on the eye (the game
//! centres it on the camera's target, from which its camera never strays farther than
//! the box is wide); fragments past the fog's end are drawn in the fog's colour where the
//! game discards them to show the sky's fog-coloured band (the same colour); an
//! orthographic view (the previews) has neither fog nor sky.

use super::{Layer, Layers, add_mesh, attach, find, terrain};
use crate::files::{FileRef, Lookup};
use crate::map::{Map, Placement, Tileset};
use crate::model::{
    BlendMode, Corner, Environment, Fog, FogDistance, Location, Material, Mesh, Model, Sky,
    Submesh, TextureRef, TextureRole,
};
use glam::{Vec2, Vec3};

/// The first water page.
pub const WATER_PAGE: &str = "page-80-water-1.png";
/// The second water page, whose red shades the first.
pub const WATER_SHADE_PAGE: &str = "page-81-water-2.png";
/// UV units per second the first water page moves along u (`waterOffset`).
pub const WATER_SCROLL: f32 = 0.1;
/// Water without its pages: a blue that multiplies the riverbed (linear).
const BARE_WATER: [f32; 4] = [0.35, 0.55, 0.75, 1.0];

/// A new 4.3.3 config's `fogstart` and `fogend`: where the game's fog begins and is
/// whole when its camera is at its start distance, in its clip-space depth.
const FOG_START_SETTING: f32 = 4000.0;
const FOG_END_SETTING: f32 = 8000.0;
/// `FOG_ALTITUDE_COEFFICIENT`: how far the fog moves per unit the camera moves away.
const FOG_ALTITUDE: f32 = 1.3;
/// `pie_GetResScalingFactor() / 100` in the game's 1024 × 768 window: the world's scale
/// in the game's view space (its fog is measured there).
const GAME_SCALE: f32 = 1.6;
/// The game's projection (`glm::frustum`, near 330, far 100000): its fog is measured on
/// the clip-space z, `Z_SCALE × depth − Z_OFFSET`.
const NEAR: f32 = 330.0;
const FAR: f32 = 100_000.0;
const Z_SCALE: f32 = (FAR + NEAR) / (FAR - NEAR);
const Z_OFFSET: f32 = 2.0 * FAR * NEAR / (FAR - NEAR);

/// The depth in front of the eye (world units) where the game's clip-space fog distance
/// `setting + (D − mapZoom) × FOG_ALTITUDE_COEFFICIENT` falls, `D` the camera's distance
/// in its scaled view space (`updateFogDistance` in `src/lighting.cpp`).
const fn fog_distance(setting: f32) -> FogDistance {
    let map_zoom = super::game_view::GAME_MAP_ZOOM;
    FogDistance {
        base: (setting + Z_OFFSET - FOG_ALTITUDE * map_zoom) / (Z_SCALE * GAME_SCALE),
        per_camera_distance: FOG_ALTITUDE / Z_SCALE,
    }
}

/// Where the fog begins (4.3.3's `fogstart`, moved by the camera's distance as the module says).
pub const FOG_BEGIN: FogDistance = fog_distance(FOG_START_SETTING);
/// Where the fog is whole (4.3.3's `fogend`).
pub const FOG_END: FogDistance = fog_distance(FOG_END_SETTING);
/// The palette entry of the fog's colour (`WZCOL_FOG`, `lib/ivis_opengl/piepalette.h`).
const PALETTE_FOG: usize = 76;
/// The sky box's half-width (`setSky`'s and `setSkyBox`'s scale).
pub const SKY_SCALE: f32 = 10000.0;

/// Adds the water of `map` (see the module's documentation) as a node of layer
/// [`Layer::Water`]; warns when a page is missing.
pub(super) fn add_water(
    model: &mut Model,
    map: &Map,
    placement: &Placement,
    lookup: &mut Lookup,
    roots: &[FileRef],
    layers: &mut Layers,
) {
    let Some(mesh) = terrain::water_mesh(&placement.terrain, &map.terrain_types) else {
        return;
    };
    let mut material = Material::new("water", [1.0; 4]);
    material.blend = BlendMode::Multiply;
    material.uv_scroll = [WATER_SCROLL, 0.0];
    match find(lookup, roots, &["texpages", WATER_PAGE]) {
        Some(file) => attach(model, &mut material, format!("texpages/{WATER_PAGE}"), file),
        None => {
            material.base_color = BARE_WATER;
            model.warn(
                Location::File,
                format!("no texpages/{WATER_PAGE} in the data: water is drawn in one colour"),
            );
        }
    }
    match find(lookup, roots, &["texpages", WATER_SHADE_PAGE]) {
        Some(file) => {
            let mut t = TextureRef::new(TextureRole::Base, format!("texpages/{WATER_SHADE_PAGE}"));
            t.resolved = Some(file);
            material.shade = Some(model.textures.len());
            model.textures.push(t);
        }
        None if material.base.is_some() => model.warn(
            Location::File,
            format!("no texpages/{WATER_SHADE_PAGE} in the data: the water is not shaded by it"),
        ),
        None => {}
    }
    let first = model.materials.len();
    model.materials.push(material);
    layers.push(Layer::Water, add_mesh(model, mesh, first, "water"));
}

/// The fog and sky of a map of `tileset`, the sky's texture added to `model`; the fog's
/// colour `palette_fog`, the data's palette's ([`palette_fog`]) where it has one, else
/// the tileset's default. Without the sky's page there is no sky.
pub(super) fn environment(
    model: &mut Model,
    tileset: Tileset,
    palette_fog: Option<[u8; 3]>,
    lookup: &mut Lookup,
    roots: &[FileRef],
) -> Environment {
    let colour = palette_fog.unwrap_or_else(|| default_fog_colour(tileset));
    let fog = Fog {
        colour: colour.map(|c| f32::from(c) / 255.0),
        begin: FOG_BEGIN,
        end: FOG_END,
    };
    let (page, turn) = sky_page(tileset);
    let sky = find(lookup, roots, &["texpages", page]).map(|file| {
        let mut t = TextureRef::new(TextureRole::Base, format!("texpages/{page}"));
        t.resolved = Some(file);
        model.textures.push(t);
        Sky {
            mesh: sky_mesh(),
            texture: model.textures.len() - 1,
            scale: [SKY_SCALE, SKY_SCALE / 2.0, SKY_SCALE],
            lift: -SKY_SCALE / 8.0,
            turn_deg_per_s: turn,
            fog_below: 0.5,
            black_below: -0.7,
        }
    });
    Environment {
        fog: Some(fog),
        sky,
        shadows: Some(super::illumination::shadows()),
    }
}

/// The sky page of `tileset` and how many degrees a second it turns: Arizona keeps
/// `init3DView`'s still default, the others get the rules script's `setSky`.
pub fn sky_page(tileset: Tileset) -> (&'static str, f32) {
    match tileset {
        Tileset::Arizona => ("page-25-sky-arizona.png", 0.0),
        Tileset::Urban | Tileset::Rockies => ("page-25-sky-urban.png", 0.5),
    }
}

/// The fog colour of `tileset` where the data has no palette (sRGB bytes): the colours
/// `setDefaultFogColour` (Warzone 2100 after 4.3) names.
pub fn default_fog_colour(tileset: Tileset) -> [u8; 3] {
    match tileset {
        Tileset::Arizona => [0xb0, 0x8f, 0x5f],
        Tileset::Urban => [0x10, 0x10, 0x40],
        Tileset::Rockies => [0xb6, 0xe1, 0xec],
    }
}

/// The fog colour of the first root's `palette.txt` that has one.
pub(super) fn palette_fog(lookup: &mut Lookup, roots: &[FileRef]) -> Option<[u8; 3]> {
    let file = find(lookup, roots, &["palette.txt"])?;
    let bytes = lookup.files().read(&file).ok()?;
    palette_entry(&String::from_utf8_lossy(&bytes), PALETTE_FOG)
}

/// Entry `index` of a `palette.txt` (one `r,g,b,a` line of hexadecimal bytes per entry,
/// a `//` comment after it), as RGB.
pub fn palette_entry(text: &str, index: usize) -> Option<[u8; 3]> {
    let line = text.lines().nth(index)?;
    let values = line.split("//").next()?;
    let mut bytes = values
        .split(',')
        .map(|v| u8::from_str_radix(v.trim(), 16).ok());
    Some([bytes.next()??, bytes.next()??, bytes.next()??])
}

/// The game's sky box in unit coordinates (`pie_Skybox_Init`): per wall three bands
/// (top to middle, middle to baseline, baseline to bottom) and a bottom cap, each band
/// two triangles; UV set 0 as the game's texture coordinates.
pub fn sky_mesh() -> Mesh {
    const TOP: f32 = 1.0;
    const MIDDLE: f32 = 0.15;
    const BASELINE: f32 = -0.45;
    const BOTTOM: f32 = -1.0;
    const NARROW: f32 = 1.0 - 0.15;
    // Per corner of the box (north-west, north-east, south-east, south-west) as (x, z).
    let corners = [(-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)];
    let mut mesh = Mesh {
        name: "sky".into(),
        uv_sets: 1,
        ..Mesh::default()
    };
    let point = |mesh: &mut Mesh, p: Vec3| {
        mesh.points.push(p);
        mesh.points.len() as u32 - 1
    };
    // v of each band's upper and lower edge; the bottom band is one colour (the
    // texture's bottom row).
    let bands = [
        (TOP, MIDDLE, 0.01, 1.0 - MIDDLE),
        (MIDDLE, BASELINE, 1.0 - MIDDLE, 0.99),
        (BASELINE, BOTTOM, 0.99, 0.99),
    ];
    for wall in 0..4 {
        let (x0, z0) = corners[wall];
        let (x1, z1) = corners[(wall + 1) % 4];
        for (hi, lo, v_hi, v_lo) in bands {
            let at = |x: f32, z: f32, y: f32| {
                let k = if y == TOP { NARROW } else { 1.0 };
                Vec3::new(x * k, y, z * k)
            };
            let (u0, u1) = if lo == BOTTOM { (0.0, 0.0) } else { (0.0, 2.0) };
            let quad = [
                (point(&mut mesh, at(x0, z0, lo)), Vec2::new(u0, v_lo)),
                (point(&mut mesh, at(x0, z0, hi)), Vec2::new(u0, v_hi)),
                (point(&mut mesh, at(x1, z1, lo)), Vec2::new(u1, v_lo)),
                (point(&mut mesh, at(x1, z1, hi)), Vec2::new(u1, v_hi)),
            ];
            for k in [0, 1, 2, 3, 2, 1] {
                let (p, uv) = quad[k];
                mesh.corners.push(Corner::new(p, uv));
            }
        }
    }
    let cap: Vec<u32> = corners
        .iter()
        .map(|&(x, z)| point(&mut mesh, Vec3::new(x, BOTTOM, z)))
        .collect();
    for k in [3, 0, 1, 1, 2, 3] {
        mesh.corners.push(Corner::new(cap[k], Vec2::new(0.0, 0.99)));
    }
    mesh.submeshes.push(Submesh {
        first_triangle: 0,
        triangle_count: (mesh.corners.len() / 3) as u32,
        material: 0,
    });
    mesh
}
