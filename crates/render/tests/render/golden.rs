//! f3d-style golden image comparison (`image_diff::check_golden`, shared with the
//! program's map goldens).
//!
//! Tolerance (written down, as wgpu's and ruffle's image tests do): a pixel matches when
//! every channel is within [`CHANNEL_TOLERANCE`](crate::common::image_diff::CHANNEL_TOLERANCE) of the reference; up to
//! [`MAX_OUTLIER_FRACTION`](crate::common::image_diff::MAX_OUTLIER_FRACTION) of the pixels may fail that (MSAA edge coverage and texture
//! filtering differ slightly between lavapipe, llvmpipe-GL and hardware GPUs). A size
//! mismatch, a missing reference, or an image with no pixels fails.
//!
//! On failure `<name>-actual.png` and `<name>-diff.png` are written to the cargo target
//! temp dir. `UPDATE_GOLDEN=1 cargo test -p vitrine-render --test render` (re)writes the
//! references under `crates/render/tests/golden/` — look at them before committing.

use std::path::PathBuf;

/// Where references live.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Compares `actual` with `tests/golden/<name>.png`; panics with a report on mismatch.
pub fn check(name: &str, actual: &image::RgbaImage) {
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden");
    crate::common::image_diff::check_golden(&golden_dir(), &scratch, name, actual);
}
