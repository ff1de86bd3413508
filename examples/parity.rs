//! The parity sweep (docs/parity.md; run by `tools/parity.sh`): draws every view of every
//! capture under `tests/parity/` with `vitrine render --view game --camera …`, measures
//! each against the game's frame (`vitrine_test_support::parity`), and writes
//! `tests/parity/figures.json` (what the gate, `tests/cli/parity_gate.rs`, holds Vitrine
//! to), `docs/parity.md` and the pictures of its ten worst views in `docs/parity/`.
//!
//! usage: cargo run --example parity -- VITRINE GAME_DATA CORPUS [ID...]
//!   VITRINE    the program to draw with
//!   GAME_DATA  the folder with the game's mp.wz
//!   CORPUS     ../shared/corpus/wz2100 (the map database's packages)
//!   ID         only these captures (the figures of the others are kept)

use image::{Rgba, RgbaImage, imageops};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use vitrine_test_support::parity::{self, Capture, Figures};

/// One view measured.
struct Row {
    key: String,
    capture: usize,
    view: usize,
    figures: Figures,
    vitrine: PathBuf,
}

fn main() {
    if let Err(e) = run() {
        eprintln!("parity: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [vitrine, game_data, corpus, only @ ..] = &args[..] else {
        return Err("usage: parity VITRINE GAME_DATA CORPUS [ID...]".into());
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let captures_dir = root.join("tests/parity");
    let captures: Vec<Capture> = Capture::all(&captures_dir)?
        .into_iter()
        .filter(|c| only.is_empty() || only.contains(&c.id))
        .collect();
    let work = std::env::temp_dir().join("vitrine-parity");
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut rows = Vec::new();
    for (ci, c) in captures.iter().enumerate() {
        let out = work.join(format!("{}-{{}}.png", c.id));
        let t = Instant::now();
        let run = Command::new(vitrine)
            .args(c.render_args(Path::new(game_data), Path::new(corpus), &out))
            .output()
            .map_err(|e| format!("{vitrine}: {e}"))?;
        if !run.status.success() {
            eprintln!(
                "parity: {}: {}",
                c.id,
                String::from_utf8_lossy(&run.stderr).trim()
            );
            continue;
        }
        for (vi, v) in c.views.iter().enumerate() {
            let path = work.join(format!("{}-{}.png", c.id, vi + 1));
            let ours = image::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let figures = parity::measure(&c.frame(v)?, &ours.into_rgba8());
            let key = format!("{}/{}", c.id, v.name);
            eprintln!(
                "parity: {key}: {:.2} % differing, SSIM {:.3}, MAD {:.1}",
                100.0 * figures.differing,
                figures.ssim,
                figures.mean_abs
            );
            rows.push(Row {
                key,
                capture: ci,
                view: vi,
                figures,
                vitrine: path,
            });
        }
        eprintln!("parity: {}: {:.1} s", c.id, t.elapsed().as_secs_f64());
    }
    let seconds = started.elapsed().as_secs_f64();
    // The figures of the views not swept this time are kept.
    let figures_path = captures_dir.join("figures.json");
    let mut all: BTreeMap<String, Figures> = parity::read_figures(&figures_path)
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| {
            !only.is_empty()
                && captures_dir
                    .join(k.split('/').next().unwrap_or(""))
                    .is_dir()
        })
        .collect();
    for r in &rows {
        all.insert(r.key.clone(), r.figures);
    }
    let list: Vec<(String, Figures)> = all.into_iter().collect();
    write(&figures_path, parity::figures_json(&list).as_bytes())?;
    if only.is_empty() {
        report(root, &captures, &rows, seconds)?;
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn pct(v: f64) -> String {
    format!("{:.2} %", 100.0 * v)
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { s / n as f64 }
}

/// Notes written by hand (`tests/parity/notes.txt`: `ID/VIEW<TAB>what differs`, or a
/// map's id alone for all its views).
fn notes(root: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(root.join("tests/parity/notes.txt")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect()
}

/// The game's frame, Vitrine's and the pixels that differ (red over the game's, dimmed),
/// side by side at half size.
fn side_by_side(game: &RgbaImage, ours: &RgbaImage) -> RgbaImage {
    let (w, h) = game.dimensions();
    let differing = parity::differing_pixels(game, ours);
    let mut marks = RgbaImage::new(w, h);
    for (i, p) in marks.pixels_mut().enumerate() {
        let g = game.as_raw()[i * 4..i * 4 + 3]
            .iter()
            .map(|&v| u32::from(v))
            .sum::<u32>()
            / 9;
        *p = if differing[i] {
            Rgba([255, 40, 40, 255])
        } else {
            Rgba([g as u8, g as u8, g as u8, 255])
        };
    }
    let mut all = RgbaImage::new(3 * w, h);
    for (i, img) in [game, ours, &marks].into_iter().enumerate() {
        imageops::replace(&mut all, img, i as i64 * w as i64, 0);
    }
    imageops::resize(&all, 3 * w / 2, h / 2, imageops::FilterType::Triangle)
}

fn report(root: &Path, captures: &[Capture], rows: &[Row], seconds: f64) -> Result<(), String> {
    let notes = notes(root);
    let pictures = root.join("docs/parity");
    std::fs::create_dir_all(&pictures).map_err(|e| e.to_string())?;
    for old in std::fs::read_dir(&pictures)
        .map_err(|e| e.to_string())?
        .flatten()
    {
        let _ = std::fs::remove_file(old.path());
    }
    let n = rows.len();
    let maps = rows
        .iter()
        .map(|r| r.capture)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let differing = mean(rows.iter().map(|r| r.figures.differing));
    let worst = rows.iter().map(|r| r.figures.differing).fold(0.0, f64::max);
    let over4 = rows.iter().filter(|r| r.figures.differing > 0.04).count();
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Parity: Vitrine against the game's own frames\n\n\
         *Written by `tools/parity.sh` (the sweep); do not edit by hand: notes go in \
         `tests/parity/notes.txt`.*\n\n\
         **{} differing** on average over **{n} views of {maps} maps** (the worst view {}, \
         {over4} views over 4 %); SSIM {:.3}, mean absolute difference {:.1} of 255. \
         Vitrine's side of the sweep took **{seconds:.0} s** on this machine (a debug build, \
         Mesa's lavapipe, 2 shared cores), the game's frames not retaken.\n",
        pct(differing),
        pct(worst),
        mean(rows.iter().map(|r| r.figures.ssim)),
        mean(rows.iter().map(|r| r.figures.mean_abs)),
    );
    md.push_str(include_str!("parity_method.md"));
    if let Some(general) = notes.get("*") {
        let _ = writeln!(md, "\n## What differs\n\n{general}\n");
    }
    let mut sorted: Vec<&Row> = rows.iter().collect();
    sorted.sort_by(|a, b| b.figures.differing.total_cmp(&a.figures.differing));
    let _ = writeln!(
        md,
        "\n## The ten worst views\n\nEach: the game's frame, Vitrine's, and the pixels that \
         differ (red) over the game's frame dimmed.\n"
    );
    for (i, r) in sorted.iter().take(10).enumerate() {
        let c = &captures[r.capture];
        let v = &c.views[r.view];
        let ours = image::open(&r.vitrine)
            .map_err(|e| e.to_string())?
            .into_rgba8();
        let name = format!("worst-{:02}-{}-{}.png", i + 1, c.id, v.name);
        side_by_side(&c.frame(v)?, &ours)
            .save(pictures.join(&name))
            .map_err(|e| e.to_string())?;
        let note = notes
            .get(&r.key)
            .or_else(|| notes.get(&c.id))
            .map(|n| format!(" {n}"))
            .unwrap_or_default();
        let _ = writeln!(
            md,
            "{}. **{}** ({}, camera `{}`): {} differing, SSIM {:.3}, MAD {:.1}.{note}\n\n   \
             ![{}](parity/{name})\n",
            i + 1,
            r.key,
            c.level,
            v.camera,
            pct(r.figures.differing),
            r.figures.ssim,
            r.figures.mean_abs,
            r.key,
        );
    }
    let _ = writeln!(
        md,
        "\n## Every map\n\nDiffering pixels per view (SSIM, mean absolute difference in the \
         last columns: the map's means).\n\n\
         | map | source | start | p1 | middle | mean | SSIM | MAD |\n|---|---|---|---|---|---|---|---|"
    );
    for (ci, c) in captures.iter().enumerate() {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.capture == ci).collect();
        if mine.is_empty() {
            let _ = writeln!(md, "| {} | {} | not drawn | | | | | |", c.level, c.source);
            continue;
        }
        let cell = |name: &str| {
            mine.iter()
                .find(|r| c.views[r.view].name == name)
                .map(|r| pct(r.figures.differing))
                .unwrap_or_else(|| "—".into())
        };
        let seed = c.seed.map(|s| format!(", seed {s}")).unwrap_or_default();
        let _ = writeln!(
            md,
            "| {} | {}{seed} | {} | {} | {} | {} | {:.3} | {:.1} |",
            c.level,
            c.source,
            cell("start"),
            cell("p1"),
            cell("middle"),
            pct(mean(mine.iter().map(|r| r.figures.differing))),
            mean(mine.iter().map(|r| r.figures.ssim)),
            mean(mine.iter().map(|r| r.figures.mean_abs)),
        );
    }
    write(&root.join("docs/parity.md"), md.as_bytes())
}
