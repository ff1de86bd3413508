//! The texture pages a batch's prepare threads decoded, shared by its renderers.
//!
//! Each renderer uploads the pages it draws into its own device, but a page needs
//! decoding only once: the last pages decoded are kept (up to [`KEPT_BYTES`]), so a
//! second renderer that meets a page soon after the first — as it does in a folder whose
//! models share a page — takes the same image. A page asked for while another thread
//! decodes it waits for that decode instead of starting its own. Past the budget the
//! oldest pages are let go: a renderer that meets one later has it decoded again.

use crate::pages::{PageImage, decode_page};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use vitrine_core::files::{FileRef, Files, Stamp};

/// A decoded page, or why it does not decode.
pub(super) type Page = Result<Arc<PageImage>, String>;

/// Bytes of decoded pages kept for the other renderers (64 MiB: a few dozen pages).
pub(super) const KEPT_BYTES: u64 = 64 << 20;

type Key = (FileRef, Stamp);

#[derive(Default)]
struct Kept {
    pages: HashMap<Key, Arc<OnceLock<Page>>>,
    /// Decoded pages, oldest first, with their bytes.
    order: VecDeque<(Key, u64)>,
    bytes: u64,
}

/// The decoded pages of a batch.
pub(super) struct Pages {
    files: Files,
    kept: Mutex<Kept>,
    budget: u64,
}

impl Pages {
    /// Pages read from `files`, keeping up to `budget` bytes of them.
    pub(super) fn new(files: Files, budget: u64) -> Pages {
        Pages {
            files,
            kept: Mutex::default(),
            budget,
        }
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The page `key`: the kept one, else decoded now (and kept).
    pub(super) fn get(&self, key: &Key) -> Page {
        let cell = self.kept().pages.entry(key.clone()).or_default().clone();
        self.decoded(key, &cell)
    }

    /// The page `key` if it is kept (waiting while another thread decodes it).
    pub(super) fn if_kept(&self, key: &Key) -> Option<Page> {
        let cell = self.kept().pages.get(key).cloned()?;
        Some(self.decoded(key, &cell))
    }

    fn decoded(&self, key: &Key, cell: &OnceLock<Page>) -> Page {
        let mut fresh = false;
        let page = cell
            .get_or_init(|| {
                fresh = true;
                decode_page(&self.files, &key.0).map(Arc::new)
            })
            .clone();
        if fresh {
            let bytes = page.as_ref().map_or(0, |p| p.bytes());
            self.keep(key, bytes);
        }
        page
    }

    /// Counts the newly decoded `key` and lets the oldest pages go past the budget (the
    /// newest stays whatever the budget).
    fn keep(&self, key: &Key, bytes: u64) {
        let mut k = self.kept();
        k.order.push_back((key.clone(), bytes));
        k.bytes += bytes;
        while k.bytes > self.budget && k.order.len() > 1 {
            let Some((old, b)) = k.order.pop_front() else {
                break;
            };
            k.bytes -= b;
            k.pages.remove(&old);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::files::MemorySource;

    fn png(side: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(side, side, image::Rgba([9, 8, 7, 255]));
        let mut bytes = Vec::new();
        img.write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
        bytes
    }

    fn key(name: &str) -> Key {
        (FileRef::Disk(name.into()), Stamp::default())
    }

    #[test]
    fn a_page_is_decoded_once_and_kept_within_the_budget() {
        let mut source = MemorySource::new();
        for name in ["a.png", "b.png", "c.png"] {
            source.insert(name, png(16));
        }
        // Room for two 16² pages (1,364 bytes each with their mip chains).
        let pages = Pages::new(Files::new(source), 2 * 1364);
        let a = pages.get(&key("a.png")).unwrap();
        let again = pages.if_kept(&key("a.png")).unwrap().unwrap();
        assert!(Arc::ptr_eq(&a, &again), "decoded twice");
        assert_eq!(a.dimensions(), (16, 16));
        pages.get(&key("b.png")).unwrap();
        pages.get(&key("c.png")).unwrap();
        assert!(
            pages.if_kept(&key("a.png")).is_none(),
            "the oldest is let go"
        );
        assert!(pages.if_kept(&key("c.png")).is_some());
        assert!(pages.get(&key("missing.png")).is_err());
    }
}
