//! `vitrine info`: what a model file holds, as text or as one JSON object per file.
//!
//! The JSON is the model's own shape, the same for every format (README documents it).
//! Positions and matrices are converted back to the file's own axes so they can be
//! compared with the modder's editor.

use crate::files::{file_name, printable_text};
use crate::formats::pmf::{EulerOrder, PmfOptions, RootMode, RotationUnits};
use crate::formats::{self, LoadOptions};
use crate::model::Model;
pub use crate::model::json::parse_at;
use crate::model::json::{self, JsonOptions};
use clap::Args;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Arguments of `vitrine info`.
#[derive(Debug, Default, Args)]
pub struct InfoArgs {
    /// Model files, folders (searched recursively), archives (.wz, .zip) or
    /// ARCHIVE!/PATH entries.
    #[arg(required_unless_present_any = ["template", "body", "structure"])]
    pub files: Vec<PathBuf>,
    /// One JSON object per line per file instead of text.
    #[arg(long)]
    pub json: bool,
    /// Add every node's model-space matrix ("world", 16 floats, column-major).
    #[arg(long)]
    pub world: bool,
    /// With --world: pose at this frame of this clip, e.g. `walk:4` (default: rest pose).
    #[arg(long, value_name = "CLIP:FRAME")]
    pub at: Option<String>,
    /// Add each mesh's rest positions ("positions"), mesh-local, in file order.
    #[arg(long)]
    pub vertices: bool,
    /// A Warzone 2100 map (a package, a map folder, game.map, or ARCHIVE!/multiplay/maps/NAME):
    /// with --json, add every tile corner's height after the map is loaded ("heights",
    /// rows of width numbers).
    #[arg(long)]
    pub heights: bool,
    /// The level to read from a package or archive holding several maps (`Sk-Rush`, or its
    /// folder's name `4c-rush`).
    #[arg(long, value_name = "NAME")]
    pub level: Option<String>,
    /// A script-generated Warzone 2100 map (game.js): the seed its gameRand starts from.
    /// The game draws a new one per game and logs it ("Loaded script-generated map …
    /// with random seed: N"); the default is 5489, std::mt19937's own.
    #[arg(long, value_name = "N")]
    pub seed: Option<u32>,
    /// Data roots and PMF rules.
    #[command(flatten)]
    pub load: super::LoadArgs,
    /// A Warzone 2100 droid or structure assembled from the game's stats (read through
    /// the --data roots): lists its parts, their files, nodes and positions.
    #[command(flatten)]
    pub wz: crate::cli::assemble::WzArgs,
}

impl InfoArgs {
    /// The loader settings these arguments ask for.
    pub fn load_options(&self) -> LoadOptions {
        self.load.options()
    }
}

/// The PMF settings as flags (shared by `info` and `render`). Each overrides the default
/// only when given; the format itself states none of them.
#[derive(Debug, Clone, Default, Args)]
pub struct PmfArgs {
    /// PMF rotation units [default: degrees].
    #[arg(long = "pmf-units", value_parser = super::choice::parser::<RotationUnits>(), value_name = "UNITS")]
    pub units: Option<RotationUnits>,
    /// PMF Euler order, first-applied axis first [default: xyz, i.e. R = Rz·Ry·Rx].
    #[arg(long = "pmf-euler", value_parser = super::choice::parser::<EulerOrder>(), value_name = "ORDER")]
    pub euler: Option<EulerOrder>,
    /// Whether a PMF frame's root position replaces or adds to the root piece's
    /// translation [default: replace].
    #[arg(long = "pmf-root", value_parser = super::choice::parser::<RootMode>(), value_name = "MODE")]
    pub root: Option<RootMode>,
}

impl PmfArgs {
    /// The defaults with the given flags applied.
    pub fn options(&self) -> PmfOptions {
        let d = PmfOptions::default();
        PmfOptions {
            units: self.units.unwrap_or(d.units),
            euler: self.euler.unwrap_or(d.euler),
            root: self.root.unwrap_or(d.root),
        }
    }
}

