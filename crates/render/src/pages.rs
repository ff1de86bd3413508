//! Texture pages decoded off the render thread: each with its mip chain ([`PageImage`]:
//! a KTX2 file's own levels, another format's box-filtered), read and decoded across the cores on the desktop
//! ([`read_and_decode_pages`]: the window's opening job, `vitrine render MAP`), one per
//! prepare thread in the batch ([`crate::batch`]). The renderer's texture cache only
//! uploads what it is handed ([`crate::SceneRenderer::provide_texture`]).

use vitrine_core::files::{FileRef, Files, Stamp};
use vitrine_core::formats::texture::{StoredLevels, decode_levels_bytes};

/// Every level of a page: [`read_and_decode_pages`]'s `max_side` for the full pages.
pub const FULL: u32 = u32::MAX;

/// The largest page without smaller levels of its own (a PNG, not a KTX2) read for a
/// frame drawn from the pages' smaller levels (a map's first frame): a larger one is not
/// read for it ([`PageImage::waiting`]). 64 KiB keeps the classic ground's tile images
/// (16 KiB or less) and small team-colour masks, and leaves out the objects', the
/// water's and the sky's pages (0.4–2.9 MB each in 4.3.3's `base.wz`: a map's first
/// frame read 12–15 MB of them).
pub const WAITING_BYTES: u64 = 64 << 10;

/// A texture page decoded, with its mip chain built: what a thread other than the
/// renderer's makes ([`decode_page`]) and hands over
/// ([`crate::SceneRenderer::provide_texture`]), so that drawing only uploads it. Either
/// the whole page or its levels up to a size ([`PageImage::is_complete`]: a map's first
/// frame, the full pages following).
#[derive(Debug, Clone)]
pub struct PageImage {
    /// The largest level held, then each half of the one before, down to 1×1.
    levels: Vec<image::RgbaImage>,
    /// Width and height of the file's full-size image.
    full_size: (u32, u32),
    /// Not read yet: what is drawn with it is left out until the page arrives
    /// ([`PageImage::waiting`]).
    waiting: bool,
}

impl PageImage {
    /// `image` and its box-filtered mip chain.
    pub fn new(image: image::RgbaImage) -> PageImage {
        let full_size = image.dimensions();
        PageImage::from_levels(
            StoredLevels {
                full_size,
                levels: vec![image],
            },
            FULL,
        )
    }

    /// The levels a file stores ([`decode_levels_bytes`]), the chain completed down to
    /// 1×1 by box-filtering its last level, less the levels wider or taller than
    /// `max_side` (the smallest is kept whatever its size).
    pub fn from_levels(stored: StoredLevels, max_side: u32) -> PageImage {
        let StoredLevels {
            full_size,
            mut levels,
        } = stored;
        while let Some(last) = levels.last().filter(|l| l.width() > 1 || l.height() > 1) {
            levels.push(half(last));
        }
        let large = levels
            .iter()
            .take_while(|l| l.width().max(l.height()) > max_side)
            .count()
            .min(levels.len() - 1);
        levels.drain(..large);
        PageImage {
            levels,
            full_size,
            waiting: false,
        }
    }

    /// A page not read for a first frame (a PNG larger than [`WAITING_BYTES`], which has
    /// no smaller levels to read instead): one transparent texel, never complete. The
    /// renderer leaves out whatever is drawn with it (an object, the water, the sky)
    /// until the whole page replaces it.
    pub fn waiting() -> PageImage {
        PageImage {
            levels: vec![image::RgbaImage::new(1, 1)],
            full_size: (0, 0),
            waiting: true,
        }
    }

    /// Whether this is a page not read yet ([`PageImage::waiting`]).
    pub fn is_waiting(&self) -> bool {
        self.waiting
    }

    /// The largest level held, then each half of the one before, down to 1×1.
    pub(crate) fn levels(&self) -> &[image::RgbaImage] {
        &self.levels
    }

    /// Bytes of the levels held.
    pub fn bytes(&self) -> u64 {
        self.levels.iter().map(|l| l.as_raw().len() as u64).sum()
    }

