//! `vitrine render`: models to PNG without a window (maps: [`super::render_map`]).
//!
//! One file: `vitrine render FILE -o out.png`. A folder or an archive: every model in
//! it, in one process (one [`SceneRenderer`] and its [`RenderTarget`]s per device, one
//! device per core, at most 4: `--renderers`), output names mirroring the relative paths (`structs/blbhq.pie` →
//! `OUTDIR/structs/blbhq.png`; see [`output_names`]: names never collide, and a PangYa
//! character is rendered once, not once per part). The batch runs on
//! [`crate::render::batch`]: parsing and texture decoding on one thread per core,
//! drawing on `--renderers` threads, PNG encoding and writing on this one, all overlapped. A file that fails (or crashes the loader)
//! is listed at the end and the batch goes on; the exit code is 1 if any model failed.
//!
//! Animation: `--frame N` or `--time SECONDS` poses the model in a clip (`--clip NAME`,
//! default the model's first clip); without them the rest pose is drawn. An animated
//! render is framed on everything the clip shows over all its frames, so renders of
//! different frames of one clip share one camera and can be put together into a movie.

use crate::files::FileRef;
use crate::formats::{self, LoadOptions, resolve::Resolver};
use crate::model::Model;
use crate::render::{
    ColourMode, Gpu, RenderTarget, SceneRenderer, ViewPreset, ViewSettings, team_by_name,
};
use clap::Args;
use std::path::{Path, PathBuf};

