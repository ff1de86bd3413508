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
