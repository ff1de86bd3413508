//! The command line: `vitrine [FILE]` opens the viewer; `vitrine info`, `vitrine render`
//! and `vitrine export` work without a window; `vitrine completions` prints shell
//! completions, `vitrine manpage` the man page (both from this one clap definition: the
//! packages install them); `vitrine thumbnail` is the file managers' thumbnailer.
//!
//! Every subcommand shares the loader flags ([`LoadArgs`]: `--data`, the PMF rules), the
//! input syntax (files, folders, archives, `mod.wz!/path/in/archive.pie`, expanded by
//! [`crate::files::walk`]) and the exit codes ([`exit`]).

pub mod animate;
pub mod assemble;
pub mod check;
mod choice;
pub mod convert;
pub mod desktop;
pub mod export;
pub mod info;
pub mod light;
pub mod map_info;
pub mod maptools;
pub mod maptools_info;
pub mod maptools_preview;
pub(crate) mod progress;
pub mod publish;
pub mod render;
pub mod render_map;
pub mod thumbnail;

use crate::files::FileRef;
use crate::formats::LoadOptions;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Exit codes, the same for every subcommand (listed in `--help`).
pub mod exit {
    /// Everything worked.
    pub const OK: i32 = 0;
    /// Some inputs failed (could not be read, loaded, rendered or written); the others
    /// were processed.
    pub const FAILED: i32 = 1;
    /// The command line was wrong (clap's own code for usage errors).
    pub const USAGE: i32 = 2;
    /// No GPU adapter: nothing can be rendered (install a Vulkan driver; Mesa's CPU
    /// driver works without a GPU).
    pub const NO_GPU: i32 = 3;
}

const AFTER_HELP: &str = "\
Inputs: a model file (.pie .pmf .pet .apet .bpet .mpet .tpm .glb .gltf .obj), a folder (searched
recursively; links to folders are not followed), an archive (.wz, .zip), or one entry
inside an archive written as ARCHIVE!/PATH, e.g. 'mods/tanks.wz!/components/bodies/body.pie'
(quote it: '!' is special in some shells).

Examples:
  vitrine                                  open the viewer on the demo model
  vitrine model.pie                        open a model in the viewer
  vitrine info --json data/base            one JSON line per model under a folder
  vitrine info mymod.wz --data mp.wz --data base.wz
  vitrine render tank.pie -o tank.png --size 1024x1024 --team red
  vitrine render data/base -o thumbs --size 256x256
  vitrine render 'mp.wz!/components/bodies/drlbod01.pie' -o body.png --data data/base
  vitrine convert body.pie -o out/body.pie --pie 4
  vitrine convert mymod.wz -o converted/ --data data/mp --data data/base
  vitrine publish mymod.wz -o site/ --data data/mp --data data/base --serve
  vitrine completions bash > ~/.local/share/bash-completion/completions/vitrine
  vitrine install-desktop                  launcher, file types and icon for this user

Exit codes (every subcommand):
  0  success
  1  some inputs failed (the others were processed);
     vitrine check: warnings, with --deny warnings
  2  usage error; vitrine check: errors found (see vitrine check --help)
  3  no GPU adapter (vitrine render)";

/// The version `--version` prints: the crate's, the commit and the day it was built
/// (build.rs, `vitrine_build_probe::build_stamp`).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("VITRINE_COMMIT"),
    ", built ",
    env!("VITRINE_BUILD_DATE"),
    ")"
);

/// Vitrine — a viewer for retro game 3D models (Warzone 2100 PIE, PMF, PangYa PET, Trespasser TPM).
#[derive(Debug, Parser)]
#[command(
    name = "vitrine",
    version = VERSION,
    about,
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Command to run; without one the viewer window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Model to open in the viewer (default: the bundled demo model); may be
    /// ARCHIVE!/PATH.
    pub file: Option<PathBuf>,
}

/// Subcommands.
// One value a run, parsed once: the render options' size (600 bytes) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what a model file holds (text, or one JSON object per file with --json).
    Info(info::InfoArgs),
    /// Render a model (or every model under a folder or in an archive) to PNG without a
    /// window, or one model's clip or turntable to an animated GIF, APNG, WebP or PNG
    /// sequence.
    Render(render::RenderArgs),
    /// Lint models, folders and .wz mods against what the games accept (exit 0 clean,
    /// 1 warnings with --deny warnings, 2 errors).
    Check(check::CheckArgs),
    /// Export a model (or every model under a folder or in an archive) to glTF 2.0
    /// (.glb or .gltf).
    Export(export::ExportArgs),
    /// Convert models (PIE 2/3/4, PMF, PET, TPM and every other format Vitrine opens) to
    /// Warzone 2100 PIE 3 or 4, checked with the `vitrine check` rules before writing.
    Convert(convert::ConvertArgs),
    /// Write a static site showing a mod (gallery page, web viewer, one site.wz of the
    /// files its models need) for GitHub Pages, itch.io or any web host; --serve shows it.
    Publish(publish::PublishArgs),
    /// Add Vitrine to the desktop's applications and make it the program for .pie, .pmf,
    /// .pet/.apet/.bpet/.mpet, .tpm and .wz files, and one offered for .glb/.gltf/.obj (Linux
    /// and other freedesktop.org desktops; writes under ~/.local/share). --uninstall
    /// removes it again.
    InstallDesktop(desktop::DesktopArgs),
    /// The map database's tool in Vitrine's place, with maptools' arguments: `vitrine
    /// maptools package info` writes the JSON `maptools package info` writes, `package
    /// genpreview` a map's preview PNG (3D, or --2d flat); a `maptools` script running
    /// `vitrine maptools "$@"` swaps one for the other.
    Maptools(maptools::MaptoolsArgs),
    /// Render one model to a square PNG for a file manager's thumbnails (the
    /// `.thumbnailer` file's `Exec=vitrine thumbnail %i %o %s`): nothing written on
    /// failure, a time budget.
    Thumbnail(thumbnail::ThumbnailArgs),
    /// Print shell completions (bash, zsh, fish, powershell, elvish) to standard output.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff, section 1) to standard output: what packages install
    /// as vitrine.1.
    #[command(hide = true)]
    Manpage,
}

