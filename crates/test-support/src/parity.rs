//! The measure of docs/parity.md: how far Vitrine's frame of a view is from the frame the
//! game itself drew of it (`tools/parity_capture.sh`), in three figures:
//!
//! - **differing** (the yardstick): the share of the pixels measured whose colour, after
//!   a 3 × 3 box blur of both pictures, differs by more than [`THRESHOLD`] (of 255) on
//!   any channel. The blur forgives a pixel's shift at an edge and texture noise; the
//!   threshold is about what an eye notices side by side. 0 is the same picture.
//! - **SSIM**: the structural similarity of the two pictures' luma (Rec. 601), the mean
//!   over 8 × 8 windows every 4 pixels that hold no pixel left out (the usual constants
//!   K1 = 0.01, K2 = 0.03 of 255). 1 is the same picture.
//! - **mean absolute difference**: of the red, green and blue channels (0–255) over the
//!   pixels measured, without blur.
//!
//! Left out of all three: the game's interface that `hideInterface()` leaves on screen
//! ([`interface_mask`]): the power bar's rows at the bottom and the box above its left
//! end with the level's name and the clock, and the pixels next to them (which the blur
//! mixes with them).

use image::RgbaImage;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A channel difference (0–255) beyond which two blurred pixels differ.
pub const THRESHOLD: u8 = 24;

/// How far Vitrine's frame is from the game's (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// The share (0–1) of the pixels measured that differ after the blur.
    pub differing: f64,
    /// The structural similarity (−1–1; 1: the same).
    pub ssim: f64,
    /// The mean absolute channel difference (0–255).
    pub mean_abs: f64,
}

/// Which pixels of a `width` × `height` frame of the game are measured (row by row): all
/// but the interface `hideInterface()` leaves, as 4.3.3 draws it in a 640 × 480 window
/// (scaled for other sizes): the power bar's rows (the bottom 25 of 480) and the level's
/// name and clock above the bar's left end (x 130–260, y 415–455).
pub fn interface_mask(width: u32, height: u32) -> Vec<bool> {
    let sx = |x: u32| x * width / 640;
    let sy = |y: u32| y * height / 480;
    let (bar_top, text) = (sy(455), (sx(130), sx(260), sy(415)));
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .map(|(x, y)| y < bar_top && !(y >= text.2 && (text.0..text.1).contains(&x)))
        .collect()
}

/// The pixels measured: those of [`interface_mask`] whose 3 × 3 neighbourhood holds no
/// pixel of the interface either (the blur would mix it in).
fn measured(width: u32, height: u32) -> Vec<bool> {
    let mask = interface_mask(width, height);
    let (w, h) = (width as i64, height as i64);
    let at = |x: i64, y: i64| mask[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize];
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| (-1..=1).all(|j| (-1..=1).all(|i| at(x + i, y + j))))
        .collect()
}

/// `game`'s frame against `vitrine`'s (module docs); panics when their sizes differ.
pub fn measure(game: &RgbaImage, vitrine: &RgbaImage) -> Figures {
    assert_eq!(
        game.dimensions(),
        vitrine.dimensions(),
        "the game's frame and Vitrine's differ in size"
    );
    let (w, h) = game.dimensions();
    let mask = measured(w, h);
    let (a, b) = (blur(game), blur(vitrine));
    let mut differing = 0usize;
    let mut measured = 0usize;
    let mut abs_sum = 0u64;
    for (i, (p, q)) in game.pixels().zip(vitrine.pixels()).enumerate() {
        if !mask[i] {
            continue;
        }
        measured += 1;
        abs_sum += (0..3).map(|c| u64::from(p[c].abs_diff(q[c]))).sum::<u64>();
        let far = (0..3).any(|c| a[3 * i + c].abs_diff(b[3 * i + c]) > THRESHOLD);
        differing += usize::from(far);
    }
    let n = measured.max(1) as f64;
    Figures {
        differing: differing as f64 / n,
        ssim: ssim(&luma(game), &luma(vitrine), w, h, &mask),
        mean_abs: abs_sum as f64 / (3.0 * n),
    }
}

