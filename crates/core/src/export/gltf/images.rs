//! The images an export embeds: base textures with the team colour baked in (and an
//! opacity map moved into alpha), raw team-colour masks, normal and specular maps, and
//! a checkerboard for a texture that is missing.
//!
//! Decoding and PNG encoding are the expensive part of an export (a Warzone 2100 page is
//! 1024² and hundreds of models share it), so both are cached in [`ImageCache`], which a
//! batch keeps for all its models: each page is decoded once and each baked variant
//! encoded once. Clones of a cache share it, so the threads of a parallel batch each hold
//! one; a page two threads need at once is made by one of them while the other waits.

use super::document::{AlphaTiles, ImageData};
use crate::files::{FileRef, Files};
use crate::model::team::{TEAM_COLOURS, blend_texel};
use crate::model::{AlphaSource, TextureRef};
use image::RgbaImage;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Side of one checkerboard cell and cells per side (as the viewer's placeholder).
const CHECKER_CELL: u32 = 8;
const CHECKER_CELLS: u32 = 8;

/// What one exported image is made of.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum ImageKey {
    /// A texture as it is (tcmask, normal and specular maps).
    Plain(FileRef),
    /// A base texture; the team colour mixed in through `tcmask` (with `team`), and
    /// `opacity`'s channel as alpha.
    Base {
        /// Base texture file.
        base: FileRef,
        /// Team-colour mask and team index.
        tcmask: Option<(FileRef, usize)>,
        /// Opacity map and the channel holding alpha.
        opacity: Option<(FileRef, AlphaSourceKey)>,
    },
    /// The magenta/black checkerboard shown for a missing texture.
    Checkerboard,
}

/// [`AlphaSource`] as a hashable key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum AlphaSourceKey {
    /// Alpha channel.
    Alpha,
    /// Red channel.
    Red,
    /// Luminance.
    Luminance,
}

impl From<AlphaSource> for AlphaSourceKey {
    fn from(s: AlphaSource) -> Self {
        match s {
            AlphaSource::Alpha => AlphaSourceKey::Alpha,
            AlphaSource::Red => AlphaSourceKey::Red,
            AlphaSource::Luminance => AlphaSourceKey::Luminance,
        }
    }
}

/// Decoded pages and encoded PNGs, shared by every model of a batch (and by every clone
/// of the cache: the threads of a batch), and the [`Files`] pages are read from.
#[derive(Debug, Clone)]
pub struct ImageCache {
    files: Files,
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    decoded: Slots<FileRef, Result<Arc<RgbaImage>, String>>,
    encoded: Slots<ImageKey, Result<ImageData, String>>,
    encodes: AtomicUsize,
}

/// Values made once per key: the map is locked only to find a key's slot, the value is
/// made outside the lock (other keys go on meanwhile; the same key waits for it).
#[derive(Debug)]
struct Slots<K, V>(Mutex<HashMap<K, Arc<OnceLock<V>>>>);

impl<K, V> Default for Slots<K, V> {
    fn default() -> Self {
        Slots(Mutex::new(HashMap::new()))
    }
}

impl<K: Eq + Hash + Clone, V: Clone> Slots<K, V> {
    fn get_or_make(&self, key: &K, make: impl FnOnce() -> V) -> V {
        let slot = {
            // A thread that panicked while holding the lock left the map whole (entries
            // are inserted complete), so the poison is ignored.
            let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
            map.entry(key.clone()).or_default().clone()
        };
        slot.get_or_init(make).clone()
    }
}

/// The file behind a texture reference.
fn texture_file(t: &TextureRef) -> Option<FileRef> {
    t.resolved.clone()
}

/// Reads and decodes an image file (format from its content, falling back to the name):
/// the one place the exporter reads texture bytes.
fn read_image(files: &Files, file: &FileRef) -> Result<RgbaImage, String> {
    let bytes = files.read(file).map_err(|e| format!("{file}: {e}"))?;
    let format = image::guess_format(&bytes)
        .ok()
        .or_else(|| image::ImageFormat::from_extension(file.extension()?));
    let decoded = match format {
        Some(f) => image::load_from_memory_with_format(&bytes, f),
        None => image::load_from_memory(&bytes),
    };
    decoded
        .map(|i| i.into_rgba8())
        .map_err(|e| format!("{file}: cannot decode: {e}"))
}

/// A file-name-safe stem of a texture name (`page-7-barbarians`).
fn safe_stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    let s: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() { "texture".into() } else { s }
}

/// The magenta/black checkerboard.
fn checkerboard() -> RgbaImage {
    let side = CHECKER_CELL * CHECKER_CELLS;
    RgbaImage::from_fn(side, side, |x, y| {
        let colours = [[255, 0, 255, 255], [0, 0, 0, 255]];
        image::Rgba(colours[((x / CHECKER_CELL + y / CHECKER_CELL) % 2) as usize])
    })
}

/// Encodes RGBA8 as PNG (fast compression: export speed matters more than a few KiB).
fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, String> {
    crate::export::encode_png(img, image::codecs::png::CompressionType::Fast)
}

/// The texel of `img` at the same relative place as (`x`, `y`) of a `w`×`h` image
/// (nearest; masks may be smaller or larger than their page).
fn texel_at(img: &RgbaImage, x: u32, y: u32, w: u32, h: u32) -> [u8; 4] {
    if img.dimensions() == (w, h) {
        return img.get_pixel(x, y).0;
    }
    let sx = ((x as u64 * img.width() as u64) / w.max(1) as u64) as u32;
    let sy = ((y as u64 * img.height() as u64) / h.max(1) as u64) as u32;
    img.get_pixel(sx.min(img.width() - 1), sy.min(img.height() - 1))
        .0
}