/// The loader flags every subcommand takes.
#[derive(Debug, Clone, Default, Args)]
pub struct LoadArgs {
    /// A data root searched for textures, event models and game data after the model's
    /// own folder (repeatable, first wins, like the game: a mod over mp over base): a
    /// folder or an archive (.wz, .zip). E.g. a Warzone 2100 data folder, a Trespasser
    /// data root (`Map\Lab\x.bmp` is looked up under it), a PangYa texture folder.
    #[arg(long = "data", alias = "texture-root", value_name = "PATH")]
    pub data: Vec<PathBuf>,
    /// PMF transform rules.
    #[command(flatten)]
    pub pmf: info::PmfArgs,
    /// The Warzone 2100 tileset PIE models are drawn for: its own PIE 4 TEXTURE lines,
    /// and the pages the game's rules script swaps (page-7 barbarians, page-8/9
    /// structure bases).
    #[arg(long, value_name = "TILESET", default_value = "arizona", value_parser = tileset_parser())]
    pub tileset: crate::formats::pie::Tileset,
    /// How PET ANIM rotation keys are read: `conjugated` (the default, as the other PET
    /// readers read the game's files) or `as-stored` (the plain reading this project's
    /// synthetic samples were written with).
    #[arg(long, value_name = "READING", default_value = "conjugated", value_parser = pet_rotations_parser())]
    pub pet_rotations: crate::formats::pet::PetRotations,
    /// How a Warzone 2100 map's terrain is drawn: `blended` (the default: the tileset's
    /// ground textures blended by ground type with the decal tiles over them, as the game
    /// 4.3 draws it; the classic tiles, with a note, where the data has no ground
    /// textures) or `classic` (the 128-pixel tile images only).
    #[arg(long, value_name = "MODE", default_value = "blended", value_parser = terrain_parser())]
    pub terrain: vitrine_core::map::scene::TerrainMode,
}

/// `--terrain`'s values.
fn terrain_parser()
-> impl clap::builder::TypedValueParser<Value = vitrine_core::map::scene::TerrainMode> {
    use clap::builder::TypedValueParser;
    use vitrine_core::map::scene::TerrainMode;
    clap::builder::PossibleValuesParser::new(["blended", "classic"]).map(|s| match s.as_str() {
        "classic" => TerrainMode::Classic,
        _ => TerrainMode::Blended,
    })
}

/// `--tileset`'s values, offered by completion and `--help`.
fn tileset_parser() -> impl clap::builder::TypedValueParser<Value = crate::formats::pie::Tileset> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["arizona", "urban", "rockies"]).map(|s| {
        s.parse::<crate::formats::pie::Tileset>()
            .unwrap_or_default()
    })
}

/// `--pet-rotations`' values.
fn pet_rotations_parser()
-> impl clap::builder::TypedValueParser<Value = crate::formats::pet::PetRotations> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["conjugated", "as-stored"]).map(|s| {
        s.parse::<crate::formats::pet::PetRotations>()
            .unwrap_or_default()
    })
}

impl LoadArgs {
    /// The loader settings these flags ask for.
    pub fn options(&self) -> LoadOptions {
        LoadOptions {
            data_roots: self.data.iter().map(|p| crate::files::parse(p)).collect(),
            pmf: self.pmf.options(),
            tileset: self.tileset,
            pet_rotations: self.pet_rotations,
            map_terrain: self.terrain,
            map_seed: None,
        }
    }
}

/// Prints completions for `shell` to standard output.
pub fn completions(shell: clap_complete::Shell) -> i32 {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    clap_complete::generate(shell, &mut cmd, "vitrine", &mut std::io::stdout());
    exit::OK
}

/// Prints the man page (roff) of the whole command line, subcommands included, to
/// standard output.
pub fn manpage() -> i32 {
    match manpage_to(&mut std::io::stdout().lock()) {
        Ok(()) => exit::OK,
        Err(e) => {
            eprintln!("vitrine manpage: {e}");
            exit::FAILED
        }
    }
}