/// Runs `vitrine info`; returns the exit code ([`super::exit`]: 1 if any input failed).
pub fn run(args: &InfoArgs) -> i32 {
    if let Some(design) = args.wz.design() {
        return crate::cli::assemble::info(args, &design);
    }
    let options = args.load_options();
    let (maps, models): (Vec<&PathBuf>, Vec<&PathBuf>) = args.files.iter().partition(|p| {
        super::map_info::is_map_input(&crate::files::parse(p), args.level.as_deref())
    });
    let mut failed = maps_info(&maps, args);
    if maps.len() == args.files.len() {
        return if failed > 0 {
            super::exit::FAILED
        } else {
            super::exit::OK
        };
    }
    let models: Vec<PathBuf> = models.into_iter().cloned().collect();
    let walk = super::model_inputs(&models);
    failed += walk.errors.len();
    for (path, message) in &walk.errors {
        print_error(path, message, args.json);
    }
    let mut resolver = formats::resolve::Resolver::new(crate::files::disk());
    for file in &walk.files {
        let shown = file.to_string();
        let path = Path::new(&shown);
        let result = super::catch_per_file(file, || {
            let model =
                formats::load_with(&mut resolver, file, &options).map_err(|e| e.to_string())?;
            if args.json {
                model_json(&model, path, args).map(|v| (model, Some(v)))
            } else {
                Ok((model, None))
            }
        });
        match (&result, args.json) {
            (Ok((_, Some(v))), true) => println!("{v}"),
            (Ok((model, _)), _) => print!("{}", printable_text(&text_summary(model, path))),
            (Err(e), _) => print_error(&shown, e, args.json),
        }
        if result.is_err() {
            failed += 1;
        }
    }
    let total = walk.files.len() + walk.errors.len();
    if !args.json && total > 1 {
        println!("{total} files: {} loaded, {failed} failed", total - failed);
    }
    super::print_walk_warnings(&walk);
    if !walk.links_not_followed.is_empty() {
        eprintln!(
            "note: {} link(s) to folders not followed: {}",
            walk.links_not_followed.len(),
            printable_text(&walk.links_not_followed.join(", "))
        );
    }
    if failed > 0 {
        super::exit::FAILED
    } else {
        super::exit::OK
    }
}

/// `info` of each map input (errors on standard error; with `--json` their objects on
/// standard output too); the number that failed.
fn maps_info(maps: &[&PathBuf], args: &InfoArgs) -> usize {
    let mut failed = 0;
    for path in maps {
        let file = crate::files::parse(path);
        let shown = file.to_string();
        let result = super::catch_per_file(&file, || {
            super::map_info::map_info(
                &file,
                args.level.as_deref(),
                args.seed,
                &args.load.data,
                args.heights,
                args.json,
            )
        });
        match result {
            Ok((out, errors)) => {
                print!("{out}");
                for e in &errors {
                    eprintln!("{e}");
                }
                failed += errors.len();
            }
            Err(e) => {
                failed += 1;
                print_error(&shown, &e, args.json);
            }
        }
    }
    failed
}

/// An input that failed: its line on standard error, and with `--json` its object
/// (`{"path", "error"}`) on standard output, where each input has its line.
fn print_error(path: &str, message: &str, as_json: bool) {
    if as_json {
        println!("{}", json!({"path": path, "error": message}));
    }
    eprintln!("{}", printable_text(&format!("{path}: error: {message}")));
}

/// The common-schema JSON object of one model, as `--world`, `--at` and `--vertices`
/// ask (built by [`crate::model::json`]).
pub fn model_json(model: &Model, path: &Path, args: &InfoArgs) -> Result<Value, String> {
    let at = match &args.at {
        Some(at) => Some(parse_at(model, at)?),
        None => None,
    };
    let options = JsonOptions {
        world: args.world,
        vertices: args.vertices,
        at,
    };
    Ok(json::model_json(model, path, &options))
}

