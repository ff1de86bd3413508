//! `vitrine maptools package genpreview [OPTIONS] INPUT OUTPUT.png`: a map's preview, with
//! the arguments of maptools' command of that name (`-i`/`--input`, `-o`/`--output`,
//! `-c`/`--playercolors simple|wz`, `--scavcolor HEX`, `--layers`, `--map-seed`), so the
//! map database's pipeline (`genpreview --playercolors=wz --map-seed=0 MAP OUT.png`) runs
//! Vitrine in maptools' place.
//!
//! - By default, Vitrine's **3D preview**: the map as the game draws it (terrain, decals,
//!   water, every object the game keeps), seen from the south looking `--pitch` degrees
//!   down, orthographic, framed **edge to edge** ([`crate::render::EdgeToEdge`]): the
//!   map's west and east edges are the picture's sides, its south edge the bottom, what
//!   stands highest the top; the rest is transparent. `--size` is the longer side.
//! - With `--2d`, maptools' **flat-colour picture** ([`vitrine_core::map::flat`]): one
//!   pixel per tile, the terrain coloured by type and height, structures in their
//!   player's colour, HQs magenta, oil yellow.
//!
//! What maptools has and a mode cannot honour is refused by name (exit 2): `--scavcolor`
//! in 3D (the scavengers are drawn with their own textures, which have no colour to
//! set), Vitrine's `--size` and `--pitch` in 2D (one pixel per tile, straight down), a
//! Vitrine layer name in 2D. Nothing is ignored.
//!
//! INPUT may also be a folder of map packages (the `.wz` files in it): OUTPUT is then a
//! folder, one `NAME.png` per package, drawn in one process through the thumbnails' batch
//! pipeline ([`crate::render::batch`]): what a database regenerating every preview runs.

use super::map_info::roots_for;
use super::render::write_png_atomic;
use crate::files::FileRef;
use crate::render::{EdgeToEdge, Gpu, RenderTarget, SceneRenderer, ViewSettings};
use clap::Args;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use vitrine_core::map::flat::{self, FlatOptions, PlayerColours};
use vitrine_core::map::scene::{Layer, MapDetails, SceneOptions, TerrainMode};
use vitrine_core::map::{self, ObjectKind, Owner};
use vitrine_core::model::{Details, Model, Pose};
use vitrine_core::wz::Stats;