/// The pixels (x, y) that differ after the blur, measured ones only: what the report's
/// third picture marks.
pub fn differing_pixels(game: &RgbaImage, vitrine: &RgbaImage) -> Vec<bool> {
    let (w, h) = game.dimensions();
    let mask = measured(w, h);
    let (a, b) = (blur(game), blur(vitrine));
    (0..mask.len())
        .map(|i| mask[i] && (0..3).any(|c| a[3 * i + c].abs_diff(b[3 * i + c]) > THRESHOLD))
        .collect()
}

/// A 3 × 3 box blur of the red, green and blue channels (the edges repeat), rounded.
fn blur(img: &RgbaImage) -> Vec<u8> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let raw = img.as_raw();
    let at = |x: i64, y: i64, c: usize| {
        let (x, y) = (x.clamp(0, w - 1), y.clamp(0, h - 1));
        u32::from(raw[((y * w + x) * 4) as usize + c])
    };
    let mut out = Vec::with_capacity((w * h * 3) as usize);
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let s: u32 = (-1..=1)
                    .flat_map(|j| (-1..=1).map(move |i| (i, j)))
                    .map(|(i, j)| at(x + i, y + j, c))
                    .sum();
                out.push(((s + 4) / 9) as u8);
            }
        }
    }
    out
}

/// Rec. 601 luma, 0–255.
fn luma(img: &RgbaImage) -> Vec<f64> {
    img.pixels()
        .map(|p| 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]))
        .collect()
}

/// The mean SSIM of 8 × 8 windows every 4 pixels that lie wholly in `mask`.
fn ssim(a: &[f64], b: &[f64], w: u32, h: u32, mask: &[bool]) -> f64 {
    const WIN: u32 = 8;
    const STEP: u32 = 4;
    let (c1, c2) = ((0.01f64 * 255.0).powi(2), (0.03f64 * 255.0).powi(2));
    let mut sum = 0.0;
    let mut windows = 0usize;
    for y0 in (0..h.saturating_sub(WIN - 1)).step_by(STEP as usize) {
        for x0 in (0..w.saturating_sub(WIN - 1)).step_by(STEP as usize) {
            let idx =
                (y0..y0 + WIN).flat_map(|y| (x0..x0 + WIN).map(move |x| (y * w + x) as usize));
            if !idx.clone().all(|i| mask[i]) {
                continue;
            }
            let n = f64::from(WIN * WIN);
            let (ma, mb) = idx
                .clone()
                .fold((0.0, 0.0), |(s, t), i| (s + a[i], t + b[i]));
            let (ma, mb) = (ma / n, mb / n);
            let (mut va, mut vb, mut cov) = (0.0, 0.0, 0.0);
            for i in idx {
                let (da, db) = (a[i] - ma, b[i] - mb);
                va += da * da;
                vb += db * db;
                cov += da * db;
            }
            let (va, vb, cov) = (va / (n - 1.0), vb / (n - 1.0), cov / (n - 1.0));
            sum += ((2.0 * ma * mb + c1) * (2.0 * cov + c2))
                / ((ma * ma + mb * mb + c1) * (va + vb + c2));
            windows += 1;
        }
    }
    if windows == 0 {
        1.0
    } else {
        sum / windows as f64
    }
}

/// The layers a capture is drawn with: what the game shows (no start-position markers).
pub const LAYERS: &str = "terrain,decals,water,features,structures,droids";

/// One map's captures (`tests/parity/<id>/capture.json`, written by
/// `tools/parity_capture.py`).
#[derive(Debug, Clone)]
pub struct Capture {
    /// The folder's name: the level's in lower case, `mapdb-<package>` for the database's.
    pub id: String,
    /// The folder holding `capture.json` and the frames.
    pub dir: PathBuf,
    /// The level's name.
    pub level: String,
    /// `mp.wz`, or the package under the shared corpus (`mapdb-2p/NAME.wz`).
    pub source: String,
    /// A script map's seed, as the game logged it.
    pub seed: Option<u32>,
    /// The game's window.
    pub size: (u32, u32),
    /// The views, in the order they were taken.
    pub views: Vec<View>,
}

