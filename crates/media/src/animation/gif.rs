//! GIF: one palette shared by all frames, built with Wu's colour quantiser (the
//! `quantette` crate) from pixels sampled over the animation, frames mapped to it with
//! optional Floyd–Steinberg dithering, 1-bit transparency with the edges matted.
//!
//! An opaque GIF stores after its first frame only the rectangle that changed, with the
//! unchanged pixels in it transparent over the frame before (a pumping derrick on a
//! still background costs a fraction of full frames). A GIF with a transparent
//! background stores whole frames, each replacing the last.
//!
//! GIF has no partial transparency: a pixel at least half covered keeps its colour, the
//! others become the transparent index. An antialiased edge pixel is first blended over
//! the matte colour (the forum page's background), so a model exported for a light page
//! has no dark fringe.

use super::timing::FramePlan;
use quantette::color_map::{IndexedColorMap, NearestNeighborColorMap};
use quantette::deps::palette::Srgb;
use quantette::{
    ImageRef, Palette as QPalette, PaletteBuf, PaletteSize, dither::FloydSteinberg, wu::BinnerU8x3,
    wu::WuU8x3,
};
use std::cell::Cell;
use std::io::Write;

/// Alpha at and above which a pixel is opaque in the GIF.
pub const ALPHA_THRESHOLD: u8 = 128;
/// Most pixels kept to build the palette (about 4 MB), whatever the frame count.
const MAX_SAMPLES: usize = 1 << 20;

/// GIF settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GifOptions {
    /// Floyd–Steinberg dithering (smooth shading without bands, larger files).
    pub dither: bool,
    /// Colour that partly transparent edge pixels are blended over (sRGB).
    pub matte: [u8; 3],
    /// Keep a transparent index (the frames have a transparent background).
    pub transparent: bool,
    /// Times the animation plays; 0 = forever.
    pub loops: u32,
}

/// Blends a pixel over the matte colour: what a viewer of the GIF sees at that pixel.
fn matted(p: [u8; 4], matte: [u8; 3]) -> [u8; 3] {
    let a = p[3] as u32;
    if a == 255 {
        return [p[0], p[1], p[2]];
    }
    std::array::from_fn(|i| ((p[i] as u32 * a + matte[i] as u32 * (255 - a) + 127) / 255) as u8)
}

/// Collects pixels from frames for the shared palette, at most `MAX_SAMPLES`
/// (later frames are thinned out so every sampled frame contributes).
#[derive(Debug)]
pub struct PaletteSampler {
    options: GifOptions,
    samples: Vec<Srgb<u8>>,
    stride: usize,
}

impl PaletteSampler {
    /// A sampler expecting about `frames` frames of `pixels` pixels each.
    pub fn new(options: GifOptions, frames: usize, pixels: usize) -> PaletteSampler {
        let total = frames.max(1).saturating_mul(pixels.max(1));
        PaletteSampler {
            options,
            samples: Vec::new(),
            stride: total.div_ceil(MAX_SAMPLES).max(1),
        }
    }

    /// Adds the (opaque enough) pixels of a frame.
    pub fn add(&mut self, img: &image::RgbaImage) {
        let matte = self.options.matte;
        let left = MAX_SAMPLES.saturating_sub(self.samples.len());
        let picked = img
            .pixels()
            .step_by(self.stride)
            .filter(|p| !self.options.transparent || p.0[3] >= ALPHA_THRESHOLD)
            .map(|p| {
                let [r, g, b] = matted(p.0, matte);
                Srgb::new(r, g, b)
            })
            .take(left);
        self.samples.extend(picked);
    }

    /// The palette: up to 255 colours (one index is kept for transparent or unchanged
    /// pixels).
    pub fn palette(&self) -> Palette {
        let size = 255;
        let colours: Vec<Srgb<u8>> = match WuU8x3::run_slice(&self.samples, BinnerU8x3::rgb()) {
            Ok(wu) => wu.palette(PaletteSize::from_u16_clamped(size)).into_vec(),
            Err(_) => Vec::new(),
        };
        let colours = if colours.is_empty() {
            let [r, g, b] = self.options.matte;
            vec![Srgb::new(r, g, b)]
        } else {
            colours
        };
        Palette { colours }
    }
}

/// The palette shared by all frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Palette {
    colours: Vec<Srgb<u8>>,
}