/// `vitrine maptools package genpreview`.
#[derive(Debug, Args)]
pub struct GenpreviewArgs {
    /// The map package: a .wz, its extracted folder, or any map Vitrine opens; or a
    /// folder of .wz packages (OUTPUT is then a folder: one NAME.png each).
    #[arg(value_name = "INPUT", required_unless_present = "input_flag")]
    pub input: Option<PathBuf>,
    /// The PNG to write (.png), or the folder for a folder of packages.
    #[arg(value_name = "OUTPUT", required_unless_present = "output_flag")]
    pub output: Option<PathBuf>,
    /// The map package, as maptools' -i.
    #[arg(
        short = 'i',
        long = "input",
        value_name = "INPUT",
        conflicts_with = "input"
    )]
    pub input_flag: Option<PathBuf>,
    /// The PNG to write, as maptools' -o.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "OUTPUT",
        conflicts_with = "output"
    )]
    pub output_flag: Option<PathBuf>,
    /// Player colours: `simple` (one green for every player, the scavengers' colour for
    /// theirs) or `wz` (each player its own colour). Default: `simple` with --2d (as
    /// maptools), the game's team colours in 3D.
    #[arg(short = 'c', long = "playercolors", value_name = "simple|wz", value_parser = parse_colours)]
    pub playercolors: Option<PlayerColours>,
    /// The scavengers' colour in the 2D preview, #RRGGBB (default #800000, maroon);
    /// refused in 3D, where they wear their own textures.
    #[arg(long = "scavcolor", value_name = "HEX", value_parser = parse_hex)]
    pub scavcolor: Option<[u8; 3]>,
    /// What to draw: `all` (the default) or a comma-separated list of `terrain`
    /// (ground, decals, water), `structures`, `oil`; in 3D also Vitrine's layers
    /// (`features`, `droids`, `decals`, `water`, `start-positions`, `grid`, `footprints`,
    /// `gateways`). In 3D `all` is everything the game draws (trees and units too).
    #[arg(long, value_name = "LIST")]
    pub layers: Option<String>,
    /// The seed a script-generated map (game.js) runs with (default: std::mt19937's
    /// own, 5489; maptools draws a random one, the database passes 0).
    #[arg(long = "map-seed", value_name = "N")]
    pub map_seed: Option<u32>,
    /// maptools' flat-colour picture, one pixel per tile, instead of the 3D preview.
    #[arg(long = "2d")]
    pub flat: bool,
    /// 3D: the picture's longer side in pixels (the shorter follows the map) [default:
    /// 1024].
    #[arg(long, value_name = "PX")]
    pub size: Option<u32>,
    /// 3D: how far the camera looks down, degrees: 90 straight down (the map's plan), 60
    /// by default (the sides of cliffs and buildings show).
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    pub pitch: Option<f32>,
    /// The level to draw, in a package of several.
    #[arg(long, value_name = "NAME")]
    pub level: Option<String>,
    /// A data root the objects and textures come from (repeatable, first wins; default:
    /// the installed game's mp.wz and base.wz).
    #[arg(long = "data", value_name = "PATH")]
    pub data: Vec<PathBuf>,
}

/// The default longer side of a 3D preview, pixels.
pub const DEFAULT_SIZE: u32 = 1024;
/// The default pitch of a 3D preview, degrees.
pub const DEFAULT_PITCH: f32 = 60.0;

/// `--playercolors`' values (any case, as maptools takes them).
fn parse_colours(s: &str) -> Result<PlayerColours, String> {
    match s.to_ascii_lowercase().as_str() {
        "simple" => Ok(PlayerColours::Simple),
        "wz" => Ok(PlayerColours::Wz),
        _ => Err(format!("{s}: expected simple or wz")),
    }
}

/// `--scavcolor`: `#RRGGBB` or `RRGGBB`; `#RRGGBBAA` is taken, its alpha unused (the
/// picture is RGB, as maptools').
pub fn parse_hex(s: &str) -> Result<[u8; 3], String> {
    let hex = s.strip_prefix('#').unwrap_or(s);
    let bad = || format!("{s}: expected an RGB hex colour, e.g. #800000");
    if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}

/// What `--layers` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// Ground, decals and water (maptools' `terrain`).
    pub terrain: bool,
    /// Structures.
    pub structures: bool,
    /// Oil resources and drums.
    pub oil: bool,
    /// `all`: in 3D, everything the game draws.
    pub all: bool,
    /// Vitrine's own layers named (3D only).
    pub more: Vec<Layer>,
}

impl Wanted {
    const ALL: Wanted = Wanted {
        terrain: true,
        structures: true,
        oil: true,
        all: true,
        more: Vec::new(),
    };

    /// The layers a 3D preview shows.
    fn layers(&self) -> Vec<Layer> {
        let mut out = self.more.clone();
        if self.terrain {
            out.extend([Layer::Terrain, Layer::Decals, Layer::Water]);
        }
        if self.structures {
            out.push(Layer::Structures);
        }
        if self.all {
            out.extend([Layer::Features, Layer::Droids]);
        }
        out
    }
}

