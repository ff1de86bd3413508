//! f3d-style golden image comparison (the pixels compared by
//! [`crate::common::image_diff`]).
//!
//! Tolerance (written down, as wgpu's and ruffle's image tests do): a pixel matches when
//! every channel is within [`CHANNEL_TOLERANCE`] of the reference; up to
//! [`MAX_OUTLIER_FRACTION`] of the pixels may fail that (MSAA edge coverage and texture
//! filtering differ slightly between lavapipe, llvmpipe-GL and hardware GPUs). A size
//! mismatch, a missing reference, or an image with no pixels fails.
//!
//! On failure `<name>-actual.png` and `<name>-diff.png` are written to the cargo target
//! temp dir. `UPDATE_GOLDEN=1 cargo test -p vitrine-render --test render` (re)writes the
//! references under `crates/render/tests/golden/` — look at them before committing.

use crate::common::image_diff::{CHANNEL_TOLERANCE, MAX_OUTLIER_FRACTION};
use std::path::PathBuf;

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
    let diff = crate::common::image_diff::diff(actual, &expected);
    let total = diff.pixels();
    assert!(total > 0, "{name}: compared zero pixels");
    let outliers = diff.count_over(CHANNEL_TOLERANCE);
    let worst = diff.max();
    let allowed = (total as f64 * MAX_OUTLIER_FRACTION) as usize;
    if outliers > allowed {
        actual.save(&actual_path).unwrap();
        let diff_path = out_dir.join(format!("{name}-diff.png"));
        diff.picture(CHANNEL_TOLERANCE, &expected)
            .save(&diff_path)
            .unwrap();
        panic!(
            "{name}: {outliers} of {total} pixels differ by more than {CHANNEL_TOLERANCE} \
             (allowed {allowed}; worst {worst}); see {} and {}",
            actual_path.display(),
            diff_path.display()
        );
    }
}
