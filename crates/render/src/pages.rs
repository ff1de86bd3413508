//! Texture pages decoded off the render thread: each with its box-filtered mip chain
//! ([`PageImage`]), read and decoded across the cores on the desktop
//! ([`read_and_decode_pages`]: the window's opening job, `vitrine render MAP`), one per
//! prepare thread in the batch ([`crate::batch`]). The renderer's texture cache only
//! uploads what it is handed ([`crate::SceneRenderer::provide_texture`]).

use vitrine_core::files::{FileRef, Files, Stamp};
use vitrine_core::formats::texture::decode;

/// A texture page decoded, with its box-filtered mip chain built: what a thread other
/// than the renderer's makes ([`decode_page`]) and hands over
/// ([`crate::SceneRenderer::provide_texture`]), so that drawing only uploads it.
#[derive(Debug, Clone)]
pub struct PageImage {
    /// The full-size image, then each half of the one before, down to 1×1.
    levels: Vec<image::RgbaImage>,
}

impl PageImage {
    /// `image` and its mip chain.
    pub fn new(image: image::RgbaImage) -> PageImage {
        let mut levels = vec![image];
        while let Some(last) = levels.last().filter(|l| l.width() > 1 || l.height() > 1) {
            levels.push(half(last));
        }
        PageImage { levels }
    }

    /// The full-size image, then each half of the one before, down to 1×1.
    pub(crate) fn levels(&self) -> &[image::RgbaImage] {
        &self.levels
    }

    /// Bytes of the image and its mip chain.
    pub fn bytes(&self) -> u64 {
        self.levels.iter().map(|l| l.as_raw().len() as u64).sum()
    }

    /// Width and height of the full-size image.
    pub fn dimensions(&self) -> (u32, u32) {
        self.levels[0].dimensions()
    }
}

/// The page `file` read from `files`, decoded and its mip chain built (any thread).
pub fn decode_page(files: &Files, file: &FileRef) -> Result<PageImage, String> {
    decode(files, file).map(PageImage::new)
}

/// A page's `bytes` (read from `file`) decoded, with its mip chain (any thread); the
/// error names the file.
pub fn decode_page_bytes(file: &FileRef, bytes: &[u8]) -> Result<PageImage, String> {
    vitrine_core::formats::texture::decode_bytes(bytes, &file.file_name())
        .map(PageImage::new)
        .map_err(|e| format!("{file}: {e}"))
}

/// Each of `pages` (a file and the bytes read from it) decoded with its mip chain
/// ([`decode_page_bytes`]), in their order: on the desktop across the cores (a map's
/// dozens of pages take half a second on one), in the browser one after another.
pub fn decode_pages(pages: &[(FileRef, Vec<u8>)]) -> Vec<Result<PageImage, String>> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(pages.len());
        if threads > 1 {
            return decode_pages_on(threads, pages);
        }
    }
    pages
        .iter()
        .map(|(f, bytes)| decode_page_bytes(f, bytes))
        .collect()
}

/// Each of `pages` (e.g. [`crate::batch::texture_files`] of a model), read from `files`
/// and decoded with its mip chain across the cores ([`decode_pages`]), with the version
/// read (a page rewritten meanwhile is decoded again on upload), for
/// [`crate::SceneRenderer::provide_texture`]. Every page is read before any is decoded:
/// `None` when some bytes have still to arrive ([`Files::wanting`]: the page's remote
/// archives fetch the missing ones together, and nothing is decoded for a result that
/// will be dropped). A page that does not decode is left out: the renderer, decoding it
/// itself, says why.
pub fn read_and_decode_pages(
    files: &Files,
    pages: Vec<FileRef>,
) -> Option<Vec<(FileRef, Stamp, PageImage)>> {
    let mut stamps = Vec::new();
    let mut read = Vec::new();
    for file in pages {
        let stamp = files.stamp(&file).unwrap_or_default();
        if let Ok(bytes) = files.read(&file) {
            stamps.push(stamp);
            read.push((file, bytes));
        }
    }
    if files.wanting() {
        return None;
    }
    let decoded = decode_pages(&read);
    Some(
        read.into_iter()
            .zip(stamps)
            .zip(decoded)
            .filter_map(|(((file, _), stamp), page)| Some((file, stamp, page.ok()?)))
            .collect(),
    )
}