/// Writes the man page to `out`: `vitrine(1)`, then one section per visible subcommand
/// (its about line, usage and options), from the clap definition.
pub fn manpage_to(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use clap::CommandFactory;
    let cmd = Cli::command().version(env!("CARGO_PKG_VERSION"));
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    // clap_mangen lists each subcommand as a page of its own (`vitrine\-info(1)`); here
    // they are sections of this page, named as they are typed.
    let mut list = Vec::new();
    man.render_subcommands_section(&mut list)?;
    for line in String::from_utf8_lossy(&list).lines() {
        match line
            .strip_prefix("vitrine\\-")
            .and_then(|l| l.strip_suffix("(1)"))
        {
            Some(name) => writeln!(out, "\\fBvitrine {name}\\fR")?,
            None => writeln!(out, "{line}")?,
        }
    }
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        writeln!(out, ".SH \"VITRINE {}\"", sub.get_name().to_uppercase())?;
        let sub = sub.clone().bin_name(format!("vitrine {}", sub.get_name()));
        let man = clap_mangen::Man::new(sub);
        let mut body = Vec::new();
        man.render_synopsis_section(&mut body)?;
        man.render_description_section(&mut body)?;
        man.render_options_section(&mut body)?;
        man.render_extra_section(&mut body)?;
        // Each part opens with its own .SH; within the subcommand they are .SS.
        let body = String::from_utf8_lossy(&body).replace(".SH ", ".SS ");
        out.write_all(body.as_bytes())?;
    }
    man.render_extra_section(out)?;
    man.render_version_section(out)?;
    Ok(())
}

/// The line that closes a batch of maps on standard error: how many of `total` were
/// `verb` (previewed, rendered) into `out`, in how long and how fast.
pub fn map_batch_summary(
    verb: &str,
    failed: usize,
    total: usize,
    out: &std::path::Path,
    start: std::time::Instant,
) {
    let secs = start.elapsed().as_secs_f64();
    let done = total - failed;
    eprintln!(
        "{done} of {total} maps {verb} to {} in {secs:.2} s ({:.2} maps/s)",
        out.display(),
        done as f64 / secs.max(1e-9)
    );
}

/// The end of a batch: lists the inputs that failed (file, error) on standard error and
/// gives the exit code — [`exit::OK`] when none did, [`exit::FAILED`] otherwise.
pub fn report_failures(failures: &[(String, String)]) -> i32 {
    if failures.is_empty() {
        return exit::OK;
    }
    eprintln!("{} failed:", failures.len());
    for (p, e) in failures {
        eprintln!("  {p}: {e}");
    }
    exit::FAILED
}

/// Runs `f` for one input of a batch; a panic (a bug in a loader or the renderer) becomes
/// an error naming the file, so one bad file never ends a batch of thousands.
pub fn catch_per_file<T>(
    file: &FileRef,
    f: impl FnOnce() -> Result<T, String>,
) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(panic) => {
            let what =
                crate::crash::payload_text(&*panic).unwrap_or_else(|| "unknown panic".into());
            Err(format!(
                "{file}: internal error: crashed while processing this file ({what}); please report it"
            ))
        }
    }
}

/// What a batch summary ("N of M models … ; K failed") counts as one input: one model
/// the batch makes an output for (a model file; a PangYa character's part files together,
/// as they make one picture or one glTF), plus one per input or archive entry the walk
/// could not read. Every failure line is one of them, so N + K = M in `render` and
/// `export` alike. Warnings of the walk (duplicate archive entries, ignored non-model
/// names) are not inputs.
pub fn batch_total(outputs: usize, walk: &crate::files::walk::Walk) -> usize {
    outputs + walk.errors.len()
}

/// Prints the walk's warnings (entries of an archive that are not read) on standard
/// error, one `warning: PATH: MESSAGE` line each.
pub fn print_walk_warnings(walk: &crate::files::walk::Walk) {
    for (path, message) in &walk.warnings {
        let line = format!("warning: {path}: {message}");
        eprintln!("{}", crate::files::printable_text(&line));
    }
}

/// Expands the inputs of a subcommand into model files (see [`crate::files::walk`]).
pub fn model_inputs(inputs: &[PathBuf]) -> crate::files::walk::Walk {
    crate::files::walk::walk(inputs, crate::formats::is_model_name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_man_page_has_a_section_per_subcommand_and_names_them_as_typed() {
        let mut page = Vec::new();
        super::manpage_to(&mut page).unwrap();
        let page = String::from_utf8(page).unwrap();
        assert!(
            page.starts_with(".ie") && page.contains(".TH vitrine 1"),
            "{page}"
        );
        for sub in [
            "INFO",
            "RENDER",
            "CHECK",
            "PUBLISH",
            "THUMBNAIL",
            "COMPLETIONS",
        ] {
            assert!(page.contains(&format!(".SH \"VITRINE {sub}\"")), "{sub}");
        }
        assert!(page.contains("\\fBvitrine thumbnail\\fR\n"), "{page}");
        assert!(!page.contains("(1)"), "no other page is referred to");
        assert!(
            !page.to_lowercase().contains("manpage"),
            "the hidden subcommand"
        );
    }
}
