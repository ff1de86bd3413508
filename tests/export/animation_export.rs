//! Animation export end to end: `vitrine render -o x.gif|x.apng|x.webp` and the library's
//! `export`, read back with independent decoders and compared with still renders.
//! GPU tests are marked `#[vitrine_test(gpu)]`: ignored where the build found no adapter.

use crate::animation_support;
use crate::common;

use animation_support::{Decoded, alpha_box, decode, decode_apng};
use common::image_diff::diff;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use vitrine::export::animation::{
    Encoding, ExportError, Format, FramePlan, Job, Motion, Progress, export, frame_camera,
};
use vitrine::render::{RenderTarget, SceneRenderer, ViewSettings};
use vitrine_test_needs::vitrine_test;

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("anim-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Three frames at 4 fps: a level that moves, turns and grows, another hidden in frames
/// 0 and 2.
fn animated_fixture() -> PathBuf {
    common::fixtures().join("pie/animobject_hidden.pie")
}

fn demo_tank() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/tank.pie")
}

/// Runs `vitrine render` with `args`; panics with its stderr unless it succeeds.
fn render(args: &[&str], input: &Path, output: &Path) -> String {
    let out = vitrine()
        .arg("render")
        .args(args)
        .arg(input)
        .arg("-o")
        .arg(output)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "vitrine render failed: {stderr}");
    stderr
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[vitrine_test(gpu)]
fn each_format_holds_the_clip_and_its_frames_match_stills() {
    crate::common::needs_gpu();
    let dir = out_dir("formats");
    let model = animated_fixture();
    let common_args = ["--size", "96x80"];
    let stills: Vec<image::RgbaImage> = (0..3)
        .map(|f| {
            let p = dir.join(format!("still{f}.png"));
            let mut args = common_args.to_vec();
            let n = f.to_string();
            args.extend(["--frame", &n]);
            render(&args, &model, &p);
            image::open(&p).unwrap().into_rgba8()
        })
        .collect();
    for ext in ["gif", "apng", "webp"] {
        let out = dir.join(format!("clip.{ext}"));
        let summary = render(&common_args, &model, &out);
        assert!(summary.contains("3 frames, 0.75 s"), "{ext}: {summary}");
        let d: Decoded = decode(&out);
        if ext == "webp" {
            // libwebp merges identical consecutive frames (here 0 and 1) into one shown
            // for both frame times: it plays the same.
            assert!((2..=3).contains(&d.frames.len()), "{ext}: frame count");
        } else {
            assert_eq!(d.frames.len(), 3, "{ext}: frame count");
        }
        assert!(
            (d.duration_ms() - 750.0).abs() <= 10.0,
            "{ext}: lasts {} ms",
            d.duration_ms()
        );
        assert!(d.forever, "{ext}: loops forever");
        for f in [0, 1, 2] {
            let (got, want) = (d.frame_at(f as f64 * 250.0 + 1.0), &stills[f]);
            if ext == "gif" {
                // 255 colours (dithered): close on average, no pixel far off.
                let mean = diff(got, want).mean();
                assert!(mean < 4.0, "gif frame {f}: mean error {mean}");
                assert!(diff(got, want).max() < 96, "gif frame {f}");
            } else {
                assert!(
                    diff(got, want).max() <= 1,
                    "{ext} frame {f} differs from the still"
                );
            }
        }
        // The animation moves: frames 0 and 2 differ.
        assert!(
            diff(d.frame_at(0.0), d.frame_at(501.0)).mean() > 0.5,
            "{ext}: frames 0 and 2 are the same"
        );
    }
    // Nothing but the outputs and stills in the folder (no temporary files).
    assert_eq!(
        names(&dir),
        [
            "clip.apng",
            "clip.gif",
            "clip.webp",
            "still0.png",
            "still1.png",
            "still2.png"
        ]
    );
}

