//! `vitrine render` end to end through the binary, on the shared synthetic corpus (PMF and
//! TPM models). Marked `#[vitrine_test(shared, gpu)]`: ignored without either.

use crate::common;
use crate::render_support;

use std::path::Path;
use std::process::Command;
use vitrine_test_needs::vitrine_test;

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

fn out_dir(name: &str) -> std::path::PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("render-cli-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[vitrine_test(shared, gpu)]
fn single_file_is_framed_sized_and_transparent() {
    let Some(dir) = common::synthetic() else {
        return;
    };
    crate::common::needs_gpu();
    let out = out_dir("single").join("robot.png");
    let status = vitrine()
        .args([
            "render",
            "--size",
            "200x150",
            "--transparent",
            "--view",
            "front",
        ])
        .arg(dir.join("pmf/robot.pmf"))
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let img = image::open(&out).unwrap().into_rgba8();
    assert_eq!(img.dimensions(), (200, 150));
    assert_eq!(img.get_pixel(0, 0).0[3], 0, "background is not transparent");
    let (x0, y0, x1, y1) =
        render_support::foreground_box(&img, [48, 52, 60, 0]).expect("the model is visible");
    let (cx, cy) = ((x0 + x1) as f32 / 2.0, (y0 + y1) as f32 / 2.0);
    assert!(
        (cx - 100.0).abs() < 8.0 && (cy - 75.0).abs() < 8.0,
        "centre ({cx}, {cy})"
    );
    // The tighter axis is filled to 60–95 %.
    let fill = ((x1 - x0 + 1) as f32 / 200.0).max((y1 - y0 + 1) as f32 / 150.0);
    assert!((0.6..=0.95).contains(&fill), "fills {fill}");
    // No temp file left behind.
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name() != "robot.png")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[vitrine_test(shared, gpu)]
fn batch_renders_every_model_and_reports_failures_at_the_end() {
    let Some(dir) = common::synthetic() else {
        return;
    };
    crate::common::needs_gpu();
    // Input: the synthetic TPM folder (with its textures), a PMF in a subfolder, and a
    // broken model in the middle of the alphabet.
    let input = out_dir("batch-in");
    for e in std::fs::read_dir(dir.join("tpm")).unwrap().flatten() {
        std::fs::copy(e.path(), input.join(e.file_name())).unwrap();
    }
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(dir.join("pmf/crate.pmf"), input.join("sub/crate.pmf")).unwrap();
    std::fs::write(input.join("m_broken.tpm"), b"not a tpm file at all").unwrap();
    let output = out_dir("batch-out");
    let result = vitrine()
        .args(["render", "--size", "64x64"])
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("1 failed") && stderr.contains("m_broken.tpm"),
        "{stderr}"
    );
    for rel in [
        "lab_scene.png",
        "plane_quirks.png",
        "tail_skin.png",
        "sub/crate.png",
    ] {
        let img = image::open(output.join(rel))
            .unwrap_or_else(|e| panic!("{rel}: {e}\n{stderr}"))
            .into_rgba8();
        assert_eq!(img.dimensions(), (64, 64));
        assert!(
            render_support::foreground_box(&img, [48, 52, 60, 255]).is_some(),
            "{rel} is blank"
        );
    }
    assert!(!output.join("m_broken.png").exists());
}

#[test]
fn bad_options_are_refused() {
    for args in [
        ["--size", "0x10"],
        ["--team", "mauve"],
        ["--view", "under"],
        ["--background", "#12345"],
    ] {
        let status = vitrine()
            .arg("render")
            .args(args)
            .args(["x.pmf", "-o", "/tmp/x.png"])
            .output()
            .unwrap();
        assert_eq!(status.status.code(), Some(2), "{args:?} accepted");
    }
}

#[vitrine_test(shared, gpu)]
fn msaa_1_draws_the_same_model_with_hard_edges_and_4_with_soft_ones() {
    let Some(dir) = common::synthetic() else {
        return;
    };
    crate::common::needs_gpu();
    let out = out_dir("msaa");
    let render = |samples: &str| {
        let png = out.join(format!("robot-{samples}.png"));
        let status = vitrine()
            .args([
                "render",
                "--size",
                "160x160",
                "--transparent",
                "--msaa",
                samples,
            ])
            .arg(dir.join("pmf/robot.pmf"))
            .arg("-o")
            .arg(&png)
            .status()
            .unwrap();
        assert!(status.success(), "--msaa {samples}");
        image::open(&png).unwrap().into_rgba8()
    };
    let (soft, hard) = (render("4"), render("1"));
    let partly_covered =
        |img: &image::RgbaImage| img.pixels().filter(|p| (1..255).contains(&p.0[3])).count();
    // Transparent background: an edge pixel's alpha is the share of its samples the
    // model covers.
    assert_eq!(
        partly_covered(&hard),
        0,
        "one sample: every pixel in or out"
    );
    assert!(
        partly_covered(&soft) > 50,
        "four samples: anti-aliased edges"
    );
    let covered_box = |img: &image::RgbaImage| {
        let mut alpha = img.clone();
        alpha
            .pixels_mut()
            .for_each(|p| p.0 = [0, 0, 0, p.0[3].min(1)]);
        render_support::foreground_box(&alpha, [0, 0, 0, 0])
    };
    let a = covered_box(&soft).expect("visible with 4 samples");
    let b = covered_box(&hard).expect("visible with 1 sample");
    let close = |x: u32, y: u32| x.abs_diff(y) <= 1;
    assert!(
        close(a.0, b.0) && close(a.1, b.1) && close(a.2, b.2) && close(a.3, b.3),
        "same framing: {a:?} vs {b:?}"
    );
}

/// Issue 31 item 8: without a display session (no `XDG_RUNTIME_DIR`, `DISPLAY` or
/// `WAYLAND_DISPLAY`, as on a build server), a render that succeeds says nothing is
/// wrong. The offscreen instance used to enable Vulkan's window-system extensions, and
/// Mesa's device-select layer then connected to Wayland, printing
/// `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` twice.
#[vitrine_test(gpu)]
fn headless_render_prints_no_error_without_a_display_session() {
    common::needs_gpu();
    let out = out_dir("headless").join("tank.png");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/tank.pie");
    let run = vitrine()
        .args(["render", "--size", "64x48"])
        .arg(&demo)
        .arg("-o")
        .arg(&out)
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "render failed: {stderr}");
    assert!(out.is_file(), "no PNG written");
    assert!(
        !stderr.to_lowercase().contains("error"),
        "a successful render printed an error:\n{stderr}"
    );
}
