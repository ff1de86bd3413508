//! `vitrine render MAP -o preview.png`: a Warzone 2100 map drawn in 3D — the terrain with
//! its tile images, the water and every object the game places
//! ([`vitrine_core::map::scene`]) — framed whole, in an isometric view by default or
//! `--view top` (both orthographic, as a map preview is), or with `--view game` as the
//! game draws the level's start in a window of `--size` (its camera over player 0's HQ or
//! start position, in perspective: [`vitrine_core::map::scene::GameView`]), lit by the
//! game's sun unless `--light-dir` says otherwise.
//!
//! MAP is taken as `vitrine info` takes it (a package, a map folder, a `game.map`,
//! `mp.wz!/multiplay/maps/4c-rush`, or an archive with `--level`). With `--all-maps`, every
//! map of a package, folder or archive is drawn into the output folder as `LEVEL.png`,
//! in one process (one renderer unless `--renderers` asks for more): the figure "maps per
//! second" of docs/maps.md.

use super::map_info::roots_for;
use super::render::{RenderArgs, render_model, render_model_shared, write_png_atomic};
use crate::files::FileRef;
use crate::model::{Details, Model, Pose};
use crate::render::{Gpu, RenderTarget, SceneRenderer, ViewPreset, ViewSettings};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;
use vitrine_core::map::{self, scene::Layer, scene::SceneOptions};
use vitrine_core::wz::Stats;

/// Whether `args` ask for a map: `--all-maps`, or an input that is one.
pub fn requested(args: &RenderArgs) -> bool {
    let Some(input) = &args.input else {
        return false;
    };
    args.all_maps
        || super::map_info::is_map_input(&crate::files::parse(input), args.level.as_deref())
}

/// The view of a map: the options' view, orthographic, with the objects' shadows unless
/// `--shadows off`, and the game's sun fixed to the map where no light direction was
/// asked for; in the Game view with the fog off, what
/// the game shows past the map's edge behind it ([`map::scene::game_view::GAME_PAST_EDGE`])
/// unless `--background` says otherwise.
fn map_view(args: &RenderArgs) -> ViewSettings {
    let mut view = args.view_settings();
    view.shadows = args.shadows.unwrap_or(true);
    if args.view == ViewPreset::Game && !args.fog && args.background.is_none() {
        let [r, g, b] = map::scene::game_view::GAME_PAST_EDGE;
        view.background = [r, g, b, view.background[3]];
    }
    view.camera.orthographic = matches!(args.view, ViewPreset::Top | ViewPreset::Iso);
    if args.light.light_dir.is_none() && !args.light.light_fixed {
        view.lighting.azimuth_deg = map::scene::SUN_AZIMUTH_DEG;
        view.lighting.elevation_deg = map::scene::SUN_ELEVATION_DEG;
        view.lighting.follows_camera = false;
    }
    view
}

/// The stats and data roots a map's models come from, read once per batch.
struct Data {
    roots: Vec<FileRef>,
    stats: Stats,
    terrain: map::scene::TerrainMode,
    /// The seed script-generated maps run with (`None`: the default).
    seed: Option<u32>,
}

impl Data {
    fn for_input(file: &FileRef, args: &RenderArgs) -> Data {
        let roots = roots_for(file, &args.load.data);
        let (stats, _warnings) = Stats::load(crate::files::disk(), &roots);
        Data {
            roots,
            stats,
            terrain: args.load.terrain,
            seed: args.seed,
        }
    }

    /// The scene of `level` (its problems are the model's diagnostics).
    fn scene(&self, level: &map::MapSource, objects: bool) -> Result<Model, String> {
        let files = crate::files::disk();
        let mut level = level.clone();
        level.ask_seed(self.seed);
        let m = map::open(files, &level).map_err(|e| e.to_string())?;
        let placed = map::place(&m, &self.stats, files, &self.roots);
        let options = SceneOptions {
            objects,
            terrain: self.terrain,
        };
        Ok(map::scene::scene(
            &m,
            &placed,
            &self.stats,
            files,
            &self.roots,
            &options,
        ))
    }
}

