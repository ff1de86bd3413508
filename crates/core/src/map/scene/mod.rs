//! A map as a scene: the terrain, the water and every placed object as one format-neutral
//! [`Model`], which the renderer draws like any other (it never learns it is a map).
//!
//! What is drawn, and how it follows the game (notes §5–6):
//! - the terrain mesh the game builds ([`terrain::terrain_mesh`]): corner heights after
//!   loading (structures' flattening, the riverbed dug under water), the zero border
//!   ring, four triangles per tile around its centre;
//! - its ground ([`TerrainMode::Blended`], the default) as 4.3 draws it: the tileset's
//!   ground textures blended by each corner's ground type ([`ground`], [`blend`]), the
//!   decal tiles' images over them;
//! - or ([`TerrainMode::Classic`], and where the data has no ground textures) each
//!   tile's classic image of the level's tileset
//!   (`texpages/tertilesc{1,2,3}hw-128/tile-NN.png`) with the texture word's flips and
//!   quarter turns, one material per tile number (the images stay the data roots' own
//!   files, so the renderer reads and caches them as it does any texture page, and no
//!   atlas has to be made: a map uses at most a few dozen tile numbers, one draw each),
//!   decal tiles (cut-outs in 4.x) blended over the plain tile of their ground
//!   ([`decals`]);
//! - the terrain's light as the game bakes it ([`illumination`]): one grey per tile
//!   corner from the ground's normals, the sun and an ambient occlusion, dark along the
//!   map's edges, multiplied into the ground and the decals in place of the renderer's
//!   light ([`crate::model::Mesh::point_light`]); the objects drawn as the game draws
//!   its classic models, without the sun, at the brightness it gives each kind
//!   ([`illumination::object_brightness`], [`crate::model::Node::light`]);
//! - water at the water level as 4.3 draws it ([`atmosphere`]): `page-80-water-1.png`
//!   scrolling, times the red of `page-81-water-2.png`, multiplying the riverbed;
//! - the fog and the tileset's sky ([`Model::environment`], [`atmosphere`]), which the
//!   renderer applies to every mesh and draws behind them when the view asks for them;
//! - every object the placement keeps, at its x, y, z and direction, a player's in its
//!   team colour (`objects.rs`);
//! - the shadows the game casts of them along its sun ([`Model::environment`]'s
//!   `shadows`, [`illumination::shadows`]; the casters marked
//!   [`crate::model::Node::casts_shadow`], [`illumination::casts_shadow`]), which the
//!   renderer draws as the game does, by stencil shadow volumes, when the view asks.
//!
//! Without the game's data, the ground is one colour lit by the sun (the heights show
//! in the shading), objects are boxes of their footprint, and a warning says which data
//! to add.
//!
//! Not drawn yet: the colours of a game's lobby (a player's objects wear colour N,
//! `Node::team`), the lightmap's coloured lights (explosions, fires), the darkness of
//! unexplored tiles, weather.

pub mod atmosphere;
pub mod blend;
pub mod decals;
mod details;
pub mod game_view;
pub mod ground;
mod guides;
pub mod illumination;
mod load;
mod objects;
pub mod terrain;

#[cfg(test)]
mod atmosphere_tests;
#[cfg(test)]
mod camera_tests;
#[cfg(test)]
mod tests;

use super::{Map, ObjectKind, Placement, Tileset};
use crate::files::{FileRef, Files, Lookup};
use crate::model::{
    BlendMode, FileAxes, Format, Location, Material, Model, Node, NodeKind, TextureRef, TextureRole,
};
use crate::wz::{PartFinder, Stats};
use decals::Decals;
pub use details::{Counts, Layer, MapDetails, RemovedObject, SceneObject, file_label};
pub use game_view::{GameCamera, GameView};
pub use load::{Opened, load, open_placed};
use std::collections::BTreeMap;

/// The azimuth of the game's default sun (`init3DView`: (225, −600, 450) in the game's
/// render space) as `Lighting` measures it with the light fixed to the model: from the
/// map's south, turned towards its west.
pub const SUN_AZIMUTH_DEG: f32 = 26.565;
/// The sun's elevation above the ground, degrees.
pub const SUN_ELEVATION_DEG: f32 = 50.03;