/// Parses `--layers` as maptools does (`all`, or a list of `terrain`, `structures`,
/// `oil`; empty parts skipped), plus Vitrine's layer names where `three_d`.
pub fn parse_layers(list: Option<&str>, three_d: bool) -> Result<Wanted, String> {
    let Some(list) = list.filter(|l| l.split(',').any(|p| !p.trim().is_empty())) else {
        return Ok(Wanted::ALL);
    };
    if list.trim() == "all" {
        return Ok(Wanted::ALL);
    }
    let mut w = Wanted {
        terrain: false,
        structures: false,
        oil: false,
        all: false,
        more: Vec::new(),
    };
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part {
            "terrain" => w.terrain = true,
            "structures" => w.structures = true,
            "oil" => w.oil = true,
            _ => match Layer::parse(part) {
                Some(layer) if three_d => w.more.push(layer),
                Some(_) => {
                    return Err(format!(
                        "{part}: the 2D preview draws terrain, structures and oil only \
                         (Vitrine's other layers are drawn in 3D, without --2d)"
                    ));
                }
                None => {
                    return Err(format!(
                        "{part}: expected all or a list of terrain, structures, oil{}",
                        if three_d {
                            ", or one of Vitrine's layers (features, droids, decals, water, \
                             start-positions, grid, footprints, gateways)"
                        } else {
                            ""
                        }
                    ));
                }
            },
        }
    }
    Ok(w)
}

/// The command line's inputs, checked: what a mode cannot honour refused by name.
struct Request {
    input: PathBuf,
    output: PathBuf,
    wanted: Wanted,
}

fn request(args: &GenpreviewArgs) -> Result<Request, String> {
    let input = args.input_flag.clone().or_else(|| args.input.clone());
    let output = args.output_flag.clone().or_else(|| args.output.clone());
    let (Some(input), Some(output)) = (input, output) else {
        return Err("INPUT and OUTPUT are needed".into());
    };
    if args.flat {
        if args.size.is_some() {
            return Err("--size: the 2D preview is one pixel per tile (maptools'); \
                        --size sets the 3D preview's"
                .into());
        }
        if args.pitch.is_some() {
            return Err(
                "--pitch: the 2D preview is seen straight down; --pitch tilts the \
                        3D preview"
                    .into(),
            );
        }
    } else if args.scavcolor.is_some() {
        return Err(
            "--scavcolor: the 3D preview draws the scavengers with their own \
                    textures, which have no colour to set; use it with --2d (maptools' \
                    flat picture)"
                .into(),
        );
    }
    let wanted =
        parse_layers(args.layers.as_deref(), !args.flat).map_err(|e| format!("--layers: {e}"))?;
    Ok(Request {
        input,
        output,
        wanted,
    })
}

/// Runs `genpreview`; returns the exit code.
pub fn run(args: &GenpreviewArgs) -> i32 {
    let req = match request(args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("vitrine maptools package genpreview: {e}");
            return super::exit::USAGE;
        }
    };
    let input = crate::files::parse(&req.input);
    let packages = packages_in(&input, args.level.as_deref());
    let result = match (&packages, args.flat) {
        (Some(list), _) => return run_folder(args, &req, list),
        (None, true) => write_flat(args, &req, &input),
        (None, false) => write_3d(args, &req, &input),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("vitrine maptools package genpreview: {e}");
            super::exit::FAILED
        }
    }
}

/// The `.wz` packages of a folder of map packages (sorted by name), or `None`.
fn packages_in(input: &FileRef, level: Option<&str>) -> Option<Vec<FileRef>> {
    if level.is_some() {
        return None;
    }
    let list = super::map_info::collection_archives(input)?;
    Some(list.iter().map(|p| crate::files::parse(p)).collect())
}

/// Whether `path` names a PNG, as maptools requires of its output.
fn check_png(path: &Path) -> Result<(), String> {
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        Ok(())
    } else {
        Err(format!(
            "{}: the output must be a .png file",
            path.display()
        ))
    }
}

/// What every map of a run is drawn over: the data roots, their stats, the seed.
struct Source {
    roots: Vec<FileRef>,
    stats: Stats,
    seed: Option<u32>,
    level: Option<String>,
}