    /// Width and height of the largest level held.
    pub fn dimensions(&self) -> (u32, u32) {
        self.levels[0].dimensions()
    }

    /// Whether the page is held whole, its full-size image included.
    pub fn is_complete(&self) -> bool {
        self.dimensions() == self.full_size
    }
}

/// A page decoded on another thread, as handed to the renderer: its file, the version
/// read, and the page (shared: a batch's renderers upload one decode) or why it does not
/// decode.
pub type DecodedPage = (FileRef, Stamp, Result<std::sync::Arc<PageImage>, String>);

/// The page `file` read from `files`, decoded whole with its mip chain (any thread).
pub fn decode_page(files: &Files, file: &FileRef) -> Result<PageImage, String> {
    let bytes = files.read(file).map_err(|e| e.to_string())?;
    decode_page_bytes(file, &bytes, FULL)
}

/// A page's `bytes` (read from `file`) decoded with its mip chain, its levels wider or
/// taller than `max_side` left out (any thread; [`FULL`]: the whole page); the error
/// names the file. A KTX2 page's levels are the file's own and only those kept are
/// decoded; another format's are box-filtered from its full-size image.
pub fn decode_page_bytes(file: &FileRef, bytes: &[u8], max_side: u32) -> Result<PageImage, String> {
    decode_levels_bytes(bytes, &file.file_name(), max_side)
        .map(|stored| PageImage::from_levels(stored, max_side))
        .map_err(|e| format!("{file}: {e}"))
}

/// Each of `pages` (a file and the bytes read from it) decoded with its mip chain up to
/// `max_side` ([`decode_page_bytes`]), in their order: on the desktop across the cores (a
/// map's dozens of pages take half a second on one), in the browser one after another.
pub fn decode_pages(pages: &[(FileRef, Vec<u8>)], max_side: u32) -> Vec<Result<PageImage, String>> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(pages.len());
        if threads > 1 {
            return decode_pages_on(threads, pages, max_side);
        }
    }
    pages
        .iter()
        .map(|(f, bytes)| decode_page_bytes(f, bytes, max_side))
        .collect()
}

/// Each of `pages` (e.g. [`crate::batch::texture_files`] of a model), read from `files`
/// and decoded with its mip chain up to `max_side` across the cores ([`decode_pages`]),
/// with the version
/// read (a page rewritten meanwhile is decoded again on upload), for
/// [`crate::SceneRenderer::provide_texture`]. Every page is read before any is decoded:
/// `None` when some bytes have still to arrive ([`Files::wanting`]: the page's remote
/// archives fetch the missing ones together, and nothing is decoded for a result that
/// will be dropped). A page that does not decode comes with its error, which the renderer
/// shows as it shows a page it fails to decode itself; one that cannot be read is left
/// out (the renderer, reading it itself, says why). Below [`FULL`], a page with no
/// smaller levels of its own larger than [`WAITING_BYTES`] is not read: it comes as
/// [`PageImage::waiting`] (after the pages read, whose order is kept).
pub fn read_and_decode_pages(
    files: &Files,
    pages: Vec<FileRef>,
    max_side: u32,
) -> Option<Vec<DecodedPage>> {
    let mut stamps = Vec::new();
    let mut read = Vec::new();
    let mut waiting = Vec::new();
    for file in pages {
        let stamp = files.stamp(&file).unwrap_or_default();
        if waits(files, &file, max_side) {
            waiting.push((file, stamp, Ok(std::sync::Arc::new(PageImage::waiting()))));
        } else if let Ok(bytes) = read_page(files, &file, max_side) {
            stamps.push(stamp);
            read.push((file, bytes));
        }
    }
    if files.wanting() {
        return None;
    }
    let decoded = decode_pages(&read, max_side);
    Some(
        read.into_iter()
            .zip(stamps)
            .zip(decoded)
            .map(|(((file, _), stamp), page)| (file, stamp, page.map(std::sync::Arc::new)))
            .chain(waiting)
            .collect(),
    )
}