/// The map `args` name, read and placed over its data roots as [`run`] draws it (its
/// layers shown as `--layers` says), its level's name, and the view it is drawn with (the
/// game's sun):
/// what an animation of a map (`--turntable`) draws in every frame.
pub fn map_model(args: &RenderArgs) -> Result<(String, Model, ViewSettings), String> {
    let input = crate::files::parse(&args.input.clone().unwrap_or_default());
    let layers = parse_layers(args.layers.as_deref()).map_err(|e| format!("--layers: {e}"))?;
    let data = Data::for_input(&input, args);
    let (level, model) = open_scene(args, &input, &data, &layers)?;
    Ok((level.name, model, map_view(args)))
}

/// The level `args` name in `input`, and its scene over `data` with `layers` shown.
fn open_scene(
    args: &RenderArgs,
    input: &crate::files::FileRef,
    data: &Data,
    layers: &[Layer],
) -> Result<(map::MapSource, Model), String> {
    let level = map::open_source(crate::files::disk(), input, args.level.as_deref())
        .map_err(|e| e.to_string())?;
    let mut model = super::catch_per_file(&level.folder, || data.scene(&level, !args.no_objects))?;
    show_layers(&mut model, layers);
    Ok((level, model))
}

/// Runs `vitrine render` on a map (or, with `--all-maps`, every map of the input);
/// returns the exit code.
pub fn run(args: &RenderArgs) -> i32 {
    let input_path = args.input.clone().unwrap_or_default();
    let input = crate::files::parse(&input_path);
    let gpu = match Gpu::headless() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("vitrine render: {e}");
            return super::exit::NO_GPU;
        }
    };
    let view = map_view(args);
    let layers = match parse_layers(args.layers.as_deref()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("vitrine render: --layers: {e}");
            return super::exit::USAGE;
        }
    };
    let data = Data::for_input(&input, args);
    // A package of several maps, or a folder of packages, is a gallery of maps: each
    // drawn into the output folder, as a folder of models is (`--level` picks one).
    let several = || {
        args.level.is_none()
            && map::survey(crate::files::disk(), &input).is_ok_and(|s| s.maps.len() > 1)
    };
    if args.all_maps || several() {
        return render_all(args, &gpu, &input, data, layers, view);
    }
    let mut scene =
        SceneRenderer::with_samples(&gpu.device, &gpu.queue, args.msaa, crate::files::disk());
    let (w, h) = args.size;
    let target = RenderTarget::with_samples(&gpu.device, w, h, args.msaa);
    let result = open_scene(args, &input, &data, &layers).and_then(|(level, model)| {
        // Shared with the renderer, not copied: a map's nodes are hundreds of MB.
        let model = std::sync::Arc::new(model);
        super::catch_per_file(&level.folder, || {
            for d in &model.diagnostics {
                eprintln!("warning: {}", d.display_with(&level.name));
            }
            if let (ViewPreset::Game, Details::Map(map)) = (args.view, &model.details) {
                let games = game_views(map, (w, h), &args.camera);
                let size = (w, h, args.msaa);
                let pictures = render_game_views(&gpu, &mut scene, size, &model, &view, &games)?;
                return write_game_views(&args.output, &pictures);
            }
            let img = render_model_shared(&gpu, &mut scene, &target, &model, &view)?;
            write_png_atomic(&args.output, &img)
        })
    });
    match result {
        Ok(()) => super::exit::OK,
        Err(e) => {
            eprintln!("vitrine render: {e}");
            super::exit::FAILED
        }
    }
}

