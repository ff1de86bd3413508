//! The gallery's thumbnail cache on disk, under the cache folder
//! ([`crate::files::folders::cache_dir`]) in `thumbnails/`: `KEY.png` and beside it
//! `KEY.deps`, the texture files the picture was drawn with and their [`Stamp`]s (keys:
//! [`crate::app::gallery::cache::Key`]). Files are written with
//! [`crate::files::atomic::write_unsynced`] (temp file + rename, no `fsync`), so a crash
//! never leaves half a PNG; a corrupt entry is a miss.

use crate::app::gallery::cache::Key;
use crate::files::{FileRef, Stamp};
use std::path::{Path, PathBuf};

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
            let file = crate::files::parse(Path::new(path));
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
        let png = vitrine_core::export::encode_png(img, image::codecs::png::CompressionType::Fast)?;
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
    use crate::app::gallery::cache::RenderKey;

    fn render() -> RenderKey {
        RenderKey {
            size: 128,
            team: 0,
            background: [30, 30, 30],
            loading: String::new(),
        }
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