/// Whether page `file` is left unread for a frame from levels up to `max_side`: below
/// [`FULL`], a page that is not KTX2 (no smaller levels stored) and is larger than
/// [`WAITING_BYTES`] (its size from the archive's directory or the file system: nothing
/// fetched).
fn waits(files: &Files, file: &FileRef, max_side: u32) -> bool {
    max_side != FULL && !is_ktx2(file) && files.size(file).is_ok_and(|n| n > WAITING_BYTES)
}

/// Whether `file` is named as a KTX2 texture.
fn is_ktx2(file: &FileRef) -> bool {
    file.file_name().to_ascii_lowercase().ends_with(".ktx2")
}

/// The first read of a KTX2 page for a frame from its smaller levels: its header and
/// level index, and (the game's 1024² ground pages) its levels up to 256², 72–88 KB, in
/// one request instead of two (a remote archive's round trip, taken by every page).
const KTX2_FIRST_READ: u64 = 96 << 10;

/// The bytes of page `file` that decoding it up to `max_side` needs: a KTX2 page's
/// header and its levels up to that size (its smallest first in the file, a prefix:
/// [`vitrine_core::formats::ktx2_prefix`]), the rest of the file left as zeros that are
/// never transcoded; any other page whole. The prefix is read with the header
/// ([`KTX2_FIRST_READ`]); a page whose small levels need more takes one more read.
fn read_page(files: &Files, file: &FileRef, max_side: u32) -> std::io::Result<Vec<u8>> {
    use vitrine_core::formats::ktx2_prefix::{HEAD, Prefix, prefix};
    if max_side == FULL || !is_ktx2(file) {
        return files.read(file);
    }
    let mut head = files.read_prefix(file, HEAD.max(KTX2_FIRST_READ))?;
    let mut said = prefix(&head, max_side);
    if let Prefix::Head(len) = said {
        head = files.read_prefix(file, len)?;
        said = prefix(&head, max_side);
    }
    match said {
        // A level index that says the file is longer than it is: the decoder says so.
        Prefix::Part { len, file_len } if file_len <= files.size(file)? => {
            let mut bytes = files.read_prefix(file, len)?;
            bytes.resize(usize::try_from(file_len).unwrap_or(usize::MAX), 0);
            Ok(bytes)
        }
        Prefix::Head(_) | Prefix::Part { .. } | Prefix::Whole => files.read(file),
    }
}