/// The game's cameras `--camera` asks for in a window of `size` (none: the start).
fn game_views(
    map: &map::scene::MapDetails,
    (w, h): (u32, u32),
    cameras: &[super::render::CameraArg],
) -> Vec<map::scene::GameView> {
    use super::render::CameraArg;
    if cameras.is_empty() {
        return vec![map.game_view(w, h)];
    }
    cameras
        .iter()
        .map(|c| match c {
            CameraArg::Start => map.game_view(w, h),
            CameraArg::At(camera) => map.game_view_at(w, h, camera),
        })
        .collect()
}

/// Writes `pictures` to `output`, or, for several, each where `{}` is its place (1, …).
fn write_game_views(output: &std::path::Path, pictures: &[image::RgbaImage]) -> Result<(), String> {
    if let [one] = pictures {
        return write_png_atomic(output, one);
    }
    let pattern = output.to_string_lossy();
    for (i, img) in pictures.iter().enumerate() {
        let path = std::path::PathBuf::from(pattern.replace("{}", &(i + 1).to_string()));
        write_png_atomic(&path, img)?;
    }
    Ok(())
}

/// `model` (a map's scene) drawn as the game draws it in a window of `width` × `height`
/// from each of `games` ([`map::scene::GameView`]: its eye, focal length and the pivot
/// drawn `game.pivot_px` from the top): a perspective picture tall enough to have the
/// pivot in its middle, cut to the window. What `--view game` draws of one map. The near
/// and far planes are the whole map's. The scene is uploaded once for all of them.
fn render_game_views(
    gpu: &Gpu,
    scene: &mut SceneRenderer,
    (width, height, samples): (u32, u32, u32),
    model: &std::sync::Arc<Model>,
    view: &ViewSettings,
    games: &[map::scene::GameView],
) -> Result<Vec<image::RgbaImage>, String> {
    let pose = Pose::sample(model, None, 0.0, view.team);
    let mut view = view.clone();
    view.grid_unit = model.grid_unit;
    let points = crate::render::framing_points(model, None, &pose, &view);
    scene.decode_pages_of(model);
    scene.set_model_shared(&gpu.device, &gpu.queue, model.clone());
    let mut pictures = Vec::with_capacity(games.len());
    for game in games {
        let row = game.pivot_px.1;
        let half = row.max(height as f32 - row);
        let tall = ((2.0 * half).round() as u32).max(1);
        let top = (half - row).round() as u32;
        let target = RenderTarget::with_samples(&gpu.device, width, tall, samples);
        let mut view = view.clone();
        view.camera
            .frame_points(&points, width as f32 / tall as f32);
        view.camera.set_game_start(game.pivot);
        view.camera.distance = game.distance;
        view.shadow_reach = Some(game.shadow_reach);
        view.camera.fov_y = 2.0 * (half / game.focal_px).atan();
        scene.render(&gpu.device, &gpu.queue, &target, &pose, &view);
        let img = target
            .read_rgba(&gpu.device, &gpu.queue)
            .map_err(|e| e.to_string())?;
        let img = image::imageops::crop_imm(&img, 0, top, width, height.min(tall - top));
        pictures.push(img.to_image());
    }
    Ok(pictures)
}

