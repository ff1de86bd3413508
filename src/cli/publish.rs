//! `vitrine publish INPUT... -o SITE/`: a static site that shows a mod to forum readers
//! (a gallery page, the web viewer and one `site.wz` of exactly the files the models
//! need). The work is [`crate::publish`]'s; this is the command line.

use clap::Args;
use std::path::PathBuf;

/// Arguments of `vitrine publish`.
#[derive(Debug, Args)]
#[command(after_help = "\
SITE gets index.html (the gallery), view.html + vitrine.js + vitrine_bg.wasm + icon.png (the
web viewer, copied from --page, with the engines it fetches when a map needs them:
vitrine_engines.js, vitrine_script.js + _bg.wasm, vitrine_ktx2.js + _bg.wasm), thumbs/*.png, site.wz (every input model and only the
texture pages, stats and part models they and the mod's templates and structures need,
at their data-folder paths) and site.json. Any static host serves it (GitHub Pages,
itch.io); see README, \"Publishing a mod\".

SITE must be new, empty, or a site publish wrote before (then only the files publish
writes are replaced); --force writes into any folder, still replacing only those files.

Example:
  vitrine publish mymod.wz --data data/mp --data data/base -o site --title 'My tanks' --serve")]
pub struct PublishArgs {
    /// The mod: a .wz/.zip, a folder, model files, or ARCHIVE!/PATH entries.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The site folder to write (created).
    #[arg(short, long, value_name = "SITE")]
    pub output: PathBuf,
    /// Data roots and loader rules (the game's data the mod sits on: --data data/mp
    /// --data data/base), searched after the inputs.
    #[command(flatten)]
    pub load: super::LoadArgs,
    /// The page's title [default: the first input's name].
    #[arg(long)]
    pub title: Option<String>,
    /// The author shown in the footer.
    #[arg(long)]
    pub author: Option<String>,
    /// Licence text shown in the footer (the models' own licence is the modder's to
    /// state).
    #[arg(long, alias = "license")]
    pub licence: Option<String>,
    /// The built web page (web/build.sh OUT) [default: $VITRINE_WEB_DIR, else web/ next
    /// to the program, else target/web of a source checkout].
    #[arg(long, value_name = "DIR")]
    pub page: Option<PathBuf>,
    /// Write tiles without pictures (no GPU needed).
    #[arg(long)]
    pub no_thumbnails: bool,
    /// Write into a folder that holds other files (only publish's own files are
    /// replaced).
    #[arg(long)]
    pub force: bool,
    /// After writing, serve SITE on 127.0.0.1 until Ctrl-C.
    #[arg(long)]
    pub serve: bool,
    /// The port for --serve [default: a free one].
    #[arg(long, requires = "serve")]
    pub port: Option<u16>,
}

/// Runs `vitrine publish`; returns the process exit code ([`super::exit`]).
pub fn run(args: &PublishArgs) -> i32 {
    crate::publish::run(args)
}
