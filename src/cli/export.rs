//! `vitrine export`: models to glTF 2.0 (`.glb` or `.gltf`) or Wavefront OBJ (`.obj` +
//! `.mtl` + PNGs) without a window.
//!
//! One file (loose or `mod.wz!/path`): `vitrine export FILE -o out.glb` (or `out.gltf`,
//! or an existing folder). A folder or archive: every model under it, in one process,
//! output names mirroring the relative paths as `render` names its pictures
//! (`structs/blbhq.pie` → `OUTDIR/structs/blbhq.glb`, a PangYa character once), texture
//! pages decoded and encoded once for the whole batch, one thread per core, progress on
//! stderr; a model that fails (or crashes) is reported and the batch goes on; exit codes
//! as every subcommand.

use crate::export::gltf::{
    self as gltf_export, ClipChoice, ExportOptions, ImageCache, TextureFrames, writer,
};
use crate::files::{self, FileRef};
use crate::formats::{self, LoadOptions, resolve::Resolver};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Container for the files of a folder export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Binary glTF: one file per model, textures embedded.
    Glb,
    /// JSON glTF with `.bin` and PNG files beside it.
    Gltf,
    /// Wavefront OBJ with its `.mtl` and the texture PNGs beside it (geometry at rest).
    Obj,
}

/// `--texture-frames`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextureFramesArg {
    /// Animated KHR_texture_transform offsets through KHR_animation_pointer.
    Pointer,
    /// Described in the material's extras, not animated.
    Extras,
}

/// Arguments of `vitrine export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Model file, or a folder (or archive): every model below it is exported.
    pub input: PathBuf,
    /// Output `.glb` / `.gltf` / `.obj` file (for a file), or output folder.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Team colour baked into team-coloured textures: 0–15 or a name (green, orange,
    /// grey, black, red, blue, …) [default: the viewer's current team].
    #[arg(long, value_parser = crate::cli::render::parse_team)]
    pub team: Option<usize>,
    /// Export only this clip (or PangYa motion) [default: the model's first clip, or all
    /// motions of a PangYa character].
    #[arg(long, value_name = "NAME", conflicts_with_all = ["all_clips", "no_clips"])]
    pub clip: Option<String>,
    /// Export every clip.
    #[arg(long = "all-clips", conflicts_with = "no_clips")]
    pub all_clips: bool,
    /// Export no animation (the rest pose only).
    #[arg(long = "no-clips")]
    pub no_clips: bool,
    /// Uniform scale [default: 1/128 for PIE (128 units = one tile, so a tank is about a
    /// metre long), 1 for the other formats].
    #[arg(long, value_name = "S")]
    pub scale: Option<f32>,
    /// How PIE texture-frame animation is written: `pointer` (KHR_animation_pointer,
    /// read by Blender 4.2+) or `extras` (described in the material's extras only, for
    /// readers that reject the extension, such as Bevy).
    #[arg(long = "texture-frames", value_enum, default_value = "pointer")]
    pub texture_frames: TextureFramesArg,
    /// Container of a folder export's files (a single file's comes from its extension).
    #[arg(long, value_enum, default_value = "glb")]
    pub format: FormatArg,
    /// Data roots and PMF rules.
    #[command(flatten)]
    pub load: super::LoadArgs,
}

impl ExportArgs {
    /// The export settings these arguments ask for (`team` when `--team` is not given).
    pub fn options(&self, team: usize) -> ExportOptions {
        let clips = match (&self.clip, self.all_clips, self.no_clips) {
            (Some(name), _, _) => ClipChoice::Named(name.clone()),
            (None, true, _) => ClipChoice::All,
            (None, false, true) => ClipChoice::None,
            (None, false, false) => ClipChoice::Default,
        };
        ExportOptions {
            team: self.team.unwrap_or(team),
            clips,
            scale: self.scale,
            texture_frames: match self.texture_frames {
                TextureFramesArg::Pointer => TextureFrames::Pointer,
                TextureFramesArg::Extras => TextureFrames::Extras,
            },
        }
    }
}

/// The team the viewer was last showing (its saved settings: `settings.json` in
/// [`crate::files::folders::config_dir`], the window's `SettingsFile`), else green.
fn viewer_team() -> usize {
    let Some(dir) = crate::files::folders::config_dir() else {
        return 0;
    };
    let file = crate::files::FileRef::Disk(dir.join("settings.json"));
    crate::files::read(&file).map_or(0, |json| saved_team(&json))
}