impl Palette {
    /// Number of colours (without the transparent index).
    pub fn len(&self) -> usize {
        self.colours.len()
    }

    /// Whether the palette is empty (never, once built).
    pub fn is_empty(&self) -> bool {
        self.colours.is_empty()
    }
}

/// The nearest palette colour of each 24-bit colour, searched once (by `quantette`'s
/// exhaustive SIMD search) and then remembered for the rest of the animation. A rendered
/// animation repeats its colours from frame to frame, so after the first frames almost
/// every pixel is one table read instead of a search over 255 colours: the search was
/// most of a GIF's encoding time. The table has one byte per 24-bit colour (16 MiB
/// whatever the size or frame count, zeroed lazily by the OS, so only pages where colours
/// occur are touched): 0 = not searched yet, else the index + 1 (a palette has at most
/// 255 colours). Colours are looked up rounded to 1/255, the precision of the frames
/// themselves; dithering still diffuses the exact error.
struct CachedColorMap<'a> {
    exact: NearestNeighborColorMap<Srgb<f32>, f32, 3>,
    table: &'a [Cell<u8>],
}

/// Entries of a [`CachedColorMap`]'s table.
const TABLE_LEN: usize = 1 << 24;

impl<'a> CachedColorMap<'a> {
    /// `table`: [`TABLE_LEN`] zeroes.
    fn new(
        exact: NearestNeighborColorMap<Srgb<f32>, f32, 3>,
        table: &'a mut [u8],
    ) -> CachedColorMap<'a> {
        debug_assert_eq!(table.len(), TABLE_LEN);
        CachedColorMap {
            exact,
            table: Cell::from_mut(table).as_slice_of_cells(),
        }
    }
}

impl IndexedColorMap<Srgb<f32>> for CachedColorMap<'_> {
    type Output = Srgb<f32>;

    fn into_palette(self) -> PaletteBuf<Srgb<f32>> {
        self.exact.into_palette()
    }

    fn palette(&self) -> &QPalette<Srgb<f32>> {
        self.exact.palette()
    }

    fn base_palette(&self) -> &QPalette<Srgb<f32>> {
        self.exact.palette()
    }

    fn palette_index(&self, color: &Srgb<f32>) -> u8 {
        // Rounded to the nearest 1/255 (+ 0.5 then truncated: no call to `roundf` for
        // each channel of each pixel); NaN (never produced) becomes 0 through the cast.
        let q = |c: f32| (c.clamp(0.0, 1.0) * 255.0 + 0.5) as usize;
        let key = (q(color.red) << 16) | (q(color.green) << 8) | q(color.blue);
        let slot = &self.table[key];
        match slot.get() {
            0 => {
                let rounded =
                    Srgb::new((key >> 16) as u8, (key >> 8) as u8, key as u8).into_format::<f32>();
                let index = self.exact.palette_index(&rounded);
                slot.set(index + 1);
                index
            }
            stored => stored - 1,
        }
    }
}

/// A GIF being written, one frame at a time ([`GifWriter::push`]); the trailer goes out
/// with [`GifWriter::finish`].
pub struct GifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    size: (u32, u32),
    /// The palette as `quantette` searches it.
    floats: PaletteBuf<Srgb<f32>>,
    /// The nearest-colour table of [`CachedColorMap`], kept over all frames.
    table: Vec<u8>,
    /// The index past the colours: transparent, or unchanged since the frame before.
    special: u8,
    options: GifOptions,
    plan: FramePlan,
    /// The last frame's indices (an opaque GIF stores only what changed).
    previous: Option<Vec<u8>>,
    written: u32,
}

