//! `vitrine render FILE -o out.gif|out.apng|out.webp` and `-o 'frames/{n}.png' --animate`:
//! a clip once through, a range of it, or a turntable, through the same
//! [`crate::export::animation::export`] the window's Export animation dialog runs.
//! Progress goes to stderr when it is a terminal; one summary line ends the run.

use super::render::{RenderArgs, parse_colour};
use crate::export::animation::{
    Encoding, ExportError, Format, FramePlan, Job, Motion, Progress, Summary, export, frame_camera,
};
use crate::formats;
use crate::model::Model;
use crate::render::{Gpu, ViewSettings};
use clap::Args;
use std::sync::Arc;

/// Options of animated output (ignored for a still PNG).
#[derive(Debug, Clone, Args)]
pub struct AnimateArgs {
    /// Write a PNG sequence: with `-o 'frames/{n}.png'` ({n} = 0001, 0002, …) or
    /// `-o name.png` (name_0001.png, …). `.gif`, `.apng` and `.webp` outputs are animated
    /// without it.
    #[arg(long)]
    pub animate: bool,
    /// Frames per second of an animation [default: the clip's own; 25 for a turntable
    /// without a clip]; at most 50.
    #[arg(long, value_name = "N")]
    pub fps: Option<f32>,
    /// A turntable: the camera orbits 360° about the model in SECONDS (with --clip the
    /// clip plays meanwhile, else the model stands in its rest pose).
    #[arg(long, value_name = "SECONDS")]
    pub turntable: Option<f32>,
    /// Only frames FIRST to LAST of the clip (e.g. 10-25).
    #[arg(long, value_name = "FIRST-LAST", value_parser = parse_range)]
    pub range: Option<(u32, u32)>,
    /// Crop every frame to one box around the model over the whole animation.
    #[arg(long)]
    pub crop: bool,
    /// Margin around the cropped model, pixels.
    #[arg(long, value_name = "PX", default_value_t = 8)]
    pub margin: u32,
    /// GIF: no dithering (smaller files, banding on smooth shading).
    #[arg(long)]
    pub no_dither: bool,
    /// GIF with --transparent: the page colour that edge pixels are blended over.
    #[arg(long, value_parser = parse_colour, value_name = "#RRGGBB")]
    pub matte: Option<[u8; 3]>,
    /// Times the animation plays (0 = forever).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub loops: u32,
    /// WebP: lossy at this quality (0–100) instead of lossless.
    #[arg(long, value_name = "Q")]
    pub quality: Option<f32>,
}

/// Parses `FIRST-LAST`.
fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once('-')
        .ok_or_else(|| format!("{s}: expected FIRST-LAST, e.g. 10-25"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| format!("{v}: not a frame number"))
    };
    let (a, b) = (n(a)?, n(b)?);
    if a > b {
        return Err(format!("{s}: the first frame is after the last"));
    }
    Ok((a, b))
}

/// The animation format `args` ask for: `None` for a still PNG.
pub fn requested(args: &RenderArgs) -> Result<Option<Format>, String> {
    let format = Format::from_path(&args.output);
    match (format, args.animate.animate) {
        (Some(Format::PngSequence), false) | (None, false) => Ok(None),
        (Some(f), _) => Ok(Some(f)),
        (None, true) => Err(format!(
            "{}: --animate writes PNG frames; name the output .png (or use .gif, .apng, .webp)",
            args.output.display()
        )),
    }
}

/// What to animate in `model`.
fn motion(args: &RenderArgs, model: &Model) -> Result<Motion, String> {
    if args.anim.frame.is_some() || args.anim.time.is_some() {
        return Err("--frame and --time pick a still; an animation has every frame".into());
    }
    let clip_named = |name: &str| {
        model.clip_index(name).ok_or_else(|| {
            let names: Vec<_> = model
                .clips
                .iter()
                .map(|c| format!("{:?}", c.name))
                .collect();
            format!("no clip {name:?} (clips: {})", names.join(", "))
        })
    };
    if let Some(seconds) = args.animate.turntable {
        let clip = args.anim.clip.as_deref().map(clip_named).transpose()?;
        return Ok(Motion::Turntable { seconds, clip });
    }
    let clip = match &args.anim.clip {
        Some(name) => clip_named(name)?,
        None if model.clips.is_empty() => {
            return Err("the model has no animation clip; use --turntable SECONDS".into());
        }
        None => 0,
    };
    let (first, last) = args
        .animate
        .range
        .unwrap_or((0, model.clips[clip].frame_count.saturating_sub(1)));
    Ok(Motion::Clip { clip, first, last })
}