impl Source {
    fn new(input: &FileRef, args: &GenpreviewArgs) -> Source {
        Source::over(
            roots_for(input, &args.data),
            args.map_seed,
            args.level.clone(),
        )
    }

    /// Maps over `roots`, script maps run with `seed`, the level named `level` of each.
    fn over(roots: Vec<FileRef>, seed: Option<u32>, level: Option<String>) -> Source {
        let (stats, _warnings) = Stats::load(crate::files::disk(), &roots);
        Source {
            roots,
            stats,
            seed,
            level,
        }
    }

    /// The map of `file` and where the game puts its objects.
    fn open(&self, file: &FileRef) -> Result<(map::Map, map::Placement), String> {
        self.open_level(file, self.level.as_deref())
    }

    /// The map `level` of `file` (`None`: its only one) and where the game puts its
    /// objects.
    fn open_level(
        &self,
        file: &FileRef,
        level: Option<&str>,
    ) -> Result<(map::Map, map::Placement), String> {
        let files = crate::files::disk();
        let mut level = map::open_source(files, file, level).map_err(|e| e.to_string())?;
        level.ask_seed(self.seed);
        let m = map::open(files, &level).map_err(|e| e.to_string())?;
        let placed = map::place(&m, &self.stats, files, &self.roots);
        Ok((m, placed))
    }

    /// The 3D scene of `file`, its layers and colours as asked.
    fn scene(&self, file: &FileRef, level: Option<&str>, look: &Look) -> Result<Model, String> {
        let (m, placed) = self.open_level(file, level)?;
        let options = SceneOptions {
            objects: true,
            terrain: TerrainMode::Blended,
        };
        let files = crate::files::disk();
        let mut model = map::scene::scene(&m, &placed, &self.stats, files, &self.roots, &options);
        look.apply(&mut model);
        Ok(model)
    }
}

/// How a 3D preview looks: its layers, its players' colours, its pitch.
#[derive(Debug, Clone)]
struct Look {
    wanted: Wanted,
    colours: Option<PlayerColours>,
    pitch: f32,
}

impl Look {
    /// Shows the wanted layers of `model`'s map (only its oil of the features where
    /// `oil` is asked without them) and gives every player colour 0 with `simple`.
    fn apply(&self, model: &mut Model) {
        let Details::Map(map) = &model.details else {
            return;
        };
        let map: MapDetails = (**map).clone();
        let mut shown = self.wanted.layers();
        let oil_only = self.wanted.oil && !shown.contains(&Layer::Features);
        if oil_only {
            shown.push(Layer::Features);
        }
        for (layer, nodes) in &map.layers {
            for &n in nodes {
                model.nodes[n].hidden = !shown.contains(layer);
            }
        }
        for o in &map.objects {
            if oil_only && o.kind == ObjectKind::Feature && !is_oil(&o.stats_id) {
                model.nodes[o.node].hidden = true;
            }
            if self.colours == Some(PlayerColours::Simple) && matches!(o.owner, Owner::Player(_)) {
                model.nodes[o.node].team = Some(0);
            }
        }
    }

    /// The frame of `model`'s map, edge to edge.
    fn frame(&self, model: &Model) -> Result<EdgeToEdge, String> {
        let Details::Map(map) = &model.details else {
            return Err("not a map".into());
        };
        let pose = Pose::sample(model, None, 0.0, 0);
        let all = crate::render::visible_points(model, &pose);
        let yaw = std::f32::consts::PI;
        EdgeToEdge::new(yaw, self.pitch.to_radians(), &map.ground_corners(), &all)
            .ok_or_else(|| "the map has no width to frame".to_string())
    }
}

/// Whether a feature of this stats id is oil (a resource or a drum), as the previews
/// tell them.
fn is_oil(stats_id: &str) -> bool {
    stats_id.starts_with("OilResource") || stats_id.starts_with("OilDrum")
}