/// One view of a [`Capture`].
#[derive(Debug, Clone)]
pub struct View {
    /// `start`, `p1`, `middle`.
    pub name: String,
    /// The game's frame, in the capture's folder.
    pub file: String,
    /// `--camera` as `vitrine render` takes it: `start` or `X,Y[,ZOOM]`.
    pub camera: String,
}

impl Capture {
    /// Reads `dir/capture.json`.
    pub fn load(dir: &Path) -> Result<Capture, String> {
        let path = dir.join("capture.json");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let json: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let field = |k: &str| {
            json[k]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("{}: no {k}", path.display()))
        };
        let window = &json["game"]["window"];
        let size = (
            window[0].as_u64().unwrap_or(0) as u32,
            window[1].as_u64().unwrap_or(0) as u32,
        );
        let views = json["views"].as_array().cloned().unwrap_or_default();
        let views = views
            .iter()
            .map(|v| {
                let camera = match &v["camera"] {
                    serde_json::Value::Object(c) => {
                        let n = |k: &str| c.get(k).and_then(|v| v.as_f64());
                        match (n("x"), n("y"), n("zoom")) {
                            (Some(x), Some(y), Some(z)) => format!("{x},{y},{z}"),
                            (Some(x), Some(y), None) => format!("{x},{y}"),
                            _ => return Err(format!("{}: a camera without x, y", path.display())),
                        }
                    }
                    _ => "start".to_owned(),
                };
                Ok(View {
                    name: v["name"].as_str().unwrap_or_default().to_owned(),
                    file: v["file"].as_str().unwrap_or_default().to_owned(),
                    camera,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        if views.is_empty() || size.0 == 0 || size.1 == 0 {
            return Err(format!("{}: no views or no window", path.display()));
        }
        Ok(Capture {
            id: dir
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            dir: dir.to_owned(),
            level: field("map")?,
            source: field("source")?,
            seed: json["seed"].as_u64().map(|s| s as u32),
            size,
            views,
        })
    }

    /// Every capture under `root` (each folder with a `capture.json`), by id.
    pub fn all(root: &Path) -> Result<Vec<Capture>, String> {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
            .map_err(|e| format!("{}: {e}", root.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("capture.json").is_file())
            .collect();
        dirs.sort();
        dirs.iter().map(|d| Capture::load(d)).collect()
    }

    /// Whether the map is one of the game's own (`mp.wz`), not the shared corpus's.
    pub fn in_game_data(&self) -> bool {
        self.source == "mp.wz"
    }

    /// The arguments of `vitrine render` that draw every view, the view numbered `n`
    /// (from 1) into `out` with `{}` replaced by `n`: the map from `game_data` (the
    /// folder with `mp.wz`) or `corpus` (`../shared/corpus/wz2100`).
    pub fn render_args(&self, game_data: &Path, corpus: &Path, out: &Path) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec!["render".into()];
        if self.in_game_data() {
            args.push(game_data.join("mp.wz").into());
            args.extend(["--level".into(), OsString::from(&self.level)]);
        } else {
            args.push(corpus.join(&self.source).into());
        }
        if let Some(seed) = self.seed {
            args.extend(["--seed".into(), seed.to_string().into()]);
        }
        let size = format!("{}x{}", self.size.0, self.size.1);
        args.extend(["--view", "game", "--size", &size, "--layers", LAYERS].map(OsString::from));
        for v in &self.views {
            args.extend(["--camera".into(), OsString::from(&v.camera)]);
        }
        args.extend(["-o".into(), out.into()]);
        args
    }

    /// The game's frame of `view`.
    pub fn frame(&self, view: &View) -> Result<RgbaImage, String> {
        let path = self.dir.join(&view.file);
        image::open(&path)
            .map(|i| i.into_rgba8())
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The figures recorded for each view (`tests/parity/figures.json`: `"<id>/<view>"` →
/// `{"differing": …, "ssim": …, "mean_abs": …}`), which the gate holds Vitrine to.
pub fn read_figures(path: &Path) -> Result<Vec<(String, Figures)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let views = json["views"]
        .as_object()
        .ok_or_else(|| format!("{}: no views", path.display()))?;
    let f = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap_or(f64::NAN);
    Ok(views
        .iter()
        .map(|(k, v)| {
            let figures = Figures {
                differing: f(v, "differing"),
                ssim: f(v, "ssim"),
                mean_abs: f(v, "mean_abs"),
            };
            (k.clone(), figures)
        })
        .collect())
}

/// The JSON of [`read_figures`] for `rows` (`"<id>/<view>"`, figures), in their order.
pub fn figures_json(rows: &[(String, Figures)]) -> String {
    let views: serde_json::Map<String, serde_json::Value> = rows
        .iter()
        .map(|(k, f)| {
            let round = |v: f64, d: i32| (v * 10f64.powi(d)).round() / 10f64.powi(d);
            let v = serde_json::json!({
                "differing": round(f.differing, 5),
                "ssim": round(f.ssim, 4),
                "mean_abs": round(f.mean_abs, 2),
            });
            (k.clone(), v)
        })
        .collect();
    let all = serde_json::json!({ "views": views });
    serde_json::to_string_pretty(&all).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn flat(w: u32, h: u32, c: [u8; 3]) -> RgbaImage {
        RgbaImage::from_pixel(w, h, Rgba([c[0], c[1], c[2], 255]))
    }

    #[test]
    fn the_same_frame_measures_nothing() {
        let mut a = flat(64, 48, [90, 60, 30]);
        a.put_pixel(10, 10, Rgba([255, 255, 255, 255]));
        let f = measure(&a, &a.clone());
        assert_eq!((f.differing, f.mean_abs), (0.0, 0.0));
        assert!((f.ssim - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_lone_pixel_is_blurred_away_but_a_patch_is_not() {
        let a = flat(640, 480, [0, 0, 0]);
        let mut b = a.clone();
        // One pixel off by 200: 200 / 9 ≈ 22 after the blur, within the threshold.
        b.put_pixel(100, 100, Rgba([200, 0, 0, 255]));
        assert_eq!(measure(&a, &b).differing, 0.0);
        // A 10 × 10 patch: its inside (8 × 8) and its edge (3 of 9 pixels: 67) differ,
        // the ring beyond its corners (1 of 9: 22) does not.
        for y in 200..210 {
            for x in 200..210 {
                b.put_pixel(x, y, Rgba([200, 0, 0, 255]));
            }
        }
        let n = measured(640, 480).iter().filter(|m| **m).count() as f64;
        let f = measure(&a, &b);
        assert_eq!(f.differing, 140.0 / n);
        assert!(f.ssim < 1.0);
    }

    #[test]
    fn the_interface_is_left_out() {
        let a = flat(640, 480, [0, 0, 0]);
        let mut b = a.clone();
        // The power bar and the clock drawn differently: not measured.
        for y in 455..480 {
            for x in 0..640 {
                b.put_pixel(x, y, Rgba([255, 255, 0, 255]));
            }
        }
        for y in 415..455 {
            for x in 130..260 {
                b.put_pixel(x, y, Rgba([255, 255, 255, 255]));
            }
        }
        let f = measure(&a, &b);
        assert_eq!((f.differing, f.mean_abs), (0.0, 0.0));
        // …but the ground just beside the clock is.
        b.put_pixel(300, 430, Rgba([255, 255, 255, 255]));
        assert!(measure(&a, &b).mean_abs > 0.0);
    }

    #[test]
    fn the_mean_absolute_difference_counts_every_channel() {
        let f = measure(&flat(64, 48, [10, 20, 30]), &flat(64, 48, [13, 20, 24]));
        assert!((f.mean_abs - 3.0).abs() < 1e-9, "{}", f.mean_abs);
        // Under the threshold everywhere.
        assert_eq!(f.differing, 0.0);
    }
}