/// How the terrain is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainMode {
    /// As Warzone 2100 4.3 draws it (the default): the tileset's ground textures blended
    /// by the ground type of each corner, the decal tiles' images over them ([`blend`]).
    /// Without the ground tables or textures (data older than 4.1, or none) the scene
    /// falls back to [`TerrainMode::Classic`] with a note.
    #[default]
    Blended,
    /// The classic tile images only: every tile its 128-pixel image, decals on the plain
    /// tile of their ground ([`decals`]); what the game's pixel-art look is made of.
    Classic,
}

impl TerrainMode {
    /// The name `--terrain` takes and the panel shows.
    pub fn name(self) -> &'static str {
        match self {
            TerrainMode::Blended => "blended",
            TerrainMode::Classic => "classic",
        }
    }
}

/// What to put in the scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneOptions {
    /// Draw the placed objects (else the terrain and water only).
    pub objects: bool,
    /// How the terrain is drawn.
    pub terrain: TerrainMode,
}

impl Default for SceneOptions {
    fn default() -> Self {
        SceneOptions {
            objects: true,
            terrain: TerrainMode::default(),
        }
    }
}

/// The colour of the ground without tile images (linear): a dry earth, so the sun's
/// shading of the heights reads.
const BARE_GROUND: [f32; 4] = [0.45, 0.36, 0.24, 1.0];

/// The scene of `map` as `placement` placed it. `stats`, `files` and `roots` give the
/// tile images, the water page and the objects' models; with none of them the scene is
/// still whole (see the module's documentation). Problems are the model's warnings.
/// Where its reads (the objects' models, the ground's tables) ask for bytes that have
/// not arrived (`files.wanting()` after: a remote archive read a piece at a time), the
/// scene is returned unfinished, to be built again once they are in.
pub fn scene(
    map: &Map,
    placement: &Placement,
    stats: &Stats,
    files: &Files,
    roots: &[FileRef],
    options: &SceneOptions,
) -> Model {
    let mut model = Model::new(Format::Pie, "map");
    model.axes = FileAxes::y_up_left_handed();
    model.grid_unit = Some(super::TILE_UNITS as f32);
    let data = ObjectData {
        stats,
        files,
        roots,
        tileset: map.level.tileset,
    };
    // What the scene reads is read first, side by side — the ground's tables, the fog's
    // palette, the objects' models: where a read asks for bytes that have not arrived
    // (a remote archive read a piece at a time, `files.wanting()`), the scene stops
    // there, before the ground's work, and is built again once they are in.
    let mut lookup = Lookup::new(files);
    let tables = Tables::read(&mut lookup, roots, map.level.tileset, options.terrain);
    let mut models = options.objects.then(|| object_models(placement, &data));
    if files.wanting() {
        return model;
    }
    let mut layers = Layers::default();
    let ground = ground(map, placement);
    let drawn = add_terrain(
        &mut model,
        map,
        &ground,
        (&mut lookup, roots, &tables),
        &mut layers,
        options.terrain,
    );
    if files.wanting() {
        return model;
    }
    finish_ground(&mut model, map, placement, &ground, &layers);
    atmosphere::add_water(&mut model, map, placement, &mut lookup, roots, &mut layers);
    model.environment = atmosphere::environment(
        &mut model,
        map.level.tileset,
        tables.fog,
        &mut lookup,
        roots,
    );
    let mut objects = Vec::new();
    if let Some(models) = models.as_mut() {
        objects = add_objects(&mut model, placement, models, &mut layers);
    }
    let start_positions = super::start_positions(placement, stats);
    guides::add_guides(
        &mut model,
        map,
        placement,
        &ground,
        &start_positions,
        &mut layers,
    );
    details::facts(&mut model, map, placement);
    model.property(
        "Terrain",
        match drawn {
            TerrainMode::Blended => "blended ground textures (as 4.3)",
            TerrainMode::Classic => "classic tiles",
        },
    );
    model.details = crate::model::Details::Map(Box::new(MapDetails {
        name: map.level.name.clone(),
        size: (placement.terrain.width, placement.terrain.height),
        tileset: map.level.tileset.name().to_string(),
        players: map.level.players,
        shape: map.level.shape,
        files: map.files.clone(),
        objects,
        removed: placement
            .removed
            .iter()
            .filter_map(|r| {
                let o = map.objects.get(r.index)?;
                Some(RemovedObject {
                    index: r.index,
                    x: o.x,
                    y: o.y,
                })
            })
            .collect(),
        start_positions,
        layers: layers.0,
        seed: (map.level.shape == super::Shape::Script).then_some(map.level.seed),
        terrain: placement.terrain.clone(),
    }));
    model
}