/// Arguments of `vitrine render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Model file (or ARCHIVE!/PATH), or a folder or archive: every model in it is
    /// rendered.
    #[arg(required_unless_present_any = ["template", "body", "structure", "all_templates"])]
    pub input: Option<PathBuf>,
    /// Output PNG (for a file or an assembly) or output folder (for a folder, an archive
    /// or --all-templates); `.gif`, `.apng` or `.webp` for an animation of one model or
    /// assembly (see --animate for PNG frames).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Image size as WIDTHxHEIGHT.
    #[arg(long, default_value = "800x600", value_parser = parse_size)]
    pub size: (u32, u32),
    /// Team colour: 0–15 or a name (green, orange, grey, black, red, blue, …).
    #[arg(long, default_value = "0", value_parser = parse_team)]
    pub team: usize,
    /// Samples per pixel: 4 (anti-aliased edges) or 1 (no anti-aliasing, as f3d draws by
    /// default; about 1.7× the models per second on a CPU rasteriser such as Mesa's
    /// lavapipe).
    #[arg(long, default_value = "4", value_parser = parse_msaa, value_name = "1|4")]
    pub msaa: u32,
    /// Transparent background (alpha 0 outside the model).
    #[arg(long)]
    pub transparent: bool,
    /// Camera direction.
    #[arg(long, value_parser = super::choice::parser::<ViewPreset>(), ignore_case = true, default_value = "iso")]
    pub view: ViewPreset,
    /// Background colour as #RRGGBB.
    #[arg(long, value_parser = parse_colour)]
    pub background: Option<[u8; 3]>,
    /// How surfaces are coloured: textured (the file's materials), per-node (a distinct
    /// colour per piece / instance / part) or by-joint (each point by its bone; unbound
    /// points grey).
    #[arg(
        long = "colour-mode",
        alias = "color-mode",
        value_parser = super::choice::parser::<ColourMode>(),
        default_value = "textured"
    )]
    pub colour_mode: ColourMode,
    /// Data roots and PMF rules.
    #[command(flatten)]
    pub load: super::LoadArgs,
    /// Overlays to draw, comma-separated: connectors, normals, wireframe, bounds, grid,
    /// axes, bones, collision, shadow-mesh, xray (through the model), or all.
    #[arg(long, value_parser = crate::render::Overlays::parse_list, value_name = "LIST")]
    pub overlays: Option<crate::render::Overlays>,
    /// Shadows, `on` or `off` (`--shadows` alone: on). A Warzone 2100 map: its objects'
    /// shadows as the game draws them (its setting *shadows*; on by default). A model:
    /// cast onto a ground plane (from the shadow mesh where the model has one; off by
    /// default).
    #[arg(long, value_name = "ON|OFF", num_args = 0..=1, default_missing_value = "on", value_parser = on_off())]
    pub shadows: Option<bool>,
    /// The light.
    #[command(flatten)]
    pub light: crate::cli::light::LightArgs,
    /// Which animation pose to draw.
    #[command(flatten)]
    pub anim: AnimArgs,
    /// Warzone 2100 droid or structure to assemble from the game's stats (read through
    /// the --data roots).
    #[command(flatten)]
    pub wz: crate::cli::assemble::WzArgs,
    /// Render every template of `templates.json` into the output folder (`ID.png`).
    #[arg(long, requires = "data", conflicts_with_all = ["input", "template", "body", "structure"])]
    pub all_templates: bool,
    /// Animated output (`-o out.gif|out.apng|out.webp`, or `--animate` for PNG frames).
    #[command(flatten)]
    pub animate: crate::cli::animate::AnimateArgs,
    /// A Warzone 2100 map: the level to draw from a package or archive holding several
    /// (`Sk-Rush`, or its folder's name `4c-rush`).
    #[arg(long, value_name = "NAME")]
    pub level: Option<String>,
    /// A Warzone 2100 map: draw every map of the package, folder or archive into the
    /// output folder (`LEVEL.png`).
    #[arg(long, conflicts_with_all = ["level", "all_templates"])]
    pub all_maps: bool,
    /// A Warzone 2100 map: draw the terrain and water only, not the objects.
    #[arg(long)]
    pub no_objects: bool,
    /// A Warzone 2100 map made by a script Warzone 2100 map (game.js), each with --all-maps: the seed its gameRand starts from.
    /// The game draws a new one per game and logs it ("Loaded script-generated map …
    /// with random seed: N"); the default is 5489, std::mt19937's own.
    #[arg(long, value_name = "N")]
    pub seed: Option<u32>,
    /// A folder or `--all-maps`: the threads that read models and maps and decode their
    /// pages (default: one per core, at most 8); --renderers draw.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: Option<u16>,
    /// A folder or `--all-maps`: the threads that draw, each on a device of its own
    /// (default: one per core, at most 4 and at most --jobs; 1 for maps; each has a
    /// prepare thread of its own at least). On a CPU rasteriser such as Mesa's lavapipe
    /// one leaves the cores idle much of the time; each costs memory (thumbnails: about
    /// 250 MB more for a second; maps at 1024²: about 1.4 GB).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=16))]
    pub renderers: Option<u16>,
    /// A Warzone 2100 map: the layers to draw, comma-separated (terrain, decals, water,
    /// features, structures, droids, grid, footprints, gateways, start-positions; `all`).
    /// Default: all but grid, footprints and gateways, as the window opens a map.
    #[arg(long, value_name = "LIST")]
    pub layers: Option<String>,
    /// A Warzone 2100 map: its fog and the tileset's sky as the game draws them, `on` or
    /// `off` (the default: the game's fog distances grow with the camera's distance, and
    /// a whole map framed is far beyond the game's; in perspective views only, such as
    /// `--view game`).
    #[arg(long, value_name = "ON|OFF", default_value = "off", value_parser = on_off(), action = clap::ArgAction::Set)]
    pub fog: bool,
    /// A Warzone 2100 map with `--view game`: the game's camera put over world point X,Y
    /// (x east, y south, 128 a tile) at view distance ZOOM (default 2600, the game's
    /// start; 5000 the farthest a player zooms out), as a script's `centreView` and
    /// `cameraZoom` put it, instead of over player 0's HQ (`start`). Several: one
    /// picture each from one reading of the map, `-o` holding `{}` for the camera's place
    /// among them (1, 2, …). The views of docs/parity.md.
    #[arg(long, value_name = "X,Y[,ZOOM]|start", value_parser = parse_camera)]
    pub camera: Vec<CameraArg>,
}

