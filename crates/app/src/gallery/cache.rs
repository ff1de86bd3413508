//! The keys of the gallery's thumbnail cache ([`super::super::host::ThumbnailCache`],
//! kept by the front-end: the desktop's in the user's cache folder, `thumbnails/`).
//!
//! A thumbnail is keyed by the model file's **content** (not its name or date: a copy or
//! a touched file still hits, an edited one misses), its path (PangYa parts and PMF
//! sidecars depend on the neighbours named after it), and everything the picture depends
//! on in the renderer's settings: size, team colour, background, data roots, PMF rules
//! and [`RENDER_VERSION`]. Beside each `KEY.png` a `KEY.deps` lists the texture files it
//! was drawn with and their `Stamp`s; a changed texture page makes the entry a miss, so
//! a thumbnail never shows a stale texture.
//!
//! Keys are 128-bit XXH3 (the `xxhash-rust` crate) of the fields above, each written with
//! its length, so a key is the same on every Rust release and machine. (Until the cache
//! moved to XXH3 the keys came from std's SipHash, whose output may change between
//! releases; those old entries are simply never found again.) No eviction: one thumbnail is ~10 KB, 10,000 models ~100 MB; the folder can be deleted
//! at any time.

use crate::files::FileRef;

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

    /// The key as 32 hexadecimal digits (the cache's file names).
    pub fn stem(&self) -> String {
        format!("{:016x}{:016x}", self.0, self.1)
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
}