impl ImageCache {
    /// An empty cache reading texture pages from `files`.
    pub fn new(files: &Files) -> Self {
        ImageCache {
            files: files.clone(),
            shared: Arc::default(),
        }
    }

    /// PNG encodings done so far, by this cache and its clones (the batch summary
    /// reports it).
    pub fn encodes(&self) -> usize {
        self.shared.encodes.load(Ordering::Relaxed)
    }

    fn decoded(&self, file: &FileRef) -> Result<Arc<RgbaImage>, String> {
        self.shared
            .decoded
            .get_or_make(file, || read_image(&self.files, file).map(Arc::new))
    }

    /// The PNG for `key`, made and encoded once.
    pub(crate) fn get(&mut self, key: &ImageKey) -> Result<ImageData, String> {
        self.shared.encoded.get_or_make(key, || {
            let (name, img) = self.make(key)?;
            self.shared.encodes.fetch_add(1, Ordering::Relaxed);
            let png = encode_png(&img)?;
            Ok(ImageData {
                name,
                png: Arc::new(png),
                alpha: Arc::new(AlphaTiles::of(&img)),
            })
        })
    }

    fn make(&self, key: &ImageKey) -> Result<(String, RgbaImage), String> {
        match key {
            ImageKey::Checkerboard => Ok(("missing-texture".into(), checkerboard())),
            ImageKey::Plain(file) => {
                let img = self.decoded(file)?;
                Ok((safe_stem(&file.file_name()), (*img).clone()))
            }
            ImageKey::Base {
                base,
                tcmask,
                opacity,
            } => {
                let mut img = (*self.decoded(base)?).clone();
                let (w, h) = img.dimensions();
                let mut name = safe_stem(&base.file_name());
                if let Some((file, team)) = tcmask {
                    let mask = self.decoded(file)?;
                    let rgb = TEAM_COLOURS[team % TEAM_COLOURS.len()].rgb;
                    for (x, y, p) in img.enumerate_pixels_mut() {
                        let a = texel_at(&mask, x, y, w, h)[3];
                        p.0 = blend_texel(p.0, rgb, a);
                    }
                    name = format!("{name}-team{team}");
                }
                if let Some((file, source)) = opacity {
                    let op = self.decoded(file)?;
                    for (x, y, p) in img.enumerate_pixels_mut() {
                        let t = texel_at(&op, x, y, w, h);
                        let a = match source {
                            AlphaSourceKey::Alpha => t[3],
                            AlphaSourceKey::Red => t[0],
                            AlphaSourceKey::Luminance => {
                                (0.2126 * t[0] as f32 + 0.7152 * t[1] as f32 + 0.0722 * t[2] as f32)
                                    .round() as u8
                            }
                        };
                        p.0[3] = ((p.0[3] as u32 * a as u32 + 127) / 255) as u8;
                    }
                    name = format!("{name}-{}", safe_stem(&file.file_name()));
                }
                Ok((name, img))
            }
        }
    }
}

/// The image key of texture `t` as it is, or `None` when it is missing.
pub(crate) fn plain_key(t: &TextureRef) -> Option<ImageKey> {
    texture_file(t).map(ImageKey::Plain)
}

/// The key of a material's base image: `None` when the base texture is missing. A
/// missing mask or opacity map is left out (the base still shows).
pub(crate) fn base_key(
    base: &TextureRef,
    tcmask: Option<&TextureRef>,
    team: usize,
    opacity: Option<(&TextureRef, AlphaSource)>,
) -> Option<ImageKey> {
    Some(ImageKey::Base {
        base: texture_file(base)?,
        tcmask: tcmask.and_then(texture_file).map(|f| (f, team)),
        opacity: opacity.and_then(|(t, s)| texture_file(t).map(|f| (f, s.into()))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_file_stems() {
        assert_eq!(safe_stem("page-7-barbarians.png"), "page-7-barbarians");
        assert_eq!(safe_stem("textures\\Body Skin.JPG"), "Body_Skin");
        assert_eq!(safe_stem("..png"), "_");
        assert_eq!(safe_stem(""), "texture");
    }

    #[test]
    #[allow(
        clippy::disallowed_methods,
        reason = "the desktop shares one cache between threads: the test is such threads"
    )]
    fn clones_share_the_cache_and_threads_make_each_image_once() {
        let cache = ImageCache::new(&Files::new(crate::files::MemorySource::new()));
        let pngs: Vec<ImageData> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..4)
                .map(|_| {
                    let mut mine = cache.clone();
                    s.spawn(move || mine.get(&ImageKey::Checkerboard).unwrap())
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        assert_eq!(cache.encodes(), 1, "one encoding for four threads");
        assert!(pngs.iter().all(|p| Arc::ptr_eq(&p.png, &pngs[0].png)));
        let missing = FileRef::Disk("/nonexistent/vitrine/page.png".into());
        let mut c = cache.clone();
        assert!(c.get(&ImageKey::Plain(missing.clone())).is_err());
        assert!(
            c.get(&ImageKey::Plain(missing)).is_err(),
            "errors are kept too"
        );
        assert_eq!(cache.encodes(), 1);
    }

    #[test]
    fn smaller_masks_are_sampled_at_the_same_place() {
        let mask = RgbaImage::from_fn(2, 2, |x, y| image::Rgba([0, 0, 0, (x + 2 * y) as u8]));
        // A 4×4 page: its texel (3, 1) lies in the mask's cell (1, 0).
        assert_eq!(texel_at(&mask, 3, 1, 4, 4)[3], 1);
        assert_eq!(texel_at(&mask, 0, 3, 4, 4)[3], 2);
    }
}