/// Where `--camera` puts the game's camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CameraArg {
    /// Where the game starts it: over player 0's HQ.
    Start,
    /// Over a point, at a distance.
    At(vitrine_core::map::scene::GameCamera),
}

fn parse_camera(text: &str) -> Result<CameraArg, String> {
    if text.trim().eq_ignore_ascii_case("start") {
        return Ok(CameraArg::Start);
    }
    vitrine_core::map::scene::GameCamera::parse(text).map(CameraArg::At)
}

/// `on` / `off` as a flag's value.
fn on_off() -> impl clap::builder::TypedValueParser<Value = bool> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["on", "off"]).map(|s| s == "on")
}

/// Which moment of which clip to render.
#[derive(Debug, Clone, Default, Args)]
pub struct AnimArgs {
    /// Clip to pose the model in [default: the model's first clip].
    #[arg(long, value_name = "NAME")]
    pub clip: Option<String>,
    /// Frame of the clip (counted from 0; a fraction blends between frames).
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "time",
        allow_negative_numbers = true
    )]
    pub frame: Option<f32>,
    /// Time into the clip in seconds (a looping clip wraps, another holds its end); for a
    /// Warzone 2100 map, the moment its water and sky are drawn at (default 0).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time: Option<f32>,
}

impl AnimArgs {
    /// Whether any animation option was given.
    pub fn is_set(&self) -> bool {
        self.clip.is_some() || self.frame.is_some() || self.time.is_some()
    }

    /// The clip and time these options ask for on `model`: `Ok(None)` for the rest pose
    /// (no option given, or `lenient` and the model has no clip at all).
    pub fn resolve(&self, model: &Model, lenient: bool) -> Result<Option<(usize, f32)>, String> {
        if !self.is_set() || (lenient && model.clips.is_empty()) {
            return Ok(None);
        }
        let names = || {
            let n: Vec<_> = model
                .clips
                .iter()
                .map(|c| format!("{:?}", c.name))
                .collect();
            n.join(", ")
        };
        let clip = match &self.clip {
            Some(name) => model
                .clip_index(name)
                .ok_or_else(|| format!("no clip {name:?} (clips: {})", names()))?,
            None if model.clips.is_empty() => {
                return Err("the model has no animation clip".to_string());
            }
            None => 0,
        };
        let c = &model.clips[clip];
        let time = match (self.frame, self.time) {
            (Some(f), _) => {
                if !(f.is_finite() && f >= 0.0) {
                    return Err(format!("--frame {f}: expected a frame number ≥ 0"));
                }
                if f > c.frame_count.saturating_sub(1) as f32 {
                    return Err(format!(
                        "--frame {f}: clip {:?} has frames 0 to {}",
                        c.name,
                        c.frame_count.saturating_sub(1)
                    ));
                }
                c.frame_time(f)
            }
            (None, Some(t)) => {
                if !(t.is_finite() && t >= 0.0) {
                    return Err(format!("--time {t}: expected seconds ≥ 0"));
                }
                t
            }
            (None, None) => 0.0,
        };
        Ok(Some((clip, time)))
    }
}

/// Parses `WxH` (each 1..=8192).
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s}: expected WIDTHxHEIGHT, e.g. 256x256"))?;
    let n = |v: &str| -> Result<u32, String> {
        let n: u32 = v.trim().parse().map_err(|_| format!("{v}: not a number"))?;
        (1..=8192)
            .contains(&n)
            .then_some(n)
            .ok_or_else(|| format!("{n}: sizes go from 1 to 8192"))
    };
    Ok((n(w)?, n(h)?))
}

/// Parses a team colour number or name.
pub fn parse_team(s: &str) -> Result<usize, String> {
    team_by_name(s).ok_or_else(|| {
        let names: Vec<_> = crate::render::TEAM_COLOURS.iter().map(|t| t.name).collect();
        format!("{s}: expected 0–15 or one of {}", names.join(", "))
    })
}

