//! The tests' one image comparison: golden images, exported animation frames against
//! stills, and two renders that should differ only somewhere.
//!
//! Two pixels differ by their largest channel difference (0–255). A pixel that is fully
//! transparent in both pictures counts as equal whatever its colour channels hold: nobody
//! sees them, and encoders (GIF's transparent index, premultiplied readbacks) do not keep
//! them. Comparing pictures of different sizes is a test failure of its own.

/// The tolerance written down for pictures that should look the same (golden images,
/// a glTF round trip rendered again), as wgpu's and ruffle's image tests do: a pixel
/// matches when every channel is within this of the reference (0–255)…
pub const CHANNEL_TOLERANCE: u8 = 6;
/// …and up to this fraction of the pixels may fail that (MSAA edge coverage and texture
/// filtering differ slightly between lavapipe, llvmpipe-GL and hardware GPUs).
pub const MAX_OUTLIER_FRACTION: f64 = 0.01;

/// How two pictures of one size differ, pixel by pixel.
pub struct ImageDiff {
    width: u32,
    /// Per pixel, row by row: the largest channel difference.
    per_pixel: Vec<u8>,
    /// Sum of every channel's difference.
    channel_sum: u64,
}

/// Compares `a` with `b`; panics when their sizes differ.
pub fn diff(a: &image::RgbaImage, b: &image::RgbaImage) -> ImageDiff {
    assert_eq!(
        a.dimensions(),
        b.dimensions(),
        "the pictures to compare differ in size"
    );
    let mut channel_sum = 0u64;
    let per_pixel = a
        .pixels()
        .zip(b.pixels())
        .map(|(p, q)| {
            if p.0[3] == 0 && q.0[3] == 0 {
                return 0;
            }
            let d = p.0.iter().zip(q.0).map(|(x, y)| x.abs_diff(y));
            channel_sum += d.clone().map(u64::from).sum::<u64>();
            d.max().unwrap_or(0)
        })
        .collect();
    ImageDiff {
        width: a.width(),
        per_pixel,
        channel_sum,
    }
}

impl ImageDiff {
    /// Pixels compared.
    pub fn pixels(&self) -> usize {
        self.per_pixel.len()
    }

    /// The largest channel difference anywhere (0: identical as seen).
    pub fn max(&self) -> u8 {
        self.per_pixel.iter().copied().max().unwrap_or(0)
    }

    /// The mean difference per channel (0–255).
    pub fn mean(&self) -> f64 {
        if self.per_pixel.is_empty() {
            return 0.0;
        }
        self.channel_sum as f64 / (self.per_pixel.len() * 4) as f64
    }

    /// How many pixels differ by more than `tolerance`.
    pub fn count_over(&self, tolerance: u8) -> usize {
        self.per_pixel.iter().filter(|d| **d > tolerance).count()
    }

    /// `(x, y)` of each pixel that differs by more than `tolerance`.
    pub fn positions_over(&self, tolerance: u8) -> impl Iterator<Item = (u32, u32)> + '_ {
        let w = self.width.max(1) as usize;
        self.per_pixel
            .iter()
            .enumerate()
            .filter(move |(_, d)| **d > tolerance)
            .map(move |(i, _)| ((i % w) as u32, (i / w) as u32))
    }

    /// A picture to look at: pixels past `tolerance` red, the others `reference` in dim
    /// grey.
    pub fn picture(&self, tolerance: u8, reference: &image::RgbaImage) -> image::RgbaImage {
        let mut out = image::RgbaImage::new(reference.width(), reference.height());
        for ((o, r), d) in out
            .pixels_mut()
            .zip(reference.pixels())
            .zip(&self.per_pixel)
        {
            *o = if *d > tolerance {
                image::Rgba([255, 0, 0, 255])
            } else {
                let g = r.0[0] / 4 + r.0[1] / 4 + r.0[2] / 4;
                image::Rgba([g, g, g, 255])
            };
        }
        out
    }
}

/// Compares `actual` with the reference `golden/<name>.png` at this module's tolerance
/// ([`CHANNEL_TOLERANCE`], [`MAX_OUTLIER_FRACTION`]); panics with a report when they
/// differ, when the sizes differ, when there is no reference or no pixel. On failure it
/// writes `<name>-actual.png` and `<name>-diff.png` into `scratch` (the test crate's
/// `CARGO_TARGET_TMPDIR`). With `UPDATE_GOLDEN=1` it (re)writes the reference instead —
/// look at it before committing.
pub fn check_golden(
    golden: &std::path::Path,
    scratch: &std::path::Path,
    name: &str,
    actual: &image::RgbaImage,
) {
    let path = golden.join(format!("{name}.png"));
    if std::env::var("UPDATE_GOLDEN").as_deref() == Ok("1") {
        std::fs::create_dir_all(golden).unwrap();
        actual.save(&path).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    std::fs::create_dir_all(scratch).unwrap();
    let actual_path = scratch.join(format!("{name}-actual.png"));
    let expected = match image::open(&path) {
        Ok(i) => i.into_rgba8(),
        Err(e) => {
            actual.save(&actual_path).unwrap();
            panic!(
                "{name}: no reference {} ({e}); wrote {}; run with UPDATE_GOLDEN=1 to accept it",
                path.display(),
                actual_path.display()
            );
        }
    };
    assert_eq!(
        expected.dimensions(),
        actual.dimensions(),
        "{name}: size differs from the reference"
    );
    let d = diff(actual, &expected);
    let total = d.pixels();
    assert!(total > 0, "{name}: compared zero pixels");
    let outliers = d.count_over(CHANNEL_TOLERANCE);
    let allowed = (total as f64 * MAX_OUTLIER_FRACTION) as usize;
    if outliers > allowed {
        actual.save(&actual_path).unwrap();
        let diff_path = scratch.join(format!("{name}-diff.png"));
        d.picture(CHANNEL_TOLERANCE, &expected)
            .save(&diff_path)
            .unwrap();
        panic!(
            "{name}: {outliers} of {total} pixels differ by more than {CHANNEL_TOLERANCE} \
             (allowed {allowed}; worst {}); see {} and {}",
            d.max(),
            actual_path.display(),
            diff_path.display()
        );
    }
}