/// The view every 3D preview is drawn with (before its camera): the game's sun fixed to
/// the map, a transparent background.
fn preview_view() -> ViewSettings {
    let mut view = ViewSettings {
        background: [0, 0, 0, 0],
        ..Default::default()
    };
    view.lighting.azimuth_deg = map::scene::SUN_AZIMUTH_DEG;
    view.lighting.elevation_deg = map::scene::SUN_ELEVATION_DEG;
    view.lighting.follows_camera = false;
    view
}

fn look(args: &GenpreviewArgs, req: &Request) -> Look {
    Look {
        wanted: req.wanted.clone(),
        colours: args.playercolors,
        pitch: args.pitch.unwrap_or(DEFAULT_PITCH),
    }
}

/// `--2d`: maptools' flat picture of one map.
fn write_flat(args: &GenpreviewArgs, req: &Request, input: &FileRef) -> Result<i32, String> {
    check_png(&req.output)?;
    let source = Source::new(input, args);
    let img = catch(input, || {
        let (m, placed) = source.open(input)?;
        Ok(flat::flat_preview(
            &m,
            &placed,
            &flat_options(args, &req.wanted),
        ))
    })?;
    write_rgb(&req.output, &img)?;
    said(&req.output);
    Ok(super::exit::OK)
}

fn flat_options(args: &GenpreviewArgs, wanted: &Wanted) -> FlatOptions {
    FlatOptions {
        players: args.playercolors.unwrap_or_default(),
        scavengers: args.scavcolor.unwrap_or(flat::SCAVENGERS),
        terrain: wanted.terrain,
        structures: wanted.structures,
        oil: wanted.oil,
    }
}

/// Runs `f` for `file`, a panic becoming an error naming it.
fn catch<T>(file: &FileRef, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    super::catch_per_file(file, f)
}

/// What maptools prints once a preview is written.
fn said(out: &Path) {
    println!("Generated map preview:\n\t - saved to: {}", out.display());
}

/// Writes an RGB picture as PNG, atomically.
fn write_rgb(path: &Path, img: &image::RgbImage) -> Result<(), String> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    img.write_to(&mut bytes, image::ImageFormat::Png)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    crate::files::atomic::write(path, bytes.get_ref())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The 3D preview of one map.
fn write_3d(args: &GenpreviewArgs, req: &Request, input: &FileRef) -> Result<i32, String> {
    check_png(&req.output)?;
    let gpu = match Gpu::headless() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("vitrine maptools package genpreview: {e}");
            return Ok(super::exit::NO_GPU);
        }
    };
    let source = Source::new(input, args);
    let look = look(args, req);
    let size = args.size.unwrap_or(DEFAULT_SIZE);
    let img = catch(input, || {
        let model = source.scene(input, source.level.as_deref(), &look)?;
        for d in &model.diagnostics {
            eprintln!("warning: {}", d.display_with(&input.file_name()));
        }
        let frame = look.frame(&model)?;
        let (w, h) = frame.size(size);
        let samples = crate::render::MSAA_SAMPLES;
        let mut scene =
            SceneRenderer::with_samples(&gpu.device, &gpu.queue, samples, crate::files::disk());
        let target = RenderTarget::with_samples(&gpu.device, w, h, samples);
        let view = ViewSettings {
            camera: frame.camera(w, h),
            ..preview_view()
        };
        scene.decode_pages_of(&model);
        crate::render::batch::draw_unframed(
            &gpu.device,
            &gpu.queue,
            &mut scene,
            &target,
            &model,
            &view,
        );
        target
            .read_rgba(&gpu.device, &gpu.queue)
            .map_err(|e| e.to_string())
    })?;
    write_png_atomic(&req.output, &img)?;
    said(&req.output);
    Ok(super::exit::OK)
}