/// A number without trailing zeros: `15`, `16.667`.
fn trim_number(v: f32) -> String {
    let t = format!("{v:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The readable summary of one model.
pub fn text_summary(model: &Model, path: &Path) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} ({})",
        path.display(),
        model.format.with_version(&model.version),
        model.axes.name
    );
    for p in &model.properties {
        let _ = writeln!(s, "  {}: {}", p.key, p.value);
    }
    if !model.textures.is_empty() {
        let _ = writeln!(s, "  textures:");
        for t in &model.textures {
            let state = match &t.resolved {
                Some(p) => format!("found {p}"),
                None => "MISSING".to_string(),
            };
            let _ = writeln!(s, "    {:?} {}: {state}", t.role, t.name);
        }
    }
    let _ = writeln!(s, "  hierarchy:");
    fn tree(model: &Model, node: usize, depth: usize, s: &mut String) {
        let n = &model.nodes[node];
        let mesh = n
            .mesh
            .map(|m| {
                let m = &model.meshes[m];
                format!(
                    ": {} points, {} triangles",
                    m.points.len(),
                    m.triangle_count()
                )
            })
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "    {}{} [{:?}]{mesh}",
            "  ".repeat(depth),
            n.name,
            n.kind
        );
        for c in model.children(node) {
            tree(model, c, depth + 1, s);
        }
    }
    for (i, n) in model.nodes.iter().enumerate() {
        if n.parent.is_none() {
            tree(model, i, 0, &mut s);
        }
    }
    if !model.connectors.is_empty() {
        let _ = writeln!(s, "  connectors:");
        for (i, c) in model.connectors.iter().enumerate() {
            let _ = writeln!(
                s,
                "    {} on {}: file {:?} → model ({:.1}, {:.1}, {:.1})",
                i + 1,
                model.nodes[c.node].name,
                c.raw,
                c.position.x,
                c.position.y,
                c.position.z
            );
        }
    }
    for c in &model.clips {
        let mut facts = vec![
            format!(
                "{} frames at {} fps ({:.2} s)",
                c.frame_count,
                trim_number(c.fps),
                c.duration()
            ),
            if c.looping { "loops" } else { "plays once" }.to_string(),
        ];
        if !c.keyframes.is_empty() {
            facts.push(format!("{} keyframes", c.keyframes.len()));
        }
        if !c.events.is_empty() {
            facts.push(format!("{} events", c.events.len()));
        }
        let _ = writeln!(s, "  clip {:?}: {}", c.name, facts.join(", "));
        for m in &c.motions {
            let _ = writeln!(
                s,
                "    motion {:?}: frames {}–{} ({:.2}–{:.2} s){}",
                m.name,
                m.start,
                m.end,
                c.frame_time(m.start as f32),
                c.frame_time(m.end as f32),
                m.next
                    .as_ref()
                    .map(|n| format!(", then {n:?}"))
                    .unwrap_or_default()
            );
        }
        for t in &c.texture_frames {
            let mesh = model.meshes.get(t.mesh).map_or("?", |m| m.name.as_str());
            let what = if t.team_colour {
                "legacy team colours: the frame is the team colour".to_string()
            } else {
                format!("{} ms per frame", trim_number(t.ms_per_frame))
            };
            let _ = writeln!(
                s,
                "    texture animation on {mesh}: {} frames, {what}",
                t.frames
            );
        }
        for e in &c.events {
            let _ = writeln!(s, "    event at frame {}: {}", e.frame, e.text);
        }
    }
    for e in &model.events {
        let state = if e.resolved.is_some() {
            "found"
        } else {
            "MISSING"
        };
        let _ = writeln!(
            s,
            "  event {} ({}): {} ({state})",
            e.kind,
            e.kind_name(),
            e.file
        );
    }
    for sm in &model.shadow_meshes {
        let _ = writeln!(
            s,
            "  shadow mesh on {}: {} points, {} triangles",
            model.nodes[sm.node].name,
            sm.points.len(),
            sm.triangles.len()
        );
    }
    if !model.collision_boxes.is_empty() {
        let _ = writeln!(s, "  collision boxes: {}", model.collision_boxes.len());
    }
    for d in &model.diagnostics {
        let _ = writeln!(s, "  warning: {}", d.display_with(&file_name(path)));
    }
    s.push('\n');
    s
}
