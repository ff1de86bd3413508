//! `vitrine render MAP -o preview.png`: a Warzone 2100 map drawn in 3D — the terrain with
//! its tile images, the water and every object the game places
//! ([`vitrine_core::map::scene`]) — framed whole, in an isometric view by default or
//! `--view top` (both orthographic, as a map preview is), lit by the game's sun unless
//! `--light-dir` says otherwise.
//!
//! MAP is taken as `vitrine info` takes it (a package, a map folder, a `game.map`,
//! `mp.wz!/multiplay/maps/4c-rush`, or an archive with `--level`). With `--all-maps`, every
//! map of a package, folder or archive is drawn into the output folder as `LEVEL.png`,
//! in one process with one renderer: the figure "maps per second" of docs/maps.md.

use super::map_info::roots_for;
use super::render::{RenderArgs, render_model, write_png_atomic};
use crate::files::FileRef;
use crate::model::Model;
use crate::render::{Gpu, RenderTarget, SceneRenderer, ViewPreset, ViewSettings};
use std::time::Instant;
use vitrine_core::map::{self, scene::SceneOptions};
use vitrine_core::wz::Stats;

/// Whether `args` ask for a map: `--all-maps`, or an input that is one.
pub fn requested(args: &RenderArgs) -> bool {
    let Some(input) = &args.input else {
        return false;
    };
    args.all_maps
        || super::map_info::is_map_input(&crate::files::parse(input), args.level.as_deref())
}

/// The view of a map: the options' view, orthographic, and the game's sun fixed to the
/// map where no light direction was asked for.
fn map_view(args: &RenderArgs) -> ViewSettings {
    let mut view = args.view_settings();
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
}

impl Data {
    fn for_input(file: &FileRef, args: &RenderArgs) -> Data {
        let roots = roots_for(file, &args.load.data);
        let (stats, _warnings) = Stats::load(crate::files::disk(), &roots);
        Data {
            roots,
            stats,
            terrain: args.load.terrain,
        }
    }

    /// The scene of `level`, its warnings printed under `name`.
    fn scene(&self, level: &map::MapSource, objects: bool, name: &str) -> Result<Model, String> {
        let files = crate::files::disk();
        let m = map::open(files, level).map_err(|e| e.to_string())?;
        let placed = map::place(&m, &self.stats, files, &self.roots);
        let options = SceneOptions {
            objects,
            terrain: self.terrain,
        };
        let model = map::scene::scene(&m, &placed, &self.stats, files, &self.roots, &options);
        for d in &model.diagnostics {
            eprintln!("warning: {}", d.display_with(name));
        }
        Ok(model)
    }
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
    let files = crate::files::disk();
    let mut scene =
        SceneRenderer::with_samples(&gpu.device, &gpu.queue, args.msaa, crate::files::disk());
    let (w, h) = args.size;
    let target = RenderTarget::with_samples(&gpu.device, w, h, args.msaa);
    let view = map_view(args);
    let data = Data::for_input(&input, args);
    let draw = |scene: &mut SceneRenderer, level: &map::MapSource, out: &std::path::Path| {
        let name = level.name.clone();
        super::catch_per_file(&level.folder, || {
            let model = data.scene(level, !args.no_objects, &name)?;
            let img = render_model(&gpu, scene, &target, &model, &view, None)?;
            write_png_atomic(out, &img)
        })
    };
    if !args.all_maps {
        let result = map::open_source(files, &input, args.level.as_deref())
            .map_err(|e| e.to_string())
            .and_then(|level| draw(&mut scene, &level, &args.output));
        return match result {
            Ok(()) => super::exit::OK,
            Err(e) => {
                eprintln!("vitrine render: {e}");
                super::exit::FAILED
            }
        };
    }
    let levels = match map::find_maps(files, &input) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("vitrine render: {e}");
            return super::exit::FAILED;
        }
    };
    let start = Instant::now();
    let mut failures = Vec::new();
    for level in &levels {
        let out = args.output.join(format!("{}.png", safe_name(&level.name)));
        if let Err(e) = draw(&mut scene, level, &out) {
            failures.push((level.name.clone(), e));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let drawn = levels.len() - failures.len();
    eprintln!(
        "{drawn} of {} maps rendered to {} in {secs:.2} s ({:.2} maps/s)",
        levels.len(),
        args.output.display(),
        drawn as f64 / secs.max(1e-9)
    );
    super::report_failures(&failures)
}

/// A level's name as a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
fn safe_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.trim_matches('.').is_empty() {
        "map".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names_make_safe_file_names() {
        assert_eq!(safe_name("Sk-Rush"), "Sk-Rush");
        assert_eq!(safe_name("a/b c"), "a_b_c");
        assert_eq!(safe_name(".."), "map");
    }
}