/// A folder of packages: every one's preview into the output folder, `NAME.png`.
fn run_folder(args: &GenpreviewArgs, req: &Request, packages: &[FileRef]) -> i32 {
    if let Err(e) = std::fs::create_dir_all(&req.output) {
        eprintln!(
            "vitrine maptools package genpreview: {}: {e}",
            req.output.display()
        );
        return super::exit::FAILED;
    }
    let source = Source::new(&packages[0], args);
    let start = Instant::now();
    let failures = if args.flat {
        folder_flat(args, req, &source, packages)
    } else {
        match folder_3d(args, req, source, packages) {
            Ok(f) => f,
            Err(code) => return code,
        }
    };
    super::map_batch_summary(
        "previewed",
        failures.len(),
        packages.len(),
        &req.output,
        start,
    );
    super::report_failures(&failures)
}

/// The PNG each package's preview goes to in `dir`: its file name's stem, made safe and
/// unique ([`crate::files::names::UniqueNames`]: `A.wz` and `a.zip` are two pictures,
/// never one over the other); each suffix given is noted on standard error.
fn out_names(dir: &Path, packages: &[FileRef]) -> Vec<PathBuf> {
    let mut names = crate::files::names::UniqueNames::new();
    packages
        .iter()
        .map(|package| {
            let name = package.file_name();
            let stem = Path::new(&name)
                .file_stem()
                .map_or_else(|| "map".into(), |s| s.to_string_lossy().into_owned());
            let named = names.take(&stem, "png", "map");
            if let Some(note) = &named.note {
                eprintln!("note: package {} ({note})", package);
            }
            dir.join(named.file)
        })
        .collect()
}

fn folder_flat(
    args: &GenpreviewArgs,
    req: &Request,
    source: &Source,
    packages: &[FileRef],
) -> Vec<(String, String)> {
    let options = flat_options(args, &req.wanted);
    let mut failures = Vec::new();
    for (p, out) in packages.iter().zip(out_names(&req.output, packages)) {
        let done = catch(p, || {
            let (m, placed) = source.open(p)?;
            write_rgb(&out, &flat::flat_preview(&m, &placed, &options))
        });
        if let Err(e) = done {
            failures.push((p.to_string(), e));
        }
    }
    failures
}

/// The 3D previews of `packages` into `OUTPUT/NAME.png`.
fn folder_3d(
    args: &GenpreviewArgs,
    req: &Request,
    source: Source,
    packages: &[FileRef],
) -> Result<Vec<(String, String)>, i32> {
    let jobs: Vec<PreviewJob> = packages
        .iter()
        .zip(out_names(&req.output, packages))
        .map(|(p, out)| (p.clone(), args.level.clone(), out))
        .collect();
    let size = args.size.unwrap_or(DEFAULT_SIZE);
    batch_previews(source, look(args, req), &jobs, size).map_err(|e| {
        eprintln!("vitrine maptools package genpreview: {e}");
        super::exit::NO_GPU
    })
}

/// One preview of a batch: the map's package (or folder), the level in it (`None`: its
/// only one), the PNG to write.
pub type PreviewJob = (FileRef, Option<String>, PathBuf);

/// The default 3D previews (everything the game draws, 60° down, the game's team
/// colours) of `jobs`, `size` pixels on the longer side, over `roots`, in one batch:
/// what `publish` draws a collection's tiles with. The failures (the package and why).
///
/// # Errors
/// No GPU adapter (nothing is drawn).
pub fn render_previews(
    jobs: &[PreviewJob],
    size: u32,
    roots: &[FileRef],
) -> Result<Vec<(String, String)>, String> {
    let look = Look {
        wanted: Wanted::ALL,
        colours: None,
        pitch: DEFAULT_PITCH,
    };
    batch_previews(Source::over(roots.to_vec(), None, None), look, jobs, size)
}