/// `--all-maps`: every map of the input into the output folder, through the batch
/// pipeline the model thumbnails use ([`crate::render::batch`]): each map read, placed and
/// made a scene (its models and pages decoded) on one prepare thread per core, drawn on
/// one device (`--renderers`: more), the PNGs encoded and written here.
fn render_all(
    args: &RenderArgs,
    gpu: &Gpu,
    input: &FileRef,
    data: Data,
    layers: Vec<Layer>,
    view: ViewSettings,
) -> i32 {
    use crate::render::batch::{self, BatchDevice, Job, Loaded, Step};
    let levels = match map::survey(crate::files::disk(), input) {
        Ok(s) if !s.maps.is_empty() => {
            for p in &s.problems {
                eprintln!("warning: {p}");
            }
            s.maps
        }
        Ok(_) | Err(_) => {
            let e = map::find_maps(crate::files::disk(), input)
                .err()
                .map_or_else(|| "no map here".to_string(), |e| e.to_string());
            eprintln!("vitrine render: {e}");
            return super::exit::FAILED;
        }
    };
    let start = Instant::now();
    // A job is its map's folder; each map is once in `levels` (a map under several
    // levels is one map, [`map::survey`]).
    let mut first: HashMap<FileRef, usize> = HashMap::new();
    for (i, l) in levels.iter().enumerate() {
        first.entry(l.folder.clone()).or_insert(i);
    }
    let names = unique_names(&levels);
    let shared = Arc::new((data, levels, first, layers));
    let objects = !args.no_objects;
    let run = batch::start(
        BatchDevice::Shared(gpu.device.clone(), gpu.queue.clone()),
        map_batch_options(args, view),
        || {
            let shared = shared.clone();
            move |folder: &FileRef| {
                let (data, levels, first, layers) = &*shared;
                let level = &levels[*first.get(folder).ok_or("no such level")?];
                let mut model = data.scene(level, objects)?;
                show_layers(&mut model, layers);
                Ok(Step::Draw(Box::new(Loaded {
                    model,
                    at: None,
                    camera: None,
                })))
            }
        },
    );
    let levels = &shared.1;
    run.queue.push(levels.iter().enumerate().map(|(i, l)| Job {
        id: i as u64,
        file: l.folder.clone(),
    }));
    run.queue.close();
    let mut failures = Vec::new();
    for done in run.results.iter() {
        let level = &levels[done.id as usize];
        let out = args.output.join(&names[done.id as usize]);
        for w in &done.warnings {
            eprintln!("warning: {}: {w}", level.name);
        }
        if let Err(e) = done.image.and_then(|img| write_png_atomic(&out, &img)) {
            failures.push((level.name.clone(), e));
        }
    }
    super::map_batch_summary(
        "rendered",
        failures.len(),
        levels.len(),
        &args.output,
        start,
    );
    super::report_failures(&failures)
}

/// The batch's options for maps: as for models, but at most [`MAP_RENDERERS`] renderers
/// unless `--renderers` asks for more.
fn map_batch_options(args: &RenderArgs, view: ViewSettings) -> crate::render::batch::BatchOptions {
    let mut o = args.batch_options(view);
    if args.renderers.is_none() {
        o.renderers = o.renderers.min(MAP_RENDERERS);
    }
    o
}

/// Renderers `--all-maps` uses by default at most. Each draws a whole map at once, and a
/// large one at 1024² holds about 1 GB while it is drawn (its meshes, wgpu's and lavapipe's
/// copies of them): 2.5 GB peak with one renderer, 3.9 GB with two, which were not faster
/// on the 2-core machine (more page faults; docs/performance.md). `--renderers` for more.
const MAP_RENDERERS: usize = 1;

/// The picture of the first map `input` holds (a package of one map: that map), drawn as
/// `vitrine render MAP` draws it by default (isometric, orthographic, the game's sun,
/// the layers a map opens with, every object) in `size` × `size` pixels with one sample
/// and a transparent background: the file managers' thumbnail of a map package. Its
/// models and tiles come from the Warzone 2100 installation found on this machine.
pub fn thumbnail(
    gpu: &Gpu,
    scene: &mut SceneRenderer,
    target: &RenderTarget,
    input: &FileRef,
) -> Result<image::RgbaImage, String> {
    let files = crate::files::disk();
    let level = map::find_maps(files, input)
        .map_err(|e| e.to_string())?
        .into_iter()
        .next()
        .ok_or_else(|| format!("{input}: no map in it"))?;
    let roots = roots_for(input, &[]);
    let (stats, _warnings) = Stats::load(files, &roots);
    let data = Data {
        roots,
        stats,
        terrain: Default::default(),
        seed: None,
    };
    let mut model = super::catch_per_file(&level.folder, || data.scene(&level, true))?;
    show_layers(&mut model, &parse_layers(None)?);
    let mut view = ViewSettings::default();
    view.background[3] = 0;
    view.camera.set_preset(ViewPreset::Iso);
    view.camera.orthographic = true;
    view.lighting.azimuth_deg = map::scene::SUN_AZIMUTH_DEG;
    view.lighting.elevation_deg = map::scene::SUN_ELEVATION_DEG;
    view.lighting.follows_camera = false;
    render_model(gpu, scene, target, &model, &view, None)
}