#[vitrine_test(shared, gpu)]
fn derrick_gif_plays_its_25_frames_in_one_and_a_half_seconds() {
    let wz = common::wz2100();
    crate::common::needs_gpu();
    let dir = out_dir("derrick");
    let out = dir.join("derrick.gif");
    render(
        &["--size", "64x64", "--no-dither"],
        &wz.join("data/base/structs/blderik_anim.pie"),
        &out,
    );
    let d = decode(&out);
    assert_eq!(d.frames.len(), 25);
    // 60 ms per frame: 6/100 s each, 1.5 s in all.
    assert!(
        d.delays_ms.iter().all(|&ms| ms == 60.0),
        "{:?}",
        d.delays_ms
    );
    assert!(d.forever);
}

/// A GPU, the demo tank and a turntable job of `frames` frames at 8 fps.
fn turntable_job(gpu: &vitrine::render::Gpu, format: Format, frames: u32, output: PathBuf) -> Job {
    let _ = gpu;
    let model = vitrine::formats::load_path(&demo_tank(), &Default::default()).unwrap();
    let motion = Motion::Turntable {
        seconds: frames as f32 / 8.0,
        clip: None,
    };
    let plan = FramePlan::new(&model, motion, Some(8.0)).unwrap();
    let mut view = ViewSettings::default();
    view.camera = frame_camera(&model, &plan, &view, (72, 64));
    Job {
        model: Arc::new(model),
        plan,
        view,
        size: (72, 64),
        samples: vitrine::render::MSAA_SAMPLES,
        crop_margin: None,
        encoding: Encoding {
            format,
            ..Encoding::default()
        },
        output,
    }
}

#[vitrine_test(gpu)]
fn turntable_frame_k_is_the_camera_turned_by_k_steps() {
    let gpu = crate::common::gpu();
    let dir = out_dir("turntable");
    let job = turntable_job(&gpu, Format::Apng, 8, dir.join("turn.apng"));
    let summary = export(
        &vitrine::files::DiskOutput,
        Some(&vitrine::export::EncoderThread),
        &gpu.device,
        &gpu.queue,
        &job,
        &Progress::default(),
    )
    .unwrap();
    assert_eq!((summary.frames, summary.size), (8, (72, 64)));
    let d = decode_apng(&job.output);
    assert_eq!(d.frames.len(), 8);
    let mut scene = SceneRenderer::new(&gpu.device, &gpu.queue, vitrine::files::disk());
    scene.set_model(&gpu.device, &gpu.queue, &job.model);
    let target = RenderTarget::new(&gpu.device, 72, 64);
    let pose = vitrine::model::Pose::rest(&job.model);
    let mut still = |k: u32| {
        let mut view = job.view.clone();
        view.camera.yaw += std::f32::consts::TAU * k as f32 / 8.0;
        scene.render(&gpu.device, &gpu.queue, &target, &pose, &view);
        target.read_rgba(&gpu.device, &gpu.queue).unwrap()
    };
    for k in [0, 3, 7] {
        let s = still(k);
        assert!(
            diff(&d.frames[k as usize], &s).mean() < 0.05,
            "frame {k} is not the view turned by {k}/8 of a turn"
        );
    }
    // No duplicated frame at the seam: the last frame is one step before the first, and
    // one more step comes back to the first.
    assert!(diff(&d.frames[7], &d.frames[0]).mean() > 1.0);
    assert!(diff(&still(8), &d.frames[0]).mean() < 0.05);
}

