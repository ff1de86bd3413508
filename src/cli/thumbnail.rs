//! `vitrine thumbnail INPUT OUTPUT SIZE`: the file managers' thumbnailer
//! (`packaging/linux/vitrine.thumbnailer`, whose `Exec` line is
//! `vitrine thumbnail %i %o %s`, after the freedesktop.org thumbnail specification).
//!
//! One model (or, for a `.wz`/`.zip` archive or a folder, the first model in it; for a
//! Warzone 2100 map package, its map as `vitrine render` previews it) is
//! rendered to a SIZE×SIZE PNG with a transparent background, without a window and
//! without anti-aliasing (the file manager scales the picture down anyway; one sample
//! per pixel is the faster draw on a CPU rasteriser). The PNG appears at OUTPUT only
//! when it is whole (temporary file + rename); on any failure nothing is written and the
//! exit code is 1.
//!
//! A time budget (`--timeout`, 5 s by default) bounds the whole process: a watchdog
//! thread ends the process with exit code 1 when it runs out (a huge archive, a GPU
//! driver that never answers), so a file manager never waits on a thumbnail forever. It
//! waits for a write already under way, so the budget never leaves a temporary file.
//!
//! Non-goals: no textures from a game data folder (a thumbnailer gets one file; a model's
//! own folder and archive are searched as always), no animation pose.

use super::exit;
use crate::render::{Gpu, RenderTarget, SceneRenderer, ViewSettings};
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Arguments of `vitrine thumbnail`.
#[derive(Debug, Args)]
#[command(after_help = "\
Made for file managers (packaging/linux/vitrine.thumbnailer: Exec=vitrine thumbnail %i %o %s).
Exit 0 with OUTPUT written, or 1 with nothing written (the reason on standard error).

Example:
  vitrine thumbnail tank.pie /tmp/tank.png 256")]
pub struct ThumbnailArgs {
    /// The model (or an archive or folder: its first model).
    pub input: PathBuf,
    /// The PNG to write.
    pub output: PathBuf,
    /// Width and height in pixels (1–2048).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=2048))]
    pub size: u32,
    /// Seconds the whole process may take before it gives up (exit 1, nothing written).
    #[arg(long, default_value = "5", value_parser = parse_timeout, value_name = "SECONDS")]
    pub timeout: Duration,
}

/// Parses `--timeout`: seconds, more than 0 and at most an hour.
fn parse_timeout(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s}: not a number of seconds"))?;
    if secs > 0.0 && secs <= 3600.0 {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(format!("{s}: the budget goes from above 0 to 3600 seconds"))
    }
}

/// Runs `vitrine thumbnail`; returns the exit code.
pub fn run(args: &ThumbnailArgs) -> i32 {
    let writing = Arc::new(Mutex::new(()));
    watchdog(args.timeout, Arc::clone(&writing));
    match render(&args.input, args.size) {
        Ok(png) => {
            // Held until the process ends: the watchdog never cuts a write in half.
            let _writing = writing.lock().unwrap_or_else(|p| p.into_inner());
            match crate::files::atomic::write_unsynced(&args.output, &png) {
                Ok(()) => exit::OK,
                Err(e) => fail(&format!("{}: {e}", args.output.display())),
            }
        }
        Err(e) => fail(&e),
    }
}

fn fail(e: &str) -> i32 {
    eprintln!("vitrine thumbnail: {e}");
    exit::FAILED
}

/// Ends the process with [`exit::FAILED`] after `budget`, unless a write holds `writing`
/// (then right after it). `_exit`: no exit handlers run, so a GPU driver's own threads
/// cannot hold the exit up.
fn watchdog(budget: Duration, writing: Arc<Mutex<()>>) {
    std::thread::spawn(move || {
        std::thread::sleep(budget);
        let _guard = writing.lock().unwrap_or_else(|p| p.into_inner());
        eprintln!(
            "vitrine thumbnail: gave up after {:.1} s (--timeout); nothing written",
            budget.as_secs_f64()
        );
        #[cfg(unix)]
        // SAFETY: `_exit` ends the process at once; it takes no pointer and touches no
        // Rust state.
        unsafe {
            libc::_exit(exit::FAILED)
        };
        #[cfg(not(unix))]
        std::process::exit(exit::FAILED);
    });
}

/// The model `input` names: itself, or the first model of an archive or folder.
fn model_file(input: &Path) -> Result<crate::files::FileRef, String> {
    let file = crate::files::parse(input);
    if crate::files::is_file(&file) && crate::formats::is_model_name(&file.file_name()) {
        return Ok(file);
    }
    let walk = super::model_inputs(&[input.to_path_buf()]);
    if let Some(f) = walk.files.into_iter().next() {
        return Ok(f);
    }
    match walk.errors.into_iter().next() {
        Some((path, e)) => Err(format!("{path}: {e}")),
        None => Err(format!("{}: no model in it", input.display())),
    }
}

/// The PNG bytes of the thumbnail of `input`: a map package's (or map folder's) map
/// drawn as its preview ([`super::render_map::thumbnail`]), else its model.
fn render(input: &Path, size: u32) -> Result<Vec<u8>, String> {
    let as_given = crate::files::parse(input);
    if super::map_info::is_map_input(&as_given, None) {
        let gpu = Gpu::headless().map_err(|e| e.to_string())?;
        let mut scene =
            SceneRenderer::with_samples(&gpu.device, &gpu.queue, 1, crate::files::disk());
        let target = RenderTarget::with_samples(&gpu.device, size, size, 1);
        let img = super::catch_per_file(&as_given, || {
            super::render_map::thumbnail(&gpu, &mut scene, &target, &as_given)
        })?;
        return super::render::encode_png_fast(input, &img);
    }
    let file = model_file(input)?;
    let options = crate::formats::LoadOptions::default();
    let model = super::catch_per_file(&file, || {
        crate::formats::load(&file, &options).map_err(|e| e.to_string())
    })?;
    let gpu = Gpu::headless().map_err(|e| e.to_string())?;
    let mut scene = SceneRenderer::with_samples(&gpu.device, &gpu.queue, 1, crate::files::disk());
    let target = RenderTarget::with_samples(&gpu.device, size, size, 1);
    let mut view = ViewSettings::default();
    view.background[3] = 0;
    let img = super::catch_per_file(&file, || {
        super::render::render_model(&gpu, &mut scene, &target, &model, &view, None)
    })?;
    super::render::encode_png_fast(input, &img)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn takes_the_thumbnailer_exec_line_and_checks_its_numbers() {
        let parse = |a: &[&str]| crate::cli::Cli::try_parse_from(a);
        let Ok(crate::cli::Cli {
            command: Some(crate::cli::Command::Thumbnail(t)),
            ..
        }) = parse(&["vitrine", "thumbnail", "/m/a b.pie", "/tmp/o.png", "128"])
        else {
            panic!("not parsed as thumbnail");
        };
        assert_eq!(
            (t.input, t.output, t.size, t.timeout),
            (
                "/m/a b.pie".into(),
                "/tmp/o.png".into(),
                128,
                Duration::from_secs(5)
            )
        );
        assert!(parse(&["vitrine", "thumbnail", "a.pie", "o.png", "0"]).is_err());
        assert!(parse(&["vitrine", "thumbnail", "a.pie", "o.png", "4096"]).is_err());
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_timeout("0").is_err() && parse_timeout("x").is_err());
    }
}