/// The nodes of each layer, as the scene is built.
#[derive(Default)]
pub(super) struct Layers(Vec<(Layer, Vec<usize>)>);

impl Layers {
    pub(super) fn push(&mut self, layer: Layer, node: usize) {
        match self.0.iter_mut().find(|(l, _)| *l == layer) {
            Some((_, nodes)) => nodes.push(node),
            None => self.0.push((layer, vec![node])),
        }
    }
}

/// The data file at `path` (components matched in any case) in the first root that has it.
fn find(lookup: &mut Lookup, roots: &[FileRef], path: &[&str]) -> Option<FileRef> {
    roots.iter().find_map(|r| lookup.walk(r, path))
}

/// The ground as the game draws it: the placement's terrain with the water corners
/// lowered to the riverbed.
fn ground(map: &Map, placement: &Placement) -> super::Terrain {
    let mut ground = placement.terrain.clone();
    let dug = super::riverbed::riverbed(&map.terrain, &map.terrain_types);
    for y in 0..ground.height as i32 {
        for x in 0..ground.width as i32 {
            if super::riverbed::is_water_corner(&ground, &map.terrain_types, x, y) {
                let i = x as usize + y as usize * ground.width as usize;
                ground.set_corner(x, y, dug[i]);
            }
        }
    }
    ground
}

/// Makes the ground's meshes (the terrain and decal layers, each laid on the terrain
/// grid's points) what the game draws: lit by the light it bakes ([`illumination`]), and
/// drawn whole, in order, before anything that stands on them
/// ([`crate::model::Mesh::surface_layer`]: the game draws its terrain before its objects,
/// so a structure's base plate at the ground's height shows over it).
fn finish_ground(
    model: &mut Model,
    map: &Map,
    placement: &Placement,
    ground: &super::Terrain,
    layers: &Layers,
) {
    let light = illumination::ground_light(map, placement, ground);
    for (layer, nodes) in &layers.0 {
        if !matches!(layer, Layer::Terrain | Layer::Decals) {
            continue;
        }
        for &n in nodes {
            if let Some(mesh) = model.nodes[n].mesh.and_then(|m| model.meshes.get_mut(m)) {
                mesh.surface_layer = true;
                if mesh.points.len() == light.len() {
                    mesh.point_light = light.clone();
                }
            }
        }
    }
}

/// The small data files the scene draws with, each read once, before anything is built
/// (a remote archive fetches them side by side with the objects' models): the blended
/// ground's table (when that ground is asked for), the decal tiles, the fog's palette
/// colour.
struct Tables {
    /// [`ground::read`]'s table, or why there is none; `None` for the classic tiles.
    ground: Option<Result<ground::GroundTable, String>>,
    /// [`decals::read`]'s decal tiles (none where the data has no table).
    decals: Decals,
    /// The fog colour of the data's palette, if it has one.
    fog: Option<[u8; 3]>,
}

impl Tables {
    fn read(lookup: &mut Lookup, roots: &[FileRef], tileset: Tileset, mode: TerrainMode) -> Tables {
        let files = lookup.files().clone();
        Tables {
            ground: (mode == TerrainMode::Blended)
                .then(|| ground::read(&files, lookup, roots, tileset)),
            decals: decals::read(&files, lookup, roots, tileset).unwrap_or_default(),
            fog: atmosphere::palette_fog(lookup, roots),
        }
    }
}