impl<W: Write> GifWriter<W> {
    /// Writes the header (`width` × `height`, the palette, the loop count) to `out`.
    pub fn new(
        out: W,
        (width, height): (u32, u32),
        palette: &Palette,
        plan: &FramePlan,
        options: GifOptions,
    ) -> Result<GifWriter<W>, String> {
        let too_big = || format!("{width}×{height}: GIF frames are at most 65535 pixels wide");
        let w = u16::try_from(width).map_err(|_| too_big())?;
        let h = u16::try_from(height).map_err(|_| too_big())?;
        let mut table: Vec<u8> = palette
            .colours
            .iter()
            .flat_map(|c| [c.red, c.green, c.blue])
            .collect();
        // One index past the colours: transparent pixels, or in an opaque GIF the pixels
        // unchanged since the frame before.
        let [r, g, b] = options.matte;
        table.extend([r, g, b]);
        let mut encoder = gif::Encoder::new(out, w, h, &table).map_err(gif_error)?;
        let repeat = match options.loops {
            0 => gif::Repeat::Infinite,
            n => gif::Repeat::Finite(u16::try_from(n - 1).unwrap_or(u16::MAX)),
        };
        encoder.set_repeat(repeat).map_err(gif_error)?;
        let floats: PaletteBuf<Srgb<f32>> = PaletteBuf::new(
            palette
                .colours
                .iter()
                .map(|c| c.into_format::<f32>())
                .collect(),
        )
        .map_err(|_| "the GIF palette is empty or too large".to_string())?;
        Ok(GifWriter {
            encoder,
            size: (width, height),
            floats,
            // Zeroed by the allocator (calloc): pages are touched only where colours occur.
            table: vec![0u8; TABLE_LEN],
            special: palette.len() as u8,
            options,
            plan: *plan,
            previous: None,
            written: 0,
        })
    }

    /// Frames written so far.
    pub fn written(&self) -> u32 {
        self.written
    }

    /// Maps `img` to the palette (dithered if asked) and writes it as the next frame.
    pub fn push(&mut self, img: &image::RgbaImage) -> Result<(), String> {
        let (width, height) = self.size;
        let written = self.written;
        let options = self.options;
        let colours: Vec<Srgb<f32>> = img
            .pixels()
            .map(|p| {
                let [r, g, b] = matted(p.0, options.matte);
                Srgb::new(r, g, b).into_format::<f32>()
            })
            .collect();
        let image = ImageRef::new(width, height, colours.as_slice())
            .map_err(|e| format!("frame {written}: {e}"))?;
        let exact = NearestNeighborColorMap::new(self.floats.clone());
        let map = CachedColorMap::new(exact, &mut self.table);
        let indexed = if options.dither {
            FloydSteinberg::new().dither_image_to_indexed(image, &map)
        } else {
            image.map_to_indexed(&map)
        };
        let (_, mut indices) = indexed.into_parts();
        let transparent_index = options.transparent.then_some(self.special);
        if let Some(t) = transparent_index {
            for (i, p) in indices.iter_mut().zip(img.pixels()) {
                if p.0[3] < ALPHA_THRESHOLD {
                    *i = t;
                }
            }
        }
        let delay = u16::try_from(self.plan.delay(written, 100)).unwrap_or(u16::MAX);
        let (w, h) = (width as u16, height as u16);
        let frame = if options.transparent {
            gif::Frame {
                width: w,
                height: h,
                delay,
                // Each frame replaces the last (its transparent areas must not show the
                // frame before).
                dispose: gif::DisposalMethod::Background,
                transparent: transparent_index,
                buffer: std::borrow::Cow::Owned(indices),
                ..gif::Frame::default()
            }
        } else {
            let frame = changed_part(
                self.previous.as_deref(),
                &indices,
                (w, h),
                self.special,
                delay,
            );
            self.previous = Some(indices);
            frame
        };
        self.encoder.write_frame(&frame).map_err(gif_error)?;
        self.written += 1;
        Ok(())
    }

    /// Writes the trailer; returns the writer.
    pub fn finish(self) -> Result<W, String> {
        self.encoder.into_inner().map_err(gif_error)
    }
}

fn gif_error(e: gif::EncodingError) -> String {
    e.to_string()
}