/// Runs an animated `vitrine render`; returns the exit code ([`super::exit`]).
pub fn run(args: &RenderArgs, format: Format) -> i32 {
    use super::exit;
    let design = crate::cli::assemble::design_model(args);
    let input = crate::files::parse(&args.input.clone().unwrap_or_default());
    // A map over its data roots, drawn as a still map is (the game's sun).
    let is_map = design.is_none() && crate::cli::render_map::requested(args);
    if design.is_none() && !is_map && !crate::files::is_file(&input) {
        eprintln!(
            "vitrine render: {input}: an animation is made of one model file or assembly, not a folder or archive"
        );
        return exit::USAGE;
    }
    let gpu = match Gpu::headless() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("vitrine render: {e}");
            return exit::NO_GPU;
        }
    };
    let loaded = match design {
        Some((label, model)) => model.map(|m| (label, m, args.view_settings())),
        None if is_map => crate::cli::render_map::map_model(args),
        None => formats::load(&input, &args.load.options())
            .map(|m| (input.file_name(), m, args.view_settings()))
            .map_err(|e| e.to_string()),
    };
    let (name, model, view) = match loaded {
        Ok(m) => m,
        Err(e) => {
            eprintln!("vitrine render: {e}");
            return exit::FAILED;
        }
    };
    for d in &model.diagnostics {
        eprintln!("warning: {}", d.display_with(&name));
    }
    let job = match job(args, format, model, view) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("vitrine render: {name}: {e}");
            return exit::FAILED;
        }
    };
    match run_job(&gpu, &job) {
        Ok(s) => {
            eprintln!("{}", summary_line(&s));
            exit::OK
        }
        Err(e) => {
            eprintln!("vitrine render: {e}");
            exit::FAILED
        }
    }
}

/// The export job `args` describe for `model`, drawn with `view` (its camera framed here).
pub fn job(
    args: &RenderArgs,
    format: Format,
    model: Model,
    mut view: ViewSettings,
) -> Result<Job, String> {
    let a = &args.animate;
    let plan = FramePlan::new(&model, motion(args, &model)?, a.fps)?;
    view.camera = frame_camera(&model, &plan, &view, args.size);
    Ok(Job {
        model: Arc::new(model),
        plan,
        view,
        size: args.size,
        samples: args.msaa,
        crop_margin: a.crop.then_some(a.margin),
        encoding: Encoding {
            format,
            dither: !a.no_dither,
            matte: a.matte.unwrap_or([255, 255, 255]),
            loops: a.loops,
            webp_quality: a.quality.map(|q| q.clamp(0.0, 100.0)),
        },
        output: args.output.clone(),
    })
}

/// Runs `job`, showing its progress ([`super::progress`]).
fn run_job(gpu: &Gpu, job: &Job) -> Result<Summary, ExportError> {
    let progress = Progress::default();
    let mut line = super::progress::Progress::polled("rendering and encoding");
    let (output, beside) = (crate::files::DiskOutput, crate::export::EncoderThread);
    let result = std::thread::scope(|s| {
        let worker = s.spawn(|| {
            export(
                &output,
                Some(&beside),
                &gpu.device,
                &gpu.queue,
                job,
                &progress,
            )
        });
        while !worker.is_finished() {
            std::thread::sleep(std::time::Duration::from_millis(100));
            let (done, total) = progress.get();
            if total > 0 {
                line.set_total(total as usize);
                line.set(done as usize, "frames");
            }
        }
        worker
            .join()
            .unwrap_or_else(|_| Err(ExportError::Failed("the export crashed".into())))
    });
    line.finish();
    result
}

/// `out.gif: 48 frames, 4.00 s, 512×512, 1.23 MB (1234567 bytes), in 2.10 s (22.9 frames/s)`.
pub fn summary_line(s: &Summary) -> String {
    format!(
        "{}: {} frames, {:.2} s, {}×{}, {:.2} MB ({} bytes), in {:.2} s ({:.1} frames/s)",
        s.path.display(),
        s.frames,
        s.duration,
        s.size.0,
        s.size.1,
        s.bytes as f64 / 1e6,
        s.bytes,
        s.seconds,
        s.frames as f64 / s.seconds.max(1e-9)
    )
}