/// [`decode_pages`] on `threads` threads, each taking the next page not yet taken.
#[cfg(not(target_arch = "wasm32"))]
#[allow(
    clippy::disallowed_methods,
    reason = "the desktop's page decoding, on scoped threads as the batch's (crates/clippy.toml); not built for wasm32"
)]
fn decode_pages_on(threads: usize, pages: &[(FileRef, Vec<u8>)]) -> Vec<Result<PageImage, String>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Result<PageImage, String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((file, bytes)) = pages.get(i) else {
                            return mine;
                        };
                        mine.push((i, decode_page_bytes(file, bytes)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, page)| page).collect()
}

/// Halves an RGBA8 image with a 2×2 box filter (odd edges repeat the last texel).
fn half(img: &image::RgbaImage) -> image::RgbaImage {
    let (w, h) = img.dimensions();
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let src = img.as_raw();
    let mut out = vec![0u8; (nw * nh * 4) as usize];
    for y in 0..nh {
        let y0 = (2 * y).min(h - 1) as usize;
        let y1 = (2 * y + 1).min(h - 1) as usize;
        for x in 0..nw {
            let x0 = (2 * x).min(w - 1) as usize;
            let x1 = (2 * x + 1).min(w - 1) as usize;
            let o = ((y * nw + x) * 4) as usize;
            for c in 0..4 {
                let at = |xx: usize, yy: usize| src[(yy * w as usize + xx) * 4 + c] as u16;
                out[o + c] = ((at(x0, y0) + at(x1, y0) + at(x0, y1) + at(x1, y1) + 2) / 4) as u8;
            }
        }
    }
    image::RgbaImage::from_raw(nw, nh, out).expect("size matches")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_filter_averages_and_handles_odd_sizes() {
        let img = image::RgbaImage::from_fn(3, 2, |x, _| image::Rgba([x as u8 * 100, 0, 0, 255]));
        let h = half(&img);
        assert_eq!(h.dimensions(), (1, 1));
        assert_eq!(h.get_pixel(0, 0)[0], 50);
        let one = half(&h);
        assert_eq!(one.dimensions(), (1, 1));
    }

    #[test]
    fn a_page_holds_its_mip_chain_down_to_one_texel() {
        let page = PageImage::new(image::RgbaImage::from_pixel(8, 2, image::Rgba([9; 4])));
        let sizes: Vec<_> = page.levels.iter().map(|l| l.dimensions()).collect();
        assert_eq!(sizes, [(8, 2), (4, 1), (2, 1), (1, 1)]);
        assert_eq!(page.dimensions(), (8, 2));
    }

    /// Pages decoded across the cores come back in the order asked, each the page its
    /// file holds (and a file that does not decode says so in its place).
    #[test]
    fn pages_decode_across_threads_in_their_order() {
        let mut pages = Vec::new();
        for n in 1..=9u32 {
            let img = image::RgbaImage::from_pixel(n, 2, image::Rgba([n as u8; 4]));
            let mut png = Vec::new();
            img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
                .unwrap();
            pages.push((FileRef::Disk(format!("/p/page-{n}.png").into()), png));
        }
        let bad = FileRef::Disk("/p/page-bad.png".into());
        pages.insert(4, (bad, b"not a png".to_vec()));
        let got = decode_pages_on(3, &pages);
        assert_eq!(got.len(), 10);
        for ((file, _), page) in pages.iter().zip(&got) {
            match page {
                Ok(p) => assert_eq!(
                    format!("/p/page-{}.png", p.dimensions().0),
                    file.to_string()
                ),
                Err(e) => assert!(e.starts_with("/p/page-bad.png: "), "{e}"),
            }
        }
        assert!(got[4].is_err());
    }
}