/// The 3D previews of `jobs` through the batch pipeline: each drawn into a square of
/// `size` with its own edge-to-edge camera ([`EdgeToEdge::camera_in`]), its frame's
/// top-left part kept.
fn batch_previews(
    source: Source,
    look: Look,
    jobs: &[PreviewJob],
    size: u32,
) -> Result<Vec<(String, String)>, String> {
    use crate::render::batch::{self, BatchDevice, BatchOptions, Job, Loaded, Step};
    let gpu = Gpu::headless().map_err(|e| e.to_string())?;
    let mut options = BatchOptions::new((size, size), preview_view(), crate::files::disk());
    options.renderers = 1;
    // Each picture's size (its frame's), by job, as the loaders frame them.
    let sizes: Arc<Mutex<HashMap<u64, (u32, u32)>>> = Arc::default();
    let shared = Arc::new((source, look, jobs.to_vec()));
    let run = batch::start(
        BatchDevice::Shared(gpu.device.clone(), gpu.queue.clone()),
        options,
        || {
            let (shared, sizes) = (shared.clone(), sizes.clone());
            move |file: &FileRef| {
                let (source, look, jobs) = &*shared;
                // A job's file is its package's name and index (`AValley.wz#3`: a
                // package may come once per level).
                let name = file.file_name();
                let id = name
                    .rsplit('#')
                    .next()
                    .and_then(|i| i.parse::<usize>().ok())
                    .ok_or("no such job")?;
                let (package, level, _) = jobs.get(id).ok_or("no such job")?;
                let model = source.scene(package, level.as_deref(), look)?;
                let frame = look.frame(&model)?;
                let (w, h) = frame.size(size);
                sizes
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id as u64, (w, h));
                Ok(Step::Draw(Box::new(Loaded {
                    camera: Some(frame.camera_in(size, size, w, h)),
                    model,
                    at: None,
                })))
            }
        },
    );
    run.queue
        .push(jobs.iter().enumerate().map(|(i, (package, ..))| Job {
            id: i as u64,
            file: FileRef::Disk(PathBuf::from(format!("{}#{i}", package.file_name()))),
        }));
    run.queue.close();
    let mut failures = Vec::new();
    for done in run.results.iter() {
        let (package, _, out) = &jobs[done.id as usize];
        for w in &done.warnings {
            eprintln!("warning: {w}");
        }
        let wh = sizes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&done.id)
            .copied();
        let written = done.image.and_then(|img| {
            let (w, h) = wh.unwrap_or(img.dimensions());
            let img = image::imageops::crop_imm(&img, 0, 0, w, h).to_image();
            write_png_atomic(out, &img)
        });
        if let Err(e) = written {
            failures.push((package.to_string(), e));
        }
    }
    Ok(failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_parse_as_maptools_and_vitrine_names_only_in_3d() {
        assert_eq!(parse_layers(None, false).unwrap(), Wanted::ALL);
        assert_eq!(parse_layers(Some("all"), true).unwrap(), Wanted::ALL);
        let t = parse_layers(Some("terrain"), false).unwrap();
        assert!(t.terrain && !t.structures && !t.oil && !t.all);
        let w = parse_layers(Some("oil, droids"), true).unwrap();
        assert!(w.oil && !w.terrain && w.more == [Layer::Droids]);
        let e = parse_layers(Some("terrain,droids"), false).unwrap_err();
        assert!(e.starts_with("droids: the 2D preview draws"), "{e}");
        let e = parse_layers(Some("roads"), true).unwrap_err();
        assert!(e.starts_with("roads: expected all"), "{e}");
    }

    #[test]
    fn scavenger_colours_parse_as_hex() {
        assert_eq!(parse_hex("#800000"), Ok([128, 0, 0]));
        assert_eq!(parse_hex("00ff7f"), Ok([0, 255, 127]));
        assert_eq!(parse_hex("#11223344"), Ok([0x11, 0x22, 0x33]));
        assert!(parse_hex("#12345").is_err() && parse_hex("#gg0000").is_err());
    }
}
