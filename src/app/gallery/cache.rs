//! The gallery's disk cache of thumbnails, under the cache folder
//! ([`crate::files::folders::cache_dir`]) in `thumbnails/`.
//!
//! A thumbnail is keyed by the model file's **content** (not its name or date: a copy or
//! a touched file still hits, an edited one misses), its path (PangYa parts and PMF
//! sidecars depend on the neighbours named after it), and everything the picture depends
//! on in the renderer's settings: size, team colour, background, data roots, PMF rules
//! and [`RENDER_VERSION`]. Beside each `KEY.png` a `KEY.deps` lists the texture files it
//! was drawn with and their [`Stamp`]s; a changed texture page makes the entry a miss, so
//! a thumbnail never shows a stale texture. Files are written with
//! [`crate::files::atomic::write_unsynced`] (temp file + rename, no `fsync`), so a crash
//! never leaves half a PNG; a corrupt entry is a miss.
//!
//! Keys are 128-bit XXH3 (the `xxhash-rust` crate) of the fields above, each written with
//! its length, so a key is the same on every Rust release and machine. (Until the cache
//! moved to XXH3 the keys came from std's SipHash, whose output may change between
//! releases; those old entries are simply never found again.) No eviction: one thumbnail is ~10 KB, 10,000 models ~100 MB; the folder can be deleted
//! at any time.

use crate::files::{FileRef, Stamp};
use std::path::{Path, PathBuf};

/// Bumped when the renderer draws differently, so old thumbnails are not reused.
pub const RENDER_VERSION: u32 = 1;

/// What a thumbnail's pixels depend on besides the model file.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderKey {
    /// Pixels per side.
    pub size: u32,
    /// Team colour index.
    pub team: usize,
    /// Background, sRGB.
    pub background: [u8; 3],
    /// Data roots and loader rules, as text.
    pub loading: String,
}

/// A thumbnail's cache key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(pub u64, pub u64);

impl Key {
    /// The key of `file` with contents `bytes` drawn with `render`.
    pub fn new(file: &FileRef, bytes: &[u8], render: &RenderKey) -> Key {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        // Variable-length fields carry their length, so no two inputs run together.
        let mut field = |b: &[u8]| {
            h.update(&(b.len() as u64).to_le_bytes());
            h.update(b);
        };
        field(&RENDER_VERSION.to_le_bytes());
        field(file.to_string().as_bytes());
        field(bytes);
        field(&render.size.to_le_bytes());
        field(&(render.team as u64).to_le_bytes());
        field(&render.background);
        field(render.loading.as_bytes());
        let k = h.digest128();
        Key((k >> 64) as u64, k as u64)
    }

    fn stem(&self) -> String {
        format!("{:016x}{:016x}", self.0, self.1)
    }
}

/// The thumbnail cache folder.
#[derive(Debug, Clone)]
pub struct DiskCache {
    dir: PathBuf,
}

impl DiskCache {
    /// The cache in the user's cache folder; `None` without one.
    pub fn user() -> Option<DiskCache> {
        crate::files::folders::cache_dir().map(|d| DiskCache::at(&d.join("thumbnails")))
    }

    /// A cache in `dir`.
    pub fn at(dir: &Path) -> DiskCache {
        DiskCache {
            dir: dir.to_path_buf(),
        }
    }

    fn png(&self, key: Key) -> PathBuf {
        self.dir.join(format!("{}.png", key.stem()))
    }

    fn deps(&self, key: Key) -> PathBuf {
        self.dir.join(format!("{}.deps", key.stem()))
    }

    /// The thumbnail under `key`, if present, readable and drawn with the textures as
    /// they are now.
    pub fn get(&self, key: Key) -> Option<image::RgbaImage> {
        let deps = crate::files::read(&FileRef::Disk(self.deps(key))).ok()?;
        for line in String::from_utf8(deps).ok()?.lines() {
            let mut parts = line.splitn(3, ' ');
            let (ns, len, path) = (parts.next()?, parts.next()?, parts.next()?);
            let want = Stamp {
                modified_ns: ns.parse().ok()?,
                len: len.parse().ok()?,
            };
            let file = FileRef::parse(Path::new(path));
            if crate::files::stamp(&file).ok()? != want {
                return None;
            }
        }
        let png = crate::files::read(&FileRef::Disk(self.png(key))).ok()?;
        image::load_from_memory_with_format(&png, image::ImageFormat::Png)
            .ok()
            .map(|i| i.to_rgba8())
    }

    /// Stores `img` under `key`, drawn with `textures`.
    pub fn put(
        &self,
        key: Key,
        img: &image::RgbaImage,
        textures: &[(FileRef, Stamp)],
    ) -> Result<(), String> {
        use image::ImageEncoder;
        use image::codecs::png::{CompressionType, FilterType, PngEncoder};
        let mut png = Vec::new();
        PngEncoder::new_with_quality(&mut png, CompressionType::Fast, FilterType::Adaptive)
            .write_image(
                img.as_raw(),
                img.width(),
                img.height(),
                image::ExtendedColorType::Rgba8,
            )
            .map_err(|e| e.to_string())?;
        let write = |path: &Path, bytes: &[u8]| {
            crate::files::atomic::write_unsynced(path, bytes).map_err(|e| e.to_string())
        };
        write(&self.png(key), &png)?;
        let deps: String = textures
            .iter()
            .map(|(f, s)| format!("{} {} {f}\n", s.modified_ns, s.len))
            .collect();
        // The list last: an entry without it is a miss.
        write(&self.deps(key), deps.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render() -> RenderKey {
        RenderKey {
            size: 128,
            team: 0,
            background: [30, 30, 30],
            loading: String::new(),
        }
    }

    #[test]
    fn keys_follow_content_and_settings() {
        let f = FileRef::Disk("/m/a.pie".into());
        let k = Key::new(&f, b"PIE 3", &render());
        assert_eq!(k, Key::new(&f, b"PIE 3", &render()));
        assert_ne!(k, Key::new(&f, b"PIE 2", &render()));
        let red = RenderKey {
            team: 4,
            ..render()
        };
        assert_ne!(k, Key::new(&f, b"PIE 3", &red));
    }

    /// One input's key is fixed for good, so the cache a build wrote is found by the next
    /// whatever Rust release built either. (A new `RENDER_VERSION` or field changes it on
    /// purpose: every thumbnail is drawn again once.)
    #[test]
    fn keys_are_the_same_on_every_build() {
        let f = FileRef::Disk("/m/a.pie".into());
        assert_eq!(
            Key::new(&f, b"PIE 3", &render()).stem(),
            "3b83a3f42bf372639e53915edb07f025"
        );
    }

    #[test]
    fn a_changed_texture_makes_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::at(&dir.path().join("thumbs"));
        let tex = dir.path().join("page.png");
        std::fs::write(&tex, b"one").unwrap();
        let tex_ref = FileRef::Disk(tex.clone());
        let stamp = crate::files::stamp(&tex_ref).unwrap();
        let key = Key::new(&FileRef::Disk("/m/a.pie".into()), b"x", &render());
        let img = image::RgbaImage::from_pixel(4, 4, image::Rgba([1, 2, 3, 255]));
        assert!(cache.get(key).is_none());
        cache.put(key, &img, &[(tex_ref, stamp)]).unwrap();
        assert_eq!(cache.get(key).as_ref(), Some(&img));
        std::fs::write(&tex, b"longer").unwrap();
        assert!(cache.get(key).is_none(), "texture rewritten: a miss");
    }
}
