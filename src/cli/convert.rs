//! `vitrine convert`: models of any format Vitrine opens → Warzone 2100 PIE 3 or 4.
//!
//! One file: `vitrine convert FILE -o out.pie` (or an existing folder). Several inputs, a
//! folder or an archive: every model under each, written to the `-o` folder mirroring
//! its path (`structs/blbhq.pie` → `OUT/structs/blbhq.pie`). Each input goes through the
//! normal loader dispatch ([`crate::formats::load_with`]), then the PIE writer
//! ([`crate::export::pie`]); the text it wrote is read back and checked with the
//! `vitrine check` rules before anything is written: an error stops that model (the
//! rule's message says what to do), warnings are printed. `--dry-run` prints the
//! findings and the writer's warnings and writes nothing. Files are written through
//! [`crate::files::atomic`]. Exit codes as every subcommand (1: some inputs failed).

use crate::check::{CheckOptions, Checker, Level, report};
use crate::export::pie::{self, PieOptions, PieVersion};
use crate::export::pie_pack;
use crate::files::{self, FileRef, atomic};
use crate::formats::{self, LoadOptions, resolve::Resolver};
use crate::model::Model;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Arguments of `vitrine convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Model files, folders or archives (.wz, .zip); ARCHIVE!/PATH for one entry.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output `.pie` file (one input file), or output folder.
    #[arg(short, long)]
    pub output: PathBuf,
    /// PIE version written: 3 (every game release reads it) or 4 (game 4.4+: TCMASK,
    /// per-level settings, tileset lines).
    #[arg(long = "pie", value_name = "VERSION", default_value = "3", value_parser = ["3", "4"])]
    pub pie: String,
    /// Model units → PIE units [default: 1 for PIE and for a glTF `vitrine export` made
    /// of a PIE (read back in PIE units), 128 for the other formats: one model unit = one
    /// game tile].
    #[arg(long, value_name = "S")]
    pub scale: Option<f32>,
    /// Texture page every level names (renames the page; a derived team-colour mask
    /// follows), e.g. page-11-player-buildings.png.
    #[arg(long, value_name = "PAGE")]
    pub texture: Option<String>,
    /// Copy the pages the model uses (base colour, team-colour mask, normal and specular
    /// maps) as PNG into texpages/ under the names the PIE gives them: the first
    /// texpages/ up the output's path, or the mod's root one above components/, structs/…
    /// (where the game reads pages), else a new one beside it. A page already there with
    /// other bytes is never replaced: the model is not written.
    #[arg(long)]
    pub pack: bool,
    /// Print the findings and warnings; write nothing.
    #[arg(long = "dry-run")]
    pub dry_run: bool,
    /// Data roots (searched for textures too) and PMF rules.
    #[command(flatten)]
    pub load: super::LoadArgs,
}

impl ConvertArgs {
    /// The writer's options.
    pub fn options(&self) -> PieOptions {
        PieOptions {
            version: if self.pie == "4" {
                PieVersion::V4
            } else {
                PieVersion::V3
            },
            scale: self.scale,
            texture: self.texture.clone(),
            comment: Some(format!("written by Vitrine {}", env!("CARGO_PKG_VERSION"))),
        }
    }
}

/// What converting one model gave.
#[derive(Debug, Default)]
pub struct Converted {
    /// Lines to print (warnings and findings).
    pub lines: Vec<String>,
    /// Levels written.
    pub levels: usize,
}

/// How [`convert_file`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Flushed before the rename.
    Synced,
    /// A batch: renamed without a flush per file.
    Batch,
    /// Nothing is written.
    DryRun,
}

/// `--pack`: the `texpages/` folder the pages go to, and the pages this run wrote.
pub type Pack<'a> = Option<(&'a Path, &'a pie_pack::Claimed)>;

/// Loads `file`, writes it as PIE, checks the text and writes it to `out` (with its
/// pages under `pack`'s folder).
///
/// # Errors
/// The model does not load, the writer cannot write it, a check rule at error level
/// refuses the text, a page to pack is there with other bytes, or a file cannot be
/// written.
pub fn convert_file(
    (resolver, checker): (&mut Resolver, &mut Checker),
    file: &FileRef,
    (out, pack): (&Path, Pack<'_>),
    load_options: &LoadOptions,
    options: &PieOptions,
    mode: Mode,
) -> Result<Converted, String> {
    let model = formats::load_with(resolver, file, load_options).map_err(|e| e.to_string())?;
    let shown = out.display().to_string();
    let near = [file.clone(), files::parse(out)];
    let written = pie::write(&model, options).map_err(|e| format!("{file}: {e}"))?;
    let planned = match pack {
        Some((dir, claimed)) => {
            pie_pack::plan(crate::files::disk(), &model, &written, dir, claimed)
                .map_err(|e| format!("{file}: {e}"))?
        }
        None => pie_pack::Planned::default(),
    };
    let checked = pie::checked::check(written, checker, &near, &shown, &planned.provided);
    let written = &checked.written;
    let mut result = Converted {
        levels: written.levels,
        ..Converted::default()
    };
    result.lines.extend(
        written
            .warnings
            .iter()
            .map(|w| format!("{}: warning: {w}", file.file_name())),
    );
    let shown_level = if mode == Mode::DryRun {
        Level::Note
    } else {
        Level::Warning
    };
    result
        .lines
        .extend(checked.below_errors(shown_level).map(report::human_line));
    if checked.blocked() {
        let mut lines: Vec<String> = checked.errors().map(report::human_line).collect();
        lines.extend(way_out(&checked, &model, file, (out, pack.is_some())));
        return Err(format!(
            "not written, the game would not load it:\n    {}",
            lines.join("\n    ")
        ));
    }
    result.lines.extend(planned.lines.iter().cloned());
    if mode != Mode::DryRun {
        result
            .lines
            .extend(pie_pack::write(&crate::files::DiskOutput, &planned)?);
    }
    match mode {
        Mode::DryRun => {}
        Mode::Synced => atomic::write(out, written.text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?,
        Mode::Batch => atomic::write_unsynced(out, written.text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?,
    }
    Ok(result)
}

/// How to succeed when pages are found nowhere: `--pack` for those the model holds (a
/// page packed in a `.glb`, an image beside it), `--data` for the others.
fn way_out(
    checked: &pie::CheckedPie,
    model: &Model,
    file: &FileRef,
    (out, packing): (&Path, bool),
) -> Vec<String> {
    // Packing already: what is still missing has no image in the model.
    let packable = if packing {
        Vec::new()
    } else {
        checked.packable(model)
    };
    let elsewhere: Vec<&String> = checked
        .missing
        .iter()
        .filter(|m| !packable.contains(m))
        .collect();
    let list = |pages: &[&String]| {
        pages
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines = Vec::new();
    if !packable.is_empty() {
        let folder = out.parent().filter(|p| !p.as_os_str().is_empty());
        let texpages = pie_pack::texpages_for(files::disk(), folder.unwrap_or(Path::new(".")));
        lines.push(format!(
            "to write it: --pack copies {} from {} into {}, where the game reads pages \
             (or --data ROOT names the mod or game data whose texpages/ has {})",
            list(&packable.iter().collect::<Vec<_>>()),
            file.file_name(),
            texpages.display(),
            if packable.len() == 1 { "it" } else { "them" }
        ));
    }
    if !elsewhere.is_empty() {
        lines.push(format!(
            "to write it: --data ROOT names the mod or game data whose texpages/ has {} \
             (or put {} in the mod's texpages/)",
            list(&elsewhere),
            if elsewhere.len() == 1 { "it" } else { "them" }
        ));
    }
    lines
}

fn check_options(load: &LoadOptions) -> CheckOptions {
    CheckOptions {
        data_roots: load.data_roots.clone(),
        allow: Vec::new(),
    }
}

/// Runs `vitrine convert`; returns the process exit code.
pub fn run(args: &ConvertArgs) -> i32 {
    if let Some(s) = args.scale
        && !(s.is_finite() && s > 0.0)
    {
        eprintln!("vitrine convert: --scale {s}: expected a positive number");
        return super::exit::USAGE;
    }
    if let Some(t) = &args.texture
        && (t.is_empty() || t.contains(['/', '\\']))
    {
        eprintln!("vitrine convert: --texture {t:?}: expected a page file name");
        return super::exit::USAGE;
    }
    let options = args.options();
    let load_options = args.load.options();
    let single = match args.inputs.as_slice() {
        [one] => Some(files::parse(one)).filter(files::is_file),
        _ => None,
    };
    let Some(input) = single else {
        return run_batch(args, &options, &load_options);
    };
    let out = if args.output.is_dir() {
        args.output.join(format!("{}.pie", input.stem()))
    } else {
        args.output.clone()
    };
    if !out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pie"))
    {
        eprintln!(
            "vitrine convert: {}: the output must end in .pie (or be a folder)",
            out.display()
        );
        return super::exit::USAGE;
    }
    let mode = if args.dry_run {
        Mode::DryRun
    } else {
        Mode::Synced
    };
    let mut checker = Checker::new(files::disk(), check_options(&load_options));
    let claimed = pie_pack::Claimed::default();
    let pages =
        pie_pack::texpages_for(crate::files::disk(), out.parent().unwrap_or(Path::new(".")));
    let pack = args.pack.then_some((pages.as_path(), &claimed));
    let result = super::catch_per_file(&input, || {
        convert_file(
            (&mut Resolver::new(files::disk()), &mut checker),
            &input,
            (&out, pack),
            &load_options,
            &options,
            mode,
        )
    });
    match result {
        Ok(c) => {
            for l in &c.lines {
                eprintln!("{l}");
            }
            if args.dry_run {
                eprintln!(
                    "dry run: {} would be written ({} levels, PIE {})",
                    out.display(),
                    c.levels,
                    options.version.number()
                );
            } else {
                eprintln!("wrote {} ({} levels)", out.display(), c.levels);
            }
            super::exit::OK
        }
        Err(e) => {
            eprintln!("vitrine convert: {e}");
            super::exit::FAILED
        }
    }
}

/// A model and the path it is written to.
type Job = (FileRef, PathBuf);
/// An input that could not be read, and why.
type WalkError = (String, String);

/// The models of every input and their output paths under `-o`, mirroring each
/// input's relative paths.
fn plan(args: &ConvertArgs) -> (Vec<Job>, Vec<WalkError>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for input in &args.inputs {
        let walk = super::model_inputs(std::slice::from_ref(input));
        errors.extend(walk.errors.clone());
        let base = files::parse(input);
        let base = if files::is_file(&base) {
            base.parent().unwrap_or(base)
        } else {
            base
        };
        for item in super::render::output_names(&walk.files, &base) {
            let rel = item.output.strip_suffix(".png").unwrap_or(&item.output);
            items.push((item.file, args.output.join(format!("{rel}.pie"))));
        }
    }
    (items, errors)
}

fn run_batch(args: &ConvertArgs, options: &PieOptions, load_options: &LoadOptions) -> i32 {
    let (items, walk_errors) = plan(args);
    let total = items.len();
    let mode = if args.dry_run {
        Mode::DryRun
    } else {
        Mode::Batch
    };
    let start = std::time::Instant::now();
    let next = AtomicUsize::new(0);
    let claimed = pie_pack::Claimed::default();
    let pages = pie_pack::texpages_for(crate::files::disk(), &args.output);
    let pack = args.pack.then_some((pages.as_path(), &claimed));
    let mut results: Vec<Option<Result<Converted, String>>> = Vec::new();
    results.resize_with(total, || None);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(total)
        .max(1);
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..threads {
            let (tx, next, items) = (tx.clone(), &next, &items);
            s.spawn(move || {
                let mut resolver = Resolver::new(files::disk());
                let mut checker = Checker::new(files::disk(), check_options(load_options));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((file, out)) = items.get(i) else {
                        break;
                    };
                    let result = super::catch_per_file(file, || {
                        let state = (&mut resolver, &mut checker);
                        convert_file(state, file, (out, pack), load_options, options, mode)
                    });
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, result) in rx {
            results[i] = Some(result);
        }
    });
    let secs = start.elapsed().as_secs_f64();
    let walk_failed = walk_errors.len();
    let mut failures = walk_errors;
    let mut warned = 0usize;
    for ((file, _), result) in items.iter().zip(results) {
        match result {
            Some(Ok(c)) => {
                warned += usize::from(!c.lines.is_empty());
                for l in &c.lines {
                    eprintln!("{l}");
                }
            }
            Some(Err(e)) => failures.push((file.to_string(), e)),
            None => failures.push((file.to_string(), "not converted".into())),
        }
    }
    let failed = failures.len() - walk_failed;
    eprintln!(
        "{} of {total} models {} {} as PIE {} in {secs:.2} s ({:.0} models/s); {warned} with warnings",
        total.saturating_sub(failed),
        if args.dry_run {
            "checked for"
        } else {
            "converted to"
        },
        args.output.display(),
        options.version.number(),
        total as f64 / secs.max(1e-9),
    );
    super::report_failures(&failures)
}
