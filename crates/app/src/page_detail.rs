//! A document's texture pages, from the opening job to the renderer: decoded in the job
//! with their mip chains ([`DecodedPages`]), and for a map first from their smaller
//! levels alone ([`FIRST_FRAME_SIDE`]), the whole pages following once the first frame is
//! on screen ([`PageDetail`]; the job: [`crate::loading::whole_pages`]).
//!
//! A map's opening view shows the whole map: a tile is a few pixels wide, so its ground
//! textures (1024² KTX2 pages, a repeat every few tiles) and its objects' pages are
//! sampled from their 16× to 64× smaller levels. A KTX2 page stores those levels and
//! they transcode in a fraction of the whole page's time; uploading them alone takes a
//! fraction of the whole pages' 110 MB (8c-concreteplayground). So the window's first
//! frame of a map is drawn from them, and the whole pages replace them as soon as a job
//! has decoded them: the picture sharpens where the view is close enough to tell.
//!
//! The objects', the water's and the sky's pages are PNGs: no smaller levels to read
//! instead, 12–15 MB of a map's first frame on the page (fetched and decoded). The first
//! frame reads none over [`crate::render::pages::WAITING_BYTES`]: it is the ground (and
//! what has small pages), and what is drawn with a page not read yet appears when the
//! whole pages arrive ([`crate::render::pages::PageImage::waiting`]).

use crate::files::FileRef;

/// The largest level, in texels per side, of the pages a map's first frame is drawn
/// from: a 1024² ground page then gives 256², 40 texels a tile (a repeat every 6.4
/// tiles), more than a 1024-pixel view of a whole 64-tile map shows (16 pixels a tile).
pub const FIRST_FRAME_SIDE: u32 = 256;

/// A texture page decoded with its mip chain off the UI thread: the file, the version
/// of it decoded, the page or why it does not decode.
pub use crate::render::pages::DecodedPage;

/// Texture pages a job decoded (with their mip chains), handed to the renderer once
/// ([`crate::viewport`]): the window's first frame of a map then only uploads its pages
/// on the UI thread, where decoding them (PNG, KTX2) took most of its time. Empty once
/// taken, or when the job decoded nothing; the renderer decodes whatever it is not
/// handed.
#[derive(Debug, Clone, Default)]
pub struct DecodedPages(std::sync::Arc<std::sync::Mutex<Vec<DecodedPage>>>);

impl DecodedPages {
    /// Pages to hand over.
    pub fn new(pages: Vec<DecodedPage>) -> DecodedPages {
        DecodedPages(std::sync::Arc::new(std::sync::Mutex::new(pages)))
    }

    /// The pages, once (empty afterwards).
    pub fn take(&self) -> Vec<DecodedPage> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Where a document's pages stand: which were handed to the renderer from their
/// smaller levels only, and their whole pages once decoded.
#[derive(Debug, Clone, Default)]
pub struct PageDetail {
    /// The pages first uploaded from their smaller levels (none: every page whole).
    pub partial: Vec<FileRef>,
    /// The view has reported the document uploaded: its first frame is on its way to the
    /// screen, and the next frame starts the job (which would otherwise share the cores
    /// with drawing it).
    pub first_frame_sent: bool,
    /// The job decoding the whole pages was started.
    pub started: bool,
    /// The whole pages, decoded, for the renderer ([`crate::viewport`] takes them).
    pub whole: DecodedPages,
}

impl PageDetail {
    /// The detail of a document whose opening job decoded `pages`: those held in part
    /// are to follow whole.
    pub fn after(pages: &[DecodedPage]) -> PageDetail {
        PageDetail {
            partial: pages
                .iter()
                .filter(|(_, _, page)| page.as_ref().is_ok_and(|p| !p.is_complete()))
                .map(|(file, _, _)| file.clone())
                .collect(),
            ..PageDetail::default()
        }
    }
}

/// The largest level of the pages a document's opening job decodes: a map's
/// [`FIRST_FRAME_SIDE`], every other document's whole pages (a model fills the view, its
/// pages are seen at their full size).
pub fn first_side(is_map: bool) -> u32 {
    if is_map {
        FIRST_FRAME_SIDE
    } else {
        crate::render::pages::FULL
    }
}

/// What a frame that drew the document asks of its [`PageDetail`]
/// ([`PageDetail::drawn`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Nothing (every page whole, or their job started).
    Nothing,
    /// Another frame: the job starts then, once this one is on the screen.
    Repaint,
    /// Start the job decoding these pages whole.
    Start(Vec<FileRef>),
}

impl PageDetail {
    /// The view drew the document (`busy`: another document job runs, which starting the
    /// pages' job would cancel — and the document it opens replaces this one): the first
    /// time, a frame to follow; the next, the job of the pages held in part.
    pub fn drawn(&mut self, busy: bool) -> Step {
        if self.partial.is_empty() || self.started {
            return Step::Nothing;
        }
        if !self.first_frame_sent {
            self.first_frame_sent = true;
            return Step::Repaint;
        }
        if busy {
            return Step::Nothing;
        }
        self.started = true;
        Step::Start(self.partial.clone())
    }

    /// The whole pages arrived from the job: handed to the view, nothing left in part.
    pub fn arrived(&mut self, pages: Vec<DecodedPage>) {
        self.whole = DecodedPages::new(pages);
        self.partial.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first frame drawn asks for another; the next starts the job, unless another
    /// document job runs; then nothing more, and nothing at all with every page whole.
    #[test]
    fn the_whole_pages_start_the_frame_after_the_first_unless_a_load_runs() {
        let file = FileRef::Disk("/d/page-1.ktx2".into());
        let mut d = PageDetail {
            partial: vec![file.clone()],
            ..PageDetail::default()
        };
        assert_eq!(d.drawn(false), Step::Repaint);
        assert_eq!(d.drawn(true), Step::Nothing);
        assert_eq!(d.drawn(false), Step::Start(vec![file]));
        assert_eq!(d.drawn(false), Step::Nothing);
        d.arrived(Vec::new());
        assert!(d.partial.is_empty());
        let mut whole = PageDetail::default();
        assert_eq!(whole.drawn(false), Step::Nothing);
        assert!(!whole.first_frame_sent);
    }
}