/// Parses `#RRGGBB` (the `#` is optional).
pub fn parse_colour(s: &str) -> Result<[u8; 3], String> {
    let hex = s.trim().trim_start_matches('#');
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("{s}: expected #RRGGBB"));
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| e.to_string());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}

impl RenderArgs {
    /// The batch pipeline's options for a folder or `--all-maps`: the size, samples,
    /// `--jobs` and `--renderers` of these options, drawn with `view` (`--renderers`
    /// above `--jobs` raises the prepare threads to match: each renderer has one).
    pub fn batch_options(&self, view: ViewSettings) -> crate::render::batch::BatchOptions {
        let mut o = crate::render::batch::BatchOptions::new(self.size, view, crate::files::disk());
        o.samples = self.msaa;
        if let Some(n) = self.jobs {
            o.prepare_threads = usize::from(n);
            // `--jobs 1` is one thread for everything but the drawing.
            o.renderers = o.renderers.min(o.prepare_threads);
        }
        if let Some(n) = self.renderers {
            o.renderers = usize::from(n);
            o.prepare_threads = o.prepare_threads.max(o.renderers);
        }
        o
    }

    /// The view these options ask for (camera preset, team, background, overlays…).
    pub fn view_settings(&self) -> ViewSettings {
        let mut view = ViewSettings {
            team: self.team,
            colour_mode: self.colour_mode,
            ..Default::default()
        };
        if let Some([r, g, b]) = self.background {
            view.background = [r, g, b, 255];
        }
        if self.transparent {
            view.background[3] = 0;
        }
        view.camera.set_preset(self.view);
        if let Some(o) = self.overlays {
            view.overlays = o;
        }
        view.shadows = self.shadows.unwrap_or(false);
        view.lighting = self.light.lighting();
        view.environment = self.fog;
        view.time = self.anim.time.unwrap_or(0.0);
        view
    }
}

/// Renders `model` framed to fit and returns the pixels: in the rest pose, or at
/// `at` = (clip, seconds), framed on all the clip's frames
/// ([`crate::render::batch::render_framed`]).
pub fn render_model(
    gpu: &Gpu,
    scene: &mut SceneRenderer,
    target: &RenderTarget,
    model: &Model,
    view: &ViewSettings,
    at: Option<(usize, f32)>,
) -> Result<image::RgbaImage, String> {
    scene.decode_pages_of(model);
    crate::render::batch::render_framed(&gpu.device, &gpu.queue, scene, target, (model, at), view)
}

/// [`render_model`] of a model the renderer keeps without a copy of its own (a map's
/// nodes are hundreds of MB; `crate::render::batch::draw_framed_shared`).
pub fn render_model_shared(
    gpu: &Gpu,
    scene: &mut SceneRenderer,
    target: &RenderTarget,
    model: &std::sync::Arc<Model>,
    view: &ViewSettings,
) -> Result<image::RgbaImage, String> {
    scene.decode_pages_of(model);
    let (device, queue) = (&gpu.device, &gpu.queue);
    crate::render::batch::draw_framed_shared(device, queue, scene, target, (model, None), view);
    target.read_rgba(device, queue).map_err(|e| e.to_string())
}

/// Encodes `img` as PNG and writes it to `path` atomically ([`crate::files::atomic`]).
pub fn write_png_atomic(path: &Path, img: &image::RgbaImage) -> Result<(), String> {
    let bytes = encode_png_fast(path, img)?;
    crate::files::atomic::write(path, &bytes).map_err(|e| e.to_string())
}

/// PNG bytes of `img` for `path` (named in the error), fast compression.
pub(crate) fn encode_png_fast(path: &Path, img: &image::RgbaImage) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut bytes = Vec::new();
    PngEncoder::new_with_quality(&mut bytes, CompressionType::Fast, FilterType::Adaptive)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| fail(&e))?;
    Ok(bytes)
}