/// The `team` of the window's settings in `json`, read alone (the command line builds
/// without the window's settings): green when missing, unreadable or out of range.
fn saved_team(json: &[u8]) -> usize {
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct Saved {
        team: usize,
    }
    serde_json::from_slice::<Saved>(json)
        .ok()
        .map(|s| s.team)
        .filter(|&t| t < crate::render::TEAM_COLOURS.len())
        .unwrap_or(0)
}

/// How [`export_file`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flush {
    /// Flushed to disk before the rename (one file).
    Each,
    /// Renamed into place without a flush per file (a batch; see
    /// [`crate::files::atomic::write_unsynced`]).
    Batch,
}

/// Loads, exports and writes one model; returns the export's warnings.
pub fn export_file(
    resolver: &mut Resolver,
    cache: &mut ImageCache,
    file: &FileRef,
    (out, flush): (&Path, Flush),
    load_options: &LoadOptions,
    options: &ExportOptions,
) -> Result<Vec<String>, String> {
    let model = formats::load_with(resolver, file, load_options).map_err(|e| e.to_string())?;
    if crate::export::obj::is_obj_path(out) {
        let obj_options = crate::export::obj::ObjOptions {
            team: options.team,
            scale: options.scale,
        };
        let doc = crate::export::obj::export(&model, &obj_options, cache)
            .map_err(|e| format!("{file}: {e}"))?;
        let warnings = doc.warnings.clone();
        crate::export::obj::write(doc, out)
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        return Ok(warnings);
    }
    let doc = gltf_export::export(&model, options, cache).map_err(|e| format!("{file}: {e}"))?;
    let warnings = doc.warnings.clone();
    let written = match flush {
        Flush::Each => writer::write(doc, out),
        Flush::Batch => writer::write_unsynced(doc, out),
    };
    written.map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(warnings)
}

/// Runs `vitrine export`; returns the process exit code.
pub fn run(args: &ExportArgs) -> i32 {
    if let Some(s) = args.scale
        && !(s.is_finite() && s > 0.0)
    {
        eprintln!("vitrine export: --scale {s}: expected a positive number");
        return super::exit::USAGE;
    }
    let options = args.options(if args.team.is_some() {
        0
    } else {
        viewer_team()
    });
    let load_options = args.load.options();
    let input = crate::files::parse(&args.input);
    if !files::is_file(&input) {
        return run_batch(args, &input, &options, &load_options);
    }
    let out = if args.output.is_dir() {
        let ext = match args.format {
            FormatArg::Glb => "glb",
            FormatArg::Gltf => "gltf",
            FormatArg::Obj => "obj",
        };
        args.output.join(format!("{}.{ext}", input.stem()))
    } else {
        args.output.clone()
    };
    if writer::Container::for_path(&out).is_none() && !crate::export::obj::is_obj_path(&out) {
        eprintln!(
            "vitrine export: {}: the output must end in .glb, .gltf or .obj (or be a folder)",
            out.display()
        );
        return super::exit::USAGE;
    }
    let mut cache = ImageCache::new(crate::files::disk());
    let result = super::catch_per_file(&input, || {
        export_file(
            &mut Resolver::new(crate::files::disk()),
            &mut cache,
            &input,
            (&out, Flush::Each),
            &load_options,
            &options,
        )
    });
    match result {
        Ok(warnings) => {
            for w in warnings {
                eprintln!("warning: {}: {w}", input.file_name());
            }
            eprintln!("wrote {}", out.display());
            super::exit::OK
        }
        Err(e) => {
            eprintln!("vitrine export: {e}");
            super::exit::FAILED
        }
    }
}

/// Threads of a batch export: one per core (each loads, builds and writes whole models;
/// texture pages are shared through the cache).
fn batch_threads(models: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(models)
        .max(1)
}

