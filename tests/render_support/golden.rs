//! f3d-style golden image comparison.
//!
//! Tolerance (written down, as wgpu's and ruffle's image tests do): a pixel matches when
//! every channel is within [`CHANNEL_TOLERANCE`] of the reference; up to
//! [`MAX_OUTLIER_FRACTION`] of the pixels may fail that (MSAA edge coverage and texture
//! filtering differ slightly between lavapipe, llvmpipe-GL and hardware GPUs). A size
//! mismatch, a missing reference, or an image with no pixels fails.
//!
//! On failure `<name>-actual.png` and `<name>-diff.png` are written to the cargo target
//! temp dir. `UPDATE_GOLDEN=1 cargo test` (re)writes the references under `tests/golden/`
//! — look at them before committing.

use std::path::PathBuf;

/// Per-channel difference (0–255) still counted as equal.
pub const CHANNEL_TOLERANCE: u8 = 6;
/// Fraction of pixels allowed outside the tolerance.
pub const MAX_OUTLIER_FRACTION: f64 = 0.01;

/// Where references live.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Compares `actual` with `tests/golden/<name>.png`; panics with a report on mismatch.
pub fn check(name: &str, actual: &image::RgbaImage) {
    let path = golden_dir().join(format!("{name}.png"));
    if std::env::var("UPDATE_GOLDEN").as_deref() == Ok("1") {
        std::fs::create_dir_all(golden_dir()).unwrap();
        actual.save(&path).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden");
    std::fs::create_dir_all(&out_dir).unwrap();
    let actual_path = out_dir.join(format!("{name}-actual.png"));
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
    let Compared {
        total,
        outliers,
        worst,
        diff,
    } = compare(actual, &expected);
    assert!(total > 0, "{name}: compared zero pixels");
    let allowed = (total as f64 * MAX_OUTLIER_FRACTION) as u64;
    if outliers > allowed {
        actual.save(&actual_path).unwrap();
        let diff_path = out_dir.join(format!("{name}-diff.png"));
        diff.save(&diff_path).unwrap();
        panic!(
            "{name}: {outliers} of {total} pixels differ by more than {CHANNEL_TOLERANCE} \
             (allowed {allowed}; worst {worst}); see {} and {}",
            actual_path.display(),
            diff_path.display()
        );
    }
}

/// Two pictures compared pixel by pixel with [`CHANNEL_TOLERANCE`].
pub struct Compared {
    /// Pixels compared.
    pub total: u64,
    /// Pixels with a channel further apart than the tolerance.
    pub outliers: u64,
    /// The largest channel difference.
    pub worst: u8,
    /// The expected picture in grey with the outliers red.
    pub diff: image::RgbaImage,
}

impl Compared {
    /// Whether the outliers stay within [`MAX_OUTLIER_FRACTION`].
    pub fn matches(&self) -> bool {
        self.total > 0 && self.outliers <= (self.total as f64 * MAX_OUTLIER_FRACTION) as u64
    }
}

/// Compares two pictures of the same size (the golden check's rule, for two renders).
pub fn compare(actual: &image::RgbaImage, expected: &image::RgbaImage) -> Compared {
    let total = actual.width() as u64 * actual.height() as u64;
    let mut diff = image::RgbaImage::new(actual.width(), actual.height());
    let mut outliers = 0u64;
    let mut worst = 0u8;
    for ((a, e), d) in actual
        .pixels()
        .zip(expected.pixels())
        .zip(diff.pixels_mut())
    {
        let m =
            a.0.iter()
                .zip(e.0)
                .map(|(x, y)| x.abs_diff(y))
                .max()
                .unwrap();
        worst = worst.max(m);
        if m > CHANNEL_TOLERANCE {
            outliers += 1;
            *d = image::Rgba([255, 0, 0, 255]);
        } else {
            let g = e.0[0] / 4 + e.0[1] / 4 + e.0[2] / 4;
            *d = image::Rgba([g, g, g, 255]);
        }
    }
    Compared {
        total,
        outliers,
        worst,
        diff,
    }
}