/// Runs `vitrine render`; returns the process exit code ([`super::exit`]).
pub fn run(args: &RenderArgs) -> i32 {
    match crate::cli::animate::requested(args) {
        Ok(Some(format)) => return crate::cli::animate::run(args, format),
        Ok(None) => {}
        Err(e) => {
            eprintln!("vitrine render: {e}");
            return super::exit::USAGE;
        }
    }
    let assembly = args.all_templates || args.wz.design().is_some();
    let map = !assembly && crate::cli::render_map::requested(args);
    let one_game_view = map && args.view == ViewPreset::Game && !args.all_maps;
    let cameras = !args.camera.is_empty();
    if cameras && !one_game_view {
        eprintln!(
            "vitrine render: --camera places the game's camera: it needs a map and --view game"
        );
        return super::exit::USAGE;
    }
    if args.camera.len() > 1 && !args.output.to_string_lossy().contains("{}") {
        eprintln!(
            "vitrine render: several --camera: -o must hold {{}} for each camera's place (1, 2, …)"
        );
        return super::exit::USAGE;
    }
    if map {
        return crate::cli::render_map::run(args);
    }
    let input_path = args.input.clone().unwrap_or_default();
    let input = crate::files::parse(&input_path);
    let is_file = assembly || crate::files::is_file(&input);
    let gpu = match Gpu::headless() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("vitrine render: {e}");
            return super::exit::NO_GPU;
        }
    };
    let view = args.view_settings();
    let options = args.load.options();
    if !is_file {
        return run_batch(args, &input_path, &gpu, &view, &options);
    }
    let mut scene =
        SceneRenderer::with_samples(&gpu.device, &gpu.queue, args.msaa, crate::files::disk());
    let (w, h) = args.size;
    let target = RenderTarget::with_samples(&gpu.device, w, h, args.msaa);
    if assembly {
        return crate::cli::assemble::render(args, &gpu, &mut scene, &target, &view);
    }
    let name = input.file_name();
    let result = super::catch_per_file(&input, || {
        let model = formats::load(&input, &options).map_err(|e| e.to_string())?;
        for d in &model.diagnostics {
            eprintln!("warning: {}", d.display_with(&name));
        }
        let at = args
            .anim
            .resolve(&model, false)
            .map_err(|e| format!("{name}: {e}"))?;
        let img = render_model(&gpu, &mut scene, &target, &model, &view, at)?;
        write_png_atomic(&args.output, &img)
    });
    for warning in scene.warnings() {
        eprintln!("warning: {name}: {warning}");
    }
    match result {
        Ok(()) => super::exit::OK,
        Err(e) => {
            eprintln!("vitrine render: {e}");
            super::exit::FAILED
        }
    }
}

/// One picture of a batch: the file to load and the output it is written to.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchItem {
    /// The model to load (for a PangYa character: one of its parts).
    pub file: FileRef,
    /// Output path relative to the output folder, with `/` separators.
    pub output: String,
    /// Other inputs drawn by this same picture (the other parts of a character).
    pub grouped: Vec<FileRef>,
}