/// The layers `--layers` names (`all`: every one), else those a map opens with.
fn parse_layers(list: Option<&str>) -> Result<Vec<Layer>, String> {
    let Some(list) = list else {
        return Ok(Layer::ALL
            .into_iter()
            .filter(|l| l.shown_at_first())
            .collect());
    };
    let mut out = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if part.eq_ignore_ascii_case("all") {
            out.extend(Layer::ALL);
            continue;
        }
        out.push(Layer::parse(part).ok_or_else(|| {
            let names: Vec<String> = Layer::ALL
                .iter()
                .map(|l| l.name().to_lowercase().replace(' ', "-"))
                .collect();
            format!("{part}: expected all or one of {}", names.join(", "))
        })?);
    }
    Ok(out)
}

/// Shows the layers of `model`'s map in `shown` and hides the others (the nodes'
/// [`Node::hidden`](vitrine_core::model::Node::hidden), which a picture drawn without a
/// node mask follows).
fn show_layers(model: &mut Model, shown: &[Layer]) {
    let vitrine_core::model::Details::Map(map) = &model.details else {
        return;
    };
    let layers = map.layers.clone();
    for (layer, nodes) in layers {
        for n in nodes {
            model.nodes[n].hidden = !shown.contains(&layer);
        }
    }
}

/// The PNG name of each map: its name made safe and unique
/// ([`crate::files::names::UniqueNames`]: a name two maps make, `a/b` and `a_b`, gets
/// `-2` after the first, any case); each suffix given is noted on standard error.
fn unique_names(levels: &[map::Level]) -> Vec<String> {
    let mut names = crate::files::names::UniqueNames::new();
    levels
        .iter()
        .map(|l| {
            let named = names.take(&l.name, "png", "map");
            if let Some(note) = &named.note {
                eprintln!("note: map {note}");
            }
            named.file
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_parse_by_name_and_default_to_what_a_map_opens_with() {
        let default = parse_layers(None).unwrap();
        assert!(default.contains(&Layer::StartPositions) && default.contains(&Layer::Terrain));
        assert!(!default.contains(&Layer::Grid) && !default.contains(&Layer::Gateways));
        assert_eq!(
            parse_layers(Some("terrain, Start-Positions,grid")).unwrap(),
            vec![Layer::Terrain, Layer::StartPositions, Layer::Grid]
        );
        assert_eq!(parse_layers(Some("all")).unwrap().len(), Layer::ALL.len());
        let e = parse_layers(Some("terrain,roads")).unwrap_err();
        assert!(
            e.starts_with("roads: expected all or one of") && e.contains("start-positions"),
            "{e}"
        );
    }

    #[test]
    fn maps_of_one_name_in_a_collection_get_a_picture_each() {
        let level = |name: &str| map::Level {
            name: name.into(),
            players: None,
            tileset: Default::default(),
            tileset_from: String::new(),
            tileset_unknown: None,
            folder: FileRef::Disk(name.into()),
            gam: None,
            defined_in: None,
            shape: map::Shape::Folder,
            seed: 0,
            levels: Default::default(),
        };
        let names = unique_names(&[level("Rush"), level("rush"), level("Rush"), level("a/b")]);
        assert_eq!(names, ["Rush.png", "rush-2.png", "Rush-3.png", "a_b.png"]);
    }
}