/// Where the terrain's files are found: the look-up, the data roots, the tables read.
type TerrainData<'a, 'b> = (&'a mut Lookup, &'a [FileRef], &'b Tables);

/// The terrain as `mode` asks, falling back to the classic tiles (with a note) where
/// the blended ground's tables or textures are missing; returns how it was drawn.
fn add_terrain(
    model: &mut Model,
    map: &Map,
    ground: &super::Terrain,
    (lookup, roots, tables): TerrainData<'_, '_>,
    layers: &mut Layers,
    mode: TerrainMode,
) -> TerrainMode {
    if mode == TerrainMode::Blended
        && let Some(table) = &tables.ground
    {
        let blended = match table {
            Ok(table) => add_blended(model, map, ground, (lookup, roots, tables), table, layers),
            Err(why) => Err(why.clone()),
        };
        match blended {
            Ok(()) => return TerrainMode::Blended,
            Err(why) if !roots.is_empty() => model.warn(
                Location::File,
                format!(
                    "the ground is drawn with the classic tile images (no blended ground: \
                     {why}; Warzone 2100 4.1 or later has it)"
                ),
            ),
            Err(_) => {}
        }
    }
    add_classic(model, map, ground, (lookup, roots, tables), layers);
    TerrainMode::Classic
}

/// The blended ground ([`blend`]): the depth pre-pass, one additive layer per ground type
/// with the tileset's ground texture, then the decal tiles' images over them
/// (layer [`Layer::Decals`]).
///
/// # Errors
/// The tileset table or ground texture that is missing; nothing is added then.
fn add_blended(
    model: &mut Model,
    map: &Map,
    ground: &super::Terrain,
    (lookup, roots, tables): TerrainData<'_, '_>,
    table: &ground::GroundTable,
    layers: &mut Layers,
) -> Result<(), String> {
    let grounds = ground::corner_grounds(ground, &map.terrain_types, table);
    // The textures of the grounds the map has (a published map carries no others).
    let mut textures = Vec::with_capacity(table.grounds.len());
    for (i, g) in table.grounds.iter().enumerate() {
        if !grounds.iter().any(|&c| usize::from(c) == i) {
            textures.push(None);
            continue;
        }
        let stem = g
            .texture
            .rsplit_once('.')
            .map_or(&g.texture[..], |(s, _)| s);
        let found = ["ktx2", "png"].iter().find_map(|ext| {
            let name = format!("{stem}.{ext}");
            find(lookup, roots, &["texpages", &name]).map(|f| (format!("texpages/{name}"), f))
        });
        let found = found.ok_or_else(|| format!("no texpages/{stem}.ktx2 (or .png)"))?;
        textures.push(Some(found));
    }
    if textures
        .iter()
        .flatten()
        .any(|(name, _)| name.ends_with(".ktx2"))
    {
        crate::engines::transcoder_wanted_soon();
    }
    let decals = &tables.decals;
    let points = terrain::grid_points(ground, 0.0);
    let normals = blend::grid_normals(ground, &points);
    if let Some(depth) = blend::depth_mesh(ground, &grounds, &normals) {
        let first = model.materials.len();
        let black = Material::new("ground depth", [0.0, 0.0, 0.0, 1.0]);
        model.materials.push(black);
        layers.push(
            Layer::Terrain,
            add_mesh(model, depth, first, "ground depth"),
        );
    }
    let sizes: Vec<f32> = table.grounds.iter().map(|g| g.size).collect();
    for (g, mesh) in blend::layer_meshes(ground, &points, &normals, &grounds, &sizes) {
        // A layer is only made for a ground some corner has, whose texture was found.
        let Some((path, file)) = textures[g].clone() else {
            continue;
        };
        let name = format!("ground {}", table.grounds[g].name);
        let first = model.materials.len();
        for blend in [BlendMode::Opaque, BlendMode::Additive] {
            let mut material = Material::new(name.clone(), [1.0; 4]);
            material.blend = blend;
            attach(model, &mut material, path.clone(), file.clone());
            model.materials.push(material);
        }
        layers.push(Layer::Terrain, add_mesh(model, mesh, first, &name));
    }
    let Some((mut decal_mesh, decal_tiles)) = terrain::decal_mesh(ground, decals) else {
        return Ok(());
    };
    // Lit as the ground under them (the whole terrain's normals, not the decals' own).
    for c in &mut decal_mesh.corners {
        c.normal = normals.get(c.point as usize).copied();
    }
    let folder = format!("tertilesc{}hw-128", map.level.tileset.slot() + 1);
    let first = model.materials.len();
    tile_materials(
        model,
        lookup,
        roots,
        &folder,
        &decal_tiles,
        &Decals::default(),
    );
    for m in &mut model.materials[first..] {
        if m.base.is_some() {
            m.blend = BlendMode::AlphaBlend;
        }
    }
    layers.push(Layer::Decals, add_mesh(model, decal_mesh, first, "decals"));
    Ok(())
}

/// The classic terrain: the tiles' mesh (its decal tiles a node of their own, layer
/// [`Layer::Decals`]) and the plain tiles under the decals.
fn add_classic(
    model: &mut Model,
    map: &Map,
    ground: &super::Terrain,
    (lookup, roots, tables): TerrainData<'_, '_>,
    layers: &mut Layers,
) {
    let tileset = map.level.tileset;
    let folder = format!("tertilesc{}hw-128", tileset.slot() + 1);
    let decals = &tables.decals;
    if let Some((mesh, tiles)) = terrain::under_decals_mesh(ground, decals) {
        let first = model.materials.len();
        tile_materials(model, lookup, roots, &folder, &tiles, &Decals::default());
        layers.push(Layer::Terrain, add_mesh(model, mesh, first, "under decals"));
    }
    let (mut mesh, tiles) = terrain::terrain_mesh(ground);
    let first = model.materials.len();
    let missing = tile_materials(model, lookup, roots, &folder, &tiles, decals);
    if missing.len() == tiles.len() {
        model.warn(
            Location::File,
            format!(
                "no tile images (texpages/{folder}/ of the game's base.wz): the ground is \
                 drawn in one colour, shaded by its heights; add the Warzone 2100 data \
                 (--data base.wz, or install the game)"
            ),
        );
    } else if !missing.is_empty() {
        let mut list: Vec<String> = missing
            .iter()
            .take(8)
            .map(|t| format!("tile-{t:02}"))
            .collect();
        if missing.len() > list.len() {
            list.push("…".into());
        }
        model.warn(
            Location::File,
            format!(
                "{} tile images missing in texpages/{folder}/ ({}): those tiles are drawn in \
                 one colour",
                missing.len(),
                list.join(", ")
            ),
        );
    }
    let decal_tiles = terrain::split_off(&mut mesh, "decals", |s| {
        tiles.get(s.material).is_some_and(|&t| decals.is_decal(t))
    });
    layers.push(Layer::Terrain, add_mesh(model, mesh, first, "terrain"));
    if let Some(mesh) = decal_tiles {
        layers.push(Layer::Decals, add_mesh(model, mesh, first, "decals"));
    }
}

/// One material per tile of `tiles` with its image from `folder` (decals blended over
/// what is under them); returns the tiles whose image is missing (drawn in one colour).
fn tile_materials(
    model: &mut Model,
    lookup: &mut Lookup,
    roots: &[FileRef],
    folder: &str,
    tiles: &[u16],
    decals: &Decals,
) -> Vec<u16> {
    let mut missing = Vec::new();
    for &tile in tiles {
        let name = format!("tile-{tile:02}.png");
        let mut material = Material::new(format!("{folder}/{name}"), [1.0; 4]);
        if decals.is_blended(tile) {
            material.blend = BlendMode::AlphaBlend;
        }
        match find(lookup, roots, &["texpages", folder, &name]) {
            Some(file) => attach(
                model,
                &mut material,
                format!("texpages/{folder}/{name}"),
                file,
            ),
            None => {
                material.base_color = BARE_GROUND;
                material.blend = BlendMode::Opaque;
                missing.push(tile);
            }
        }
        model.materials.push(material);
    }
    missing
}

/// Makes `file` (found at data path `path`) the base texture of `material`.
fn attach(model: &mut Model, material: &mut Material, path: String, file: FileRef) {
    let mut t = TextureRef::new(TextureRole::Base, path);
    t.resolved = Some(file);
    material.base = Some(model.textures.len());
    model.textures.push(t);
}

/// Adds `mesh` (its submeshes' materials counted from `first_material`) under a new top
/// node; returns the node.
fn add_mesh(
    model: &mut Model,
    mut mesh: crate::model::Mesh,
    first_material: usize,
    name: &str,
) -> usize {
    for s in &mut mesh.submeshes {
        s.material += first_material;
    }
    let mut node = Node::new(name, None, NodeKind::Part);
    node.mesh = Some(model.meshes.len());
    model.meshes.push(mesh);
    model.nodes.push(node);
    model.nodes.len() - 1
}

/// What the objects' models are found with.
struct ObjectData<'a> {
    stats: &'a Stats,
    files: &'a Files,
    roots: &'a [FileRef],
    tileset: Tileset,
}