/// Output names for a batch of `files` under `base`, so that distinct inputs never share
/// an output: `structs/blbhq.pie` → `structs/blbhq.png`; when two inputs of one folder
/// share a stem (`a.pie`, `a.pmf`) both keep their extension (`a.pie.png`, `a.pmf.png`).
/// The parts of one PangYa character (`.bpet`, `.mpet`, `.apet` of one folder and name
/// prefix) each load the whole character, so it is rendered once, named after the prefix.
pub fn output_names(files: &[FileRef], base: &FileRef) -> Vec<BatchItem> {
    use std::collections::HashMap;
    let rel = |f: &FileRef| f.relative_to(base).unwrap_or_else(|| f.file_name());
    let folder_of = |r: &str| {
        r.rsplit_once('/')
            .map_or(String::new(), |(d, _)| format!("{d}/"))
    };
    // Group the parts of each character.
    let mut items: Vec<(FileRef, String, Vec<FileRef>)> = Vec::new();
    let mut character: HashMap<(String, String), usize> = HashMap::new();
    for f in files {
        let r = rel(f);
        if formats::pet::assemble::is_part(f) {
            let prefix = formats::pet::assemble::prefix(&f.file_name());
            let key = (folder_of(&r).to_lowercase(), prefix.clone());
            if let Some(&i) = character.get(&key) {
                items[i].2.push(f.clone());
                continue;
            }
            character.insert(key, items.len());
            items.push((f.clone(), format!("{}{prefix}", folder_of(&r)), Vec::new()));
        } else {
            let stem = r
                .rsplit_once('.')
                .map_or(r.as_str(), |(s, _)| s)
                .to_string();
            items.push((f.clone(), stem, Vec::new()));
        }
    }
    let mut count: HashMap<String, usize> = HashMap::new();
    for (_, stem, _) in &items {
        *count.entry(stem.to_lowercase()).or_default() += 1;
    }
    items
        .into_iter()
        .map(|(file, stem, grouped)| {
            let clash = count[&stem.to_lowercase()] > 1;
            let output = if clash {
                let ext = if grouped.is_empty() && !formats::pet::assemble::is_part(&file) {
                    file.extension().unwrap_or_default()
                } else {
                    "character".to_string()
                };
                format!("{stem}.{ext}.png")
            } else {
                format!("{stem}.png")
            };
            BatchItem {
                file,
                output,
                grouped,
            }
        })
        .collect()
}

fn run_batch(
    args: &RenderArgs,
    input: &Path,
    gpu: &Gpu,
    view: &ViewSettings,
    options: &LoadOptions,
) -> i32 {
    use crate::render::batch::{self, Job, Loaded, Step};
    let walk = super::model_inputs(&[input.to_path_buf()]);
    let base = crate::files::parse(input);
    let items = output_names(&walk.files, &base);
    let start = std::time::Instant::now();
    let progress = super::progress::Progress::new(items.len(), "rendering");
    let mut failures: Vec<(String, String)> = walk.errors.clone();
    let mut warned = 0usize;

    // Parsing and texture decoding on one thread per core, drawing on `--renderers`, PNG
    // encoding and writing here: see `render::batch`.
    let run = batch::start(
        batch::BatchDevice::Shared(gpu.device.clone(), gpu.queue.clone()),
        args.batch_options(view.clone()),
        || {
            let mut resolver = Resolver::new(crate::files::disk());
            let (options, anim) = (options.clone(), args.anim.clone());
            move |file: &FileRef| {
                let model =
                    formats::load_with(&mut resolver, file, &options).map_err(|e| e.to_string())?;
                let at = anim.resolve(&model, true)?;
                Ok(Step::Draw(Box::new(Loaded {
                    model,
                    at,
                    camera: None,
                })))
            }
        },
    );
    run.queue
        .push(items.iter().enumerate().map(|(i, item)| Job {
            id: i as u64,
            file: item.file.clone(),
        }));
    run.queue.close();
    let mut decoded = std::collections::HashSet::new();
    for (n, done) in run.results.iter().enumerate() {
        let item = &items[done.id as usize];
        decoded.extend(done.textures.iter().cloned());
        if !done.warnings.is_empty() {
            warned += 1;
        }
        let written = done.image.and_then(|img| {
            super::catch_per_file(&item.file, || {
                // A batch is renamed into place without a flush per file, as `vitrine
                // export DIR` does ([`crate::files::atomic::write_unsynced`]).
                let path = args.output.join(&item.output);
                let bytes = encode_png_fast(&path, &img)?;
                crate::files::atomic::write_unsynced(&path, &bytes).map_err(|e| e.to_string())
            })
        });
        if let Err(e) = written {
            failures.push((item.file.to_string(), e));
        }
        progress.set(n + 1, &item.output);
    }
    progress.finish();
    let secs = start.elapsed().as_secs_f64();
    let total = super::batch_total(items.len(), &walk);
    let ok = total - failures.len();
    super::print_walk_warnings(&walk);
    eprintln!(
        "{ok} of {total} models rendered to {} in {secs:.2} s ({:.1} models/s); {} texture files used; {warned} with warnings",
        args.output.display(),
        items.len() as f64 / secs.max(1e-9),
        decoded.len()
    );
    for item in items.iter().filter(|i| !i.grouped.is_empty()) {
        let names: Vec<String> = item.grouped.iter().map(FileRef::file_name).collect();
        eprintln!(
            "grouped: {} is one character with {}: rendered once as {}",
            item.file.file_name(),
            names.join(", "),
            item.output
        );
    }
    if !walk.links_not_followed.is_empty() {
        eprintln!(
            "note: {} link(s) to folders not followed: {}",
            walk.links_not_followed.len(),
            walk.links_not_followed.join(", ")
        );
    }
    super::report_failures(&failures)
}