#[vitrine_test(gpu)]
fn transparent_background_and_crop_to_content() {
    crate::common::needs_gpu();
    let dir = out_dir("crop");
    let margin = 6;
    let out = dir.join("tank.apng");
    render(
        &[
            "--size",
            "128x128",
            "--transparent",
            "--crop",
            "--margin",
            "6",
            "--turntable",
            "1",
            "--fps",
            "6",
        ],
        &demo_tank(),
        &out,
    );
    let d = decode(&out);
    assert_eq!(d.frames.len(), 6);
    let (w, h) = d.frames[0].dimensions();
    assert!(w < 128 && h < 128, "cropped: {w}×{h}");
    let mut union: Option<(u32, u32, u32, u32)> = None;
    for (i, f) in d.frames.iter().enumerate() {
        assert_eq!(f.dimensions(), (w, h), "frame {i} has its own size");
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
            assert_eq!(
                f.get_pixel(x, y).0[3],
                0,
                "frame {i}: corner ({x}, {y}) not transparent"
            );
        }
        let opaque = f.pixels().filter(|p| p.0[3] == 255).count();
        assert!(
            opaque * 10 > (w * h) as usize,
            "frame {i}: the model is not opaque"
        );
        let b = alpha_box(f).expect("the model is in the frame");
        union = Some(match union {
            None => b,
            Some(u) => (u.0.min(b.0), u.1.min(b.1), u.2.max(b.2), u.3.max(b.3)),
        });
    }
    // The box over all frames sits exactly `margin` pixels inside every edge.
    assert_eq!(
        union,
        Some((margin, margin, w - 1 - margin, h - 1 - margin))
    );

    // A transparent GIF: corners transparent, the model opaque.
    let gif = dir.join("tank.gif");
    render(
        &[
            "--size",
            "64x64",
            "--transparent",
            "--turntable",
            "0.5",
            "--fps",
            "4",
        ],
        &demo_tank(),
        &gif,
    );
    let d = decode(&gif);
    assert_eq!(d.frames.len(), 2);
    for f in &d.frames {
        assert_eq!(f.get_pixel(0, 0).0[3], 0);
        assert_eq!(f.get_pixel(32, 32).0[3], 255, "the tank's middle is opaque");
    }
}

#[vitrine_test(gpu)]
fn cancel_leaves_no_file() {
    let gpu = crate::common::gpu();
    for format in [Format::Apng, Format::Gif, Format::PngSequence] {
        let dir = out_dir(&format!("cancel-{}", format.extension()));
        let job = turntable_job(
            &gpu,
            format,
            40,
            dir.join(format!("tank.{}", format.extension())),
        );
        let progress = Progress::default();
        let result = std::thread::scope(|s| {
            let worker = s.spawn(|| {
                export(
                    &vitrine::files::DiskOutput,
                    Some(&vitrine::export::EncoderThread),
                    &gpu.device,
                    &gpu.queue,
                    &job,
                    &progress,
                )
            });
            while progress.get().0 < 5 && !worker.is_finished() {
                std::thread::yield_now();
            }
            progress.cancel();
            worker.join().unwrap()
        });
        assert_eq!(result.unwrap_err(), ExportError::Cancelled, "{format:?}");
        assert!(names(&dir).is_empty(), "{format:?} left {:?}", names(&dir));
    }
}

#[vitrine_test(gpu)]
fn png_sequence_numbers_its_frames() {
    crate::common::needs_gpu();
    let dir = out_dir("sequence");
    let model = animated_fixture();
    render(
        &["--size", "48x48", "--animate"],
        &model,
        &dir.join("frames/{n}.png"),
    );
    assert_eq!(
        names(&dir.join("frames")),
        ["0001.png", "0002.png", "0003.png"]
    );
    render(
        &["--size", "48x48", "--frame", "2"],
        &model,
        &dir.join("still.png"),
    );
    let last = image::open(dir.join("frames/0003.png"))
        .unwrap()
        .into_rgba8();
    let still = image::open(dir.join("still.png")).unwrap().into_rgba8();
    assert_eq!(
        diff(&last, &still).max(),
        0,
        "frame 0003 is not clip frame 2"
    );
}

#[vitrine_test(gpu)]
fn bad_requests_are_clear_errors_not_panics() {
    crate::common::needs_gpu();
    let dir = out_dir("errors");
    let blocker = dir.join("file");
    std::fs::write(&blocker, b"x").unwrap();
    let cases: [(&[&str], PathBuf, &str); 4] = [
        (&[], blocker.join("out.gif"), "file"),
        (&["--frame", "1"], dir.join("a.gif"), "--frame"),
        (&["--clip", "nope"], dir.join("b.apng"), "no clip \"nope\""),
        (&["--turntable", "0"], dir.join("c.webp"), "turntable"),
    ];
    for (args, output, says) in cases {
        let out = vitrine()
            .arg("render")
            .args(args)
            .arg(animated_fixture())
            .arg("-o")
            .arg(&output)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    assert_eq!(names(&dir), ["file"]);
}