fn run_batch(
    args: &ExportArgs,
    input: &FileRef,
    options: &ExportOptions,
    load_options: &LoadOptions,
) -> i32 {
    let walk = super::model_inputs(std::slice::from_ref(&args.input));
    let ext = match args.format {
        FormatArg::Glb => "glb",
        FormatArg::Gltf => "gltf",
        FormatArg::Obj => "obj",
    };
    // The same names as `render`'s pictures (no collisions, a PangYa character once).
    let items = super::render::output_names(&walk.files, input);
    let rels: Vec<String> = items
        .iter()
        .map(|item| {
            let rel = item.output.strip_suffix(".png").unwrap_or(&item.output);
            format!("{rel}.{ext}")
        })
        .collect();
    let cache = ImageCache::new(crate::files::disk());
    let start = std::time::Instant::now();
    let total = items.len();
    let progress = super::progress::Progress::new(total, "exporting");
    // Each thread takes the next model; the results come back here, where progress is
    // shown and the failures are listed in input order.
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Result<Vec<String>, String>>> = vec![None; total];
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..batch_threads(total) {
            let (tx, next, items, rels) = (tx.clone(), &next, &items, &rels);
            let mut cache = cache.clone();
            s.spawn(move || {
                let mut resolver = Resolver::new(crate::files::disk());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let (Some(item), Some(rel)) = (items.get(i), rels.get(i)) else {
                        break;
                    };
                    let out = args.output.join(rel);
                    let file = &item.file;
                    let result = super::catch_per_file(file, || {
                        let to = (out.as_path(), Flush::Batch);
                        export_file(&mut resolver, &mut cache, file, to, load_options, options)
                    });
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (n, (i, result)) in rx.into_iter().enumerate() {
            results[i] = Some(result);
            progress.set(n + 1, &rels[i]);
        }
    });
    progress.finish();
    let secs = start.elapsed().as_secs_f64();
    let mut failures: Vec<(String, String)> = walk.errors.clone();
    let mut warned = 0usize;
    for (item, result) in items.iter().zip(results) {
        match result {
            Some(Ok(w)) => warned += usize::from(!w.is_empty()),
            Some(Err(e)) => failures.push((item.file.to_string(), e)),
            None => failures.push((item.file.to_string(), "not exported".into())),
        }
    }
    let inputs = super::batch_total(total, &walk);
    super::print_walk_warnings(&walk);
    eprintln!(
        "{} of {inputs} models exported to {} in {secs:.2} s ({:.1} models/s); {} texture images encoded; {warned} with warnings",
        inputs - failures.len(),
        args.output.display(),
        total as f64 / secs.max(1e-9),
        cache.encodes(),
    );
    for item in items.iter().filter(|i| !i.grouped.is_empty()) {
        let names: Vec<String> = item.grouped.iter().map(FileRef::file_name).collect();
        eprintln!(
            "grouped: {} is one character with {}: exported once",
            item.file.file_name(),
            names.join(", "),
        );
    }
    super::report_failures(&failures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: ExportArgs,
    }

    #[test]
    fn clip_flags_pick_the_animations() {
        let parse = |a: &[&str]| Wrap::try_parse_from([&["x", "m.pie", "-o", "m.glb"], a].concat());
        let o = |a: &[&str]| parse(a).unwrap().args.options(3);
        assert_eq!(o(&[]).clips, ClipChoice::Default);
        assert_eq!(o(&[]).team, 3, "the viewer's team when --team is not given");
        assert_eq!(o(&["--team", "red"]).team, 4);
        assert_eq!(
            o(&["--clip", "walk"]).clips,
            ClipChoice::Named("walk".into())
        );
        assert_eq!(o(&["--all-clips"]).clips, ClipChoice::All);
        assert_eq!(o(&["--no-clips"]).clips, ClipChoice::None);
        assert!(parse(&["--clip", "walk", "--all-clips"]).is_err());
    }

    /// The team read alone is the one the window's settings hold.
    #[cfg(feature = "gui")]
    #[test]
    fn the_saved_team_is_the_windows() {
        use crate::app::settings::Settings;
        for team in 0..crate::render::TEAM_COLOURS.len() {
            let settings = Settings {
                team,
                ..Settings::default()
            };
            let json = serde_json::to_vec(&settings).unwrap();
            assert_eq!(super::saved_team(&json), team);
            assert_eq!(Settings::from_json(&json).unwrap().team, team);
        }
        assert_eq!(super::saved_team(b"{\"team\": 99}"), 0, "out of range");
        assert_eq!(super::saved_team(b"not json"), 0);
        assert_eq!(super::saved_team(b"{}"), 0);
    }
}