/// `--msaa`: 1 or 4 samples per pixel.
fn parse_msaa(s: &str) -> Result<u32, String> {
    match s.trim() {
        "1" => Ok(1),
        "4" => Ok(4),
        other => Err(format!(
            "{other:?}: 1 (no anti-aliasing) or 4 samples per pixel"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_options() {
        assert_eq!(parse_size("256x128"), Ok((256, 128)));
        assert!(parse_size("256").is_err());
        assert!(parse_size("0x10").is_err());
        assert_eq!(parse_team("red"), Ok(4));
        assert_eq!(parse_team("11"), Ok(11));
        assert!(parse_team("16").is_err());
        assert_eq!(parse_colour("#10a0FF"), Ok([0x10, 0xa0, 0xff]));
        assert!(parse_colour("#10a0F").is_err());
    }

    #[test]
    fn view_is_a_value_enum_listed_in_help_and_read_in_any_case() {
        use clap::{CommandFactory, Parser};
        let cli = crate::cli::Cli::try_parse_from([
            "vitrine", "render", "a.pie", "-o", "a.png", "--view", "TOP",
        ])
        .unwrap();
        let Some(crate::cli::Command::Render(args)) = cli.command else {
            panic!("not render");
        };
        assert_eq!(args.view, ViewPreset::Top);
        let err = crate::cli::Cli::try_parse_from([
            "vitrine", "render", "a.pie", "-o", "a.png", "--view", "back",
        ])
        .unwrap_err()
        .to_string();
        assert!(err.contains("front") && err.contains("iso"), "{err}");
        let mut cmd = crate::cli::Cli::command();
        let help = cmd
            .find_subcommand_mut("render")
            .unwrap()
            .render_long_help()
            .to_string();
        for v in ["front", "side", "top", "iso"] {
            assert!(
                help.contains(&format!("- {v}")),
                "{v} missing from:\n{help}"
            );
        }
    }

    #[test]
    fn batch_names_never_collide_and_characters_render_once() {
        let base = FileRef::Disk("/in".into());
        let f = |p: &str| FileRef::Disk(format!("/in/{p}").into());
        let files = [
            f("a.pie"),
            f("a.pmf"),
            f("b.tpm"),
            f("kuma/kuma_body.mpet"),
            f("kuma/kuma.bpet"),
            f("kuma/kuma_walk.apet"),
            f("sub/a.pie"),
        ];
        let items = output_names(&files, &base);
        let outs: Vec<&str> = items.iter().map(|i| i.output.as_str()).collect();
        assert_eq!(
            outs,
            [
                "a.pie.png",
                "a.pmf.png",
                "b.png",
                "kuma/kuma.png",
                "sub/a.png"
            ]
        );
        assert_eq!(
            items[3].grouped,
            [f("kuma/kuma.bpet"), f("kuma/kuma_walk.apet")]
        );
    }
}