/// An opaque frame as the rectangle that differs from `previous` (the whole frame when
/// there is none), pixels equal to `previous` set to `keep` (transparent: the frame before
/// shows through).
fn changed_part(
    previous: Option<&[u8]>,
    indices: &[u8],
    (w, h): (u16, u16),
    keep: u8,
    delay: u16,
) -> gif::Frame<'static> {
    let base = gif::Frame {
        delay,
        dispose: gif::DisposalMethod::Keep,
        ..gif::Frame::default()
    };
    let Some(previous) = previous else {
        return gif::Frame {
            width: w,
            height: h,
            buffer: std::borrow::Cow::Owned(indices.to_vec()),
            ..base
        };
    };
    let (wu, hu) = (w as usize, h as usize);
    let (mut x0, mut y0, mut x1, mut y1) = (wu, hu, 0, 0);
    for y in 0..hu {
        let row = y * wu..(y + 1) * wu;
        let (a, b) = (&indices[row.clone()], &previous[row]);
        if let Some(first) = (0..wu).find(|&x| a[x] != b[x]) {
            let last = (0..wu).rev().find(|&x| a[x] != b[x]).unwrap_or(first);
            (x0, x1, y0, y1) = (x0.min(first), x1.max(last), y0.min(y), y);
        }
    }
    if x0 > x1 {
        // Nothing changed: one unchanged pixel carries the delay.
        return gif::Frame {
            width: 1,
            height: 1,
            transparent: Some(keep),
            buffer: std::borrow::Cow::Owned(vec![keep]),
            ..base
        };
    }
    let mut buffer = Vec::with_capacity((x1 - x0 + 1) * (y1 - y0 + 1));
    for y in y0..=y1 {
        for x in x0..=x1 {
            let i = y * wu + x;
            buffer.push(if indices[i] == previous[i] {
                keep
            } else {
                indices[i]
            });
        }
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0 + 1) as u16,
        height: (y1 - y0 + 1) as u16,
        transparent: Some(keep),
        buffer: std::borrow::Cow::Owned(buffer),
        ..base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_are_matted_not_darkened() {
        // A half-covered black pixel over a white page is mid grey, not black.
        assert_eq!(matted([0, 0, 0, 128], [255, 255, 255]), [127, 127, 127]);
        assert_eq!(matted([10, 20, 30, 255], [255, 255, 255]), [10, 20, 30]);
        assert_eq!(matted([10, 20, 30, 0], [1, 2, 3]), [1, 2, 3]);
    }

    #[test]
    fn an_opaque_frame_stores_only_what_changed() {
        let a = vec![1u8; 16];
        let mut b = a.clone();
        b[5] = 2; // (1, 1)
        b[10] = 3; // (2, 2)
        let f = changed_part(Some(&a), &b, (4, 4), 9, 7);
        assert_eq!((f.left, f.top, f.width, f.height), (1, 1, 2, 2));
        assert_eq!(f.buffer.as_ref(), &[2, 9, 9, 3]);
        assert_eq!((f.transparent, f.delay), (Some(9), 7));
        let same = changed_part(Some(&a), &a, (4, 4), 9, 7);
        assert_eq!((same.width, same.height, same.delay), (1, 1, 7));
        assert_eq!(changed_part(None, &b, (4, 4), 9, 7).buffer.len(), 16);
    }

    #[test]
    fn the_cached_colour_map_answers_as_the_exhaustive_search() {
        let colours: Vec<Srgb<f32>> = (0..255u32)
            .map(|i| Srgb::new((i * 37) as u8, (i * 91) as u8, (i * 13) as u8).into_format())
            .collect();
        let exact = || NearestNeighborColorMap::new(PaletteBuf::new(colours.clone()).unwrap());
        let reference = exact();
        let mut table = vec![0u8; TABLE_LEN];
        let cached = CachedColorMap::new(exact(), &mut table);
        for k in 0..20_000u32 {
            let c = Srgb::new(
                (k * 7919 % 256) as u8,
                (k * 104_729 % 256) as u8,
                (k * 31 % 256) as u8,
            )
            .into_format::<f32>();
            let want = reference.palette_index(&c);
            // First the search, then the remembered answer: both the exact one.
            assert_eq!(cached.palette_index(&c), want, "{c:?}");
            assert_eq!(cached.palette_index(&c), want, "{c:?}");
        }
        // The last palette entry (index 254) is stored and read back.
        assert_eq!(cached.palette_index(&colours[254]), 254);
        assert_eq!(cached.palette_index(&colours[254]), 254);
    }

    #[test]
    fn palette_keeps_one_index_for_transparency_and_sampling_is_capped() {
        let options = GifOptions {
            dither: false,
            matte: [255, 255, 255],
            transparent: true,
            loops: 0,
        };
        let mut s = PaletteSampler::new(options, 1000, 512 * 512);
        let mut img = image::RgbaImage::new(512, 512);
        for (x, y, p) in img.enumerate_pixels_mut() {
            *p = image::Rgba([x as u8, y as u8, (x ^ y) as u8, if x < 8 { 0 } else { 255 }]);
        }
        for _ in 0..1000 {
            s.add(&img);
        }
        assert!(s.samples.len() <= MAX_SAMPLES);
        let p = s.palette();
        assert!(p.len() <= 255 && p.len() > 200, "{}", p.len());
    }
}