/// [`decode_pages`] on `threads` threads, each taking the next page not yet taken.
#[cfg(not(target_arch = "wasm32"))]
#[allow(
    clippy::disallowed_methods,
    reason = "the desktop's page decoding, on scoped threads as the batch's (crates/clippy.toml); not built for wasm32"
)]
fn decode_pages_on(
    threads: usize,
    pages: &[(FileRef, Vec<u8>)],
    max_side: u32,
) -> Vec<Result<PageImage, String>> {
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
                        mine.push((i, decode_page_bytes(file, bytes, max_side)));
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
    let row = w as usize * 4;
    let mut out = vec![0u8; (nw * nh * 4) as usize];
    for (y, dst) in out.chunks_exact_mut(nw as usize * 4).enumerate() {
        let y0 = (2 * y).min(h as usize - 1);
        let y1 = (2 * y + 1).min(h as usize - 1);
        let (r0, r1) = (&src[y0 * row..][..row], &src[y1 * row..][..row]);
        for (x, texel) in dst.chunks_exact_mut(4).enumerate() {
            let x0 = (2 * x).min(w as usize - 1) * 4;
            let x1 = (2 * x + 1).min(w as usize - 1) * 4;
            for c in 0..4 {
                let sum = u16::from(r0[x0 + c])
                    + u16::from(r0[x1 + c])
                    + u16::from(r1[x0 + c])
                    + u16::from(r1[x1 + c]);
                texel[c] = ((sum + 2) / 4) as u8;
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

    /// The box filter against the plain definition (each output texel the rounded mean
    /// of its 2×2 source texels, the last row or column repeated at an odd edge).
    #[test]
    fn box_filter_matches_its_definition_on_odd_and_even_sizes() {
        for (w, h) in [(7, 5), (8, 6), (1, 9), (9, 1), (2, 2)] {
            let img = image::RgbaImage::from_fn(w, h, |x, y| {
                image::Rgba([
                    (x * 37 + y * 11) as u8,
                    (x * y) as u8,
                    255 - x as u8,
                    (y * 29) as u8,
                ])
            });
            let got = half(&img);
            assert_eq!(got.dimensions(), ((w / 2).max(1), (h / 2).max(1)));
            for (x, y, p) in got.enumerate_pixels() {
                let at = |xx: u32, yy: u32| img.get_pixel(xx.min(w - 1), yy.min(h - 1)).0;
                let quad = [
                    at(2 * x, 2 * y),
                    at(2 * x + 1, 2 * y),
                    at(2 * x, 2 * y + 1),
                    at(2 * x + 1, 2 * y + 1),
                ];
                for c in 0..4 {
                    let sum: u16 = quad.iter().map(|q| u16::from(q[c])).sum();
                    assert_eq!(p[c], ((sum + 2) / 4) as u8, "{w}×{h} at ({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn a_page_holds_its_mip_chain_down_to_one_texel() {
        let page = PageImage::new(image::RgbaImage::from_pixel(8, 2, image::Rgba([9; 4])));
        let sizes: Vec<_> = page.levels.iter().map(|l| l.dimensions()).collect();
        assert_eq!(sizes, [(8, 2), (4, 1), (2, 1), (1, 1)]);
        assert_eq!(page.dimensions(), (8, 2));
    }

    /// Levels a file stores are kept and the chain completed below them; levels above
    /// the size asked for are left out, the page then held in part.
    #[test]
    fn a_page_from_stored_levels_keeps_those_within_the_size() {
        let stored = |sides: &[u32]| StoredLevels {
            full_size: (64, 32),
            levels: sides
                .iter()
                .map(|&s| image::RgbaImage::from_pixel(s, s / 2, image::Rgba([s as u8; 4])))
                .collect(),
        };
        let whole = PageImage::from_levels(stored(&[64, 32]), FULL);
        let sizes: Vec<_> = whole.levels.iter().map(|l| l.dimensions()).collect();
        assert_eq!(
            sizes,
            [(64, 32), (32, 16), (16, 8), (8, 4), (4, 2), (2, 1), (1, 1)]
        );
        // The stored level is kept, not the box filter of the one above.
        assert_eq!(whole.levels[1].get_pixel(0, 0)[0], 32);
        assert!(whole.is_complete());
        let part = PageImage::from_levels(stored(&[64, 32]), 16);
        assert_eq!(part.dimensions(), (16, 8));
        assert_eq!(part.levels.len(), 5);
        assert!(!part.is_complete());
        // Smaller than the smallest level: that level alone.
        let one = PageImage::from_levels(stored(&[64]), 0);
        assert_eq!(one.dimensions(), (1, 1));
    }

    /// Pages read and decoded come back in the order asked; one that does not decode with
    /// its error naming the file (the renderer shows it), one that cannot be read not at
    /// all (the renderer, reading it, says why).
    #[test]
    fn read_pages_come_with_their_errors_and_unread_ones_are_left_out() {
        let mut png = Vec::new();
        image::RgbaImage::from_pixel(8, 8, image::Rgba([5; 4]))
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let source = vitrine_core::files::MemorySource::new()
            .with("good.png", png)
            .with("bad.png", b"not a png".to_vec());
        let files = Files::new(source);
        let wanted = ["good.png", "missing.png", "bad.png"].map(|n| FileRef::Disk(n.into()));
        let got = read_and_decode_pages(&files, wanted.to_vec(), FULL).unwrap();
        let names: Vec<String> = got.iter().map(|(f, _, _)| f.to_string()).collect();
        assert_eq!(names, ["good.png", "bad.png"]);
        assert_eq!(got[0].2.as_ref().unwrap().dimensions(), (8, 8));
        let err = got[1].2.as_ref().unwrap_err();
        assert!(err.starts_with("bad.png: "), "{err}");
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
        let got = decode_pages_on(3, &pages, FULL);
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
