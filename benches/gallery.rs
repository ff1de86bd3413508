//! The gallery's figures for docs/performance.md, measured in the real window layout driven by
//! egui_kittest with egui-wgpu painting every frame (each frame is also read back to the
//! CPU, which the window does not do: the frame times here are an upper bound).
//!
//! - `mp.wz` (over `data/base`), cold cache: time to the first screen of thumbnails and
//!   to all 102;
//! - the 855 models of `corpus/wz2100`: all thumbnails cold, then again from the disk
//!   cache;
//! - frame times while the cold corpus renders (median, 95th percentile, worst);
//! - memory: resident size grown by a gallery of all 926 models of `corpus/`
//!   (thumbnails uploaded), scaled to 1,000 tiles.
//!
//! `cargo bench --bench gallery` (needs `../shared` and a GPU adapter; Mesa's lavapipe
//! counts). The cache lives in a temporary folder.

use eframe::egui;
use egui_kittest::Harness;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use vitrine::app::commands::{AppCommand, DocumentCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::gallery::thumbs::ThumbDevice;
use vitrine::app::layout::window_ui;
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::desktop::window::thumbnail_cache::DiskCache;

struct Bench {
    state: AppState,
}

fn frame(ui: &mut egui::Ui, b: &mut Bench) {
    let ctx = ui.ctx().clone();
    let device = ThumbDevice::Batch(vitrine::render::batch::BatchDevice::Own);
    vitrine::app::gallery::thumbs::sync(&mut b.state, &ctx, Some(device));
    let commands = window_ui(ui, &mut b.state, |_, _| Vec::new());
    for c in commands {
        let _ = apply(&mut b.state, c);
    }
}

fn rss_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

/// What one gallery opening measured.
struct Run {
    first_screen: Option<Duration>,
    all: Duration,
    tiles: usize,
    from_cache: usize,
    frames: Vec<Duration>,
    /// Resident size (MB) when the last thumbnail arrived, the gallery still open (the
    /// memory figure).
    done_rss: f64,
}

fn open(source: &Path, roots: &[PathBuf], cache: &DiskCache) -> Run {
    let rs = egui_kittest::wgpu::create_render_state(
        egui_kittest::wgpu::default_wgpu_setup(),
        Default::default(),
    );
    let settings = Settings {
        data_roots: roots.to_vec(),
        ..Default::default()
    };
    let bench = Bench {
        state: AppState::new(
            settings,
            vitrine::desktop::window::DesktopHost::with_thumbnails(None, cache.clone()),
        ),
    };
    let mut h: Harness<'static, Bench> = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .renderer(egui_kittest::wgpu::WgpuTestRenderer::from_render_state(rs))
        .build_ui_state(frame, bench);
    let start = Instant::now();
    let file = vitrine::files::parse(source);
    apply(
        &mut h.state_mut().state,
        AppCommand::Document(DocumentCommand::Open(file)),
    );
    let mut first_screen = None;
    let mut frames = Vec::new();
    loop {
        let t = Instant::now();
        h.step();
        h.render().expect("frame renders");
        frames.push(t.elapsed());
        let g = h.state().state.panels.gallery.as_ref().expect("a gallery");
        let t = g.thumbs.as_ref().expect("thumbnails started");
        if first_screen.is_none() && t.on_screen_done() {
            first_screen = Some(start.elapsed());
        }
        if t.done == t.total {
            let (tiles, from_cache, all) = (g.tiles.len(), t.from_cache, start.elapsed());
            return Run {
                done_rss: rss_mb(),
                first_screen,
                all,
                tiles,
                from_cache,
                frames,
            };
        }
        assert!(start.elapsed() < Duration::from_secs(600), "stuck");
    }
}

fn percentile(frames: &[Duration], p: f64) -> f64 {
    let mut v: Vec<f64> = frames.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !shared.is_dir() {
        eprintln!("SKIPPED: ../shared/corpus not found");
        return;
    }
    // `cargo bench --bench gallery -- memory`: only the memory figure, in a fresh process.
    let only_memory = std::env::args().any(|a| a == "memory");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average at start: {}", load.trim());
    let wz = shared.join("wz2100");
    let base = wz.join("data/base");

    let tmp = tempfile::tempdir().unwrap();
    if only_memory {
        let cache = DiskCache::at(&tmp.path().join("all"));
        let before = rss_mb();
        // Measured with the gallery still open (its tiles' textures alive) when the last
        // thumbnail arrives; the harness's own renderer reads every frame back.
        let r = open(&shared, &[], &cache);
        let grown = r.done_rss - before;
        println!(
            "memory: {} tiles grew the resident size by {grown:.0} MB ({:.0} MB per 1,000 \
             tiles, gallery open; the devices, egui's renderer and the pipeline included)",
            r.tiles,
            grown * 1000.0 / r.tiles as f64
        );
        return;
    }
    let cache = DiskCache::at(&tmp.path().join("mp"));
    let r = open(
        &wz.join("archives/mp.wz"),
        std::slice::from_ref(&base),
        &cache,
    );
    println!(
        "mp.wz over data/base, cold: first screen {:.2} s, all {} in {:.2} s",
        r.first_screen.map_or(f64::NAN, |d| d.as_secs_f64()),
        r.tiles,
        r.all.as_secs_f64()
    );

    let cache = DiskCache::at(&tmp.path().join("corpus"));
    let r = open(&wz, &[], &cache);
    println!(
        "corpus/wz2100 cold: {} thumbnails in {:.2} s ({:.0}/s); frames: median {:.1} ms, \
         p95 {:.1} ms, worst {:.1} ms over {} frames",
        r.tiles,
        r.all.as_secs_f64(),
        r.tiles as f64 / r.all.as_secs_f64(),
        percentile(&r.frames, 0.5),
        percentile(&r.frames, 0.95),
        percentile(&r.frames, 1.0),
        r.frames.len()
    );
    let r = open(&wz, &[], &cache);
    println!(
        "corpus/wz2100 cached: {} thumbnails in {:.2} s ({} from the cache); frames: median \
         {:.1} ms, p95 {:.1} ms over {} frames",
        r.tiles,
        r.all.as_secs_f64(),
        r.from_cache,
        percentile(&r.frames, 0.5),
        percentile(&r.frames, 0.95),
        r.frames.len()
    );

    println!("memory: run `cargo bench --bench gallery -- memory` (a fresh process)");
}