/// The objects' models, each distinct one read and assembled (the reads the objects
/// make, before anything is built with them).
fn object_models<'a>(placement: &Placement, data: &ObjectData<'a>) -> objects::Objects<'a> {
    let ObjectData {
        stats,
        files,
        roots,
        tileset,
    } = *data;
    // Roots without any of the stats the objects need (a folder of something else) are
    // no game data.
    let has_stats = [
        stats.structures.source.is_some(),
        stats.features.source.is_some(),
        stats.templates.source.is_some(),
    ];
    let finder = (!roots.is_empty() && has_stats.contains(&true))
        .then(|| PartFinder::new(files, roots).with_tileset(tileset));
    let mut objects = objects::Objects::new(stats, finder);
    objects.prepare(&placement.objects);
    objects
}

/// Adds every placed object under the group node of its layer (`structures`,
/// `features`, `droids`); returns each with its node.
fn add_objects(
    model: &mut Model,
    placement: &Placement,
    objects: &mut objects::Objects<'_>,
    layers: &mut Layers,
) -> Vec<SceneObject> {
    let data = objects.has_data();
    // Why each object is a box, with how many times it is (warnings stay readable on a
    // map of a thousand trees).
    let mut boxed: BTreeMap<(ObjectKind, String, String), usize> = BTreeMap::new();
    let mut groups: BTreeMap<ObjectKind, usize> = BTreeMap::new();
    let mut placed = Vec::with_capacity(placement.objects.len());
    // Room for every object's nodes at once: a map at the game's limits has hundreds of
    // thousands, and a vector that doubles as it grows holds twice as many for a moment.
    let nodes = objects.nodes_needed(&placement.objects) + ObjectKind::ALL.len();
    model.nodes.reserve_exact(nodes);
    for p in &placement.objects {
        let kind = p.object.kind;
        let group = *groups.entry(kind).or_insert_with(|| {
            let layer = Layer::of_kind(kind);
            let name = layer.name().to_lowercase();
            let mut node = Node::new(name, None, NodeKind::Group);
            node.light = Some(illumination::object_brightness(kind));
            model.nodes.push(node);
            layers.push(layer, model.nodes.len() - 1);
            model.nodes.len() - 1
        });
        let (node, why) = objects.add(model, Some(group), p);
        placed.push(SceneObject::new(p, node));
        if let Some(why) = why {
            *boxed
                .entry((kind, p.object.stats_id.clone(), why))
                .or_default() += 1;
        }
    }
    if !data && !placement.objects.is_empty() {
        model.warn(
            Location::File,
            format!(
                "no Warzone 2100 data: the {} objects are drawn as boxes of their footprint; \
                 add the game's mp.wz and base.wz (--data) to draw their models",
                placement.objects.len()
            ),
        );
        return placed;
    }
    for note in std::mem::take(&mut objects.notes) {
        model.warn(Location::File, note);
    }
    for ((kind, id, why), n) in boxed {
        let times = if n > 1 {
            format!(" (×{n})")
        } else {
            String::new()
        };
        model.warn(
            Location::File,
            format!("{} {id}{times} drawn as a box: {why}", kind.name()),
        );
    }
    placed
}
