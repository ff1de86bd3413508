//! Which frame an export renders next and what becomes of it, one step at a time, the
//! same for the desktop (rendering on its thread, waiting for each picture) and the
//! browser (a frame per page frame, each picture read back over the next frames).
//!
//! Only crop-to-content and the GIF palette need to see frames before encoding starts:
//! a first pass renders them (every frame for the crop box, a few spread over the
//! animation for the palette) and keeps only the box, a bounded sample of pixels and,
//! while they fit in `KEEP_BYTES`, the frames themselves so the second pass need not
//! render them again. The second pass hands every frame, in order and cropped, to the
//! encoder.

use super::crop::{ContentBox, Rect, crop};
use super::gif::{GifOptions, Palette, PaletteSampler};
use super::pipeline::Job;
use super::{Format, FramePlan};
use std::collections::HashMap;

/// Frames rendered for the GIF palette when no crop pass sees them all.
const PALETTE_FRAMES: u32 = 12;
/// Bytes of first-pass frames kept to be encoded without rendering them again (the GIF
/// palette's sample frames at 512² take 12 MiB; at 2048² only a few are kept).
const KEEP_BYTES: usize = 64 << 20;

/// What the encoder needs that only the first pass tells.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Size of each encoded frame (the crop box, else the rendered size).
    pub size: (u32, u32),
    /// GIF: the palette shared by all frames.
    pub palette: Option<Palette>,
    /// The background is transparent.
    pub transparent: bool,
}

/// The next step of an export ([`Frames::next_step`]).
#[derive(Debug)]
pub enum Next {
    /// Render frame `i` (of the plan) and hand it to [`Frames::add`].
    Render(u32),
    /// A frame kept from the first pass, ready for the encoder.
    Encode(image::RgbaImage),
    /// Every frame went to the encoder.
    Done,
}

/// The two passes of an export.
#[derive(Debug)]
pub struct Frames {
    plan: FramePlan,
    size: (u32, u32),
    background: [u8; 4],
    crop_margin: Option<u32>,
    gif: bool,
    first_pass: Vec<u32>,
    /// First-pass frames added so far.
    first_done: usize,
    sample_every: u32,
    keep_max: usize,
    kept: HashMap<u32, image::RgbaImage>,
    content: ContentBox,
    sampler: Option<PaletteSampler>,
    /// Set when the first pass is over.
    layout: Option<Layout>,
    rect: Option<Rect>,
    /// The second pass's next frame.
    next: u32,
}

impl Frames {
    /// The passes of `job` (its view's background says whether it is transparent).
    pub fn new(job: &Job) -> Frames {
        let plan = job.plan;
        let (w, h) = job.size;
        let gif = job.encoding.format == Format::Gif;
        let first_pass: Vec<u32> = if job.crop_margin.is_some() {
            (0..plan.count).collect()
        } else if gif {
            let n = plan.count.min(PALETTE_FRAMES);
            (0..n).map(|k| k * plan.count / n).collect()
        } else {
            Vec::new()
        };
        let sample_every = (first_pass.len() as u32).div_ceil(PALETTE_FRAMES).max(1);
        // Not when cropping: that pass sees every frame, and the frames are cropped
        // afterwards.
        let keep_each = (w as usize * h as usize * 4).max(1);
        let keep_max = if job.crop_margin.is_some() {
            0
        } else {
            KEEP_BYTES / keep_each
        };
        let background = job.view.background;
        let sampler = gif.then(|| {
            let options = GifOptions {
                dither: job.encoding.dither,
                matte: job.encoding.matte,
                transparent: background[3] == 0,
                loops: job.encoding.loops,
            };
            PaletteSampler::new(
                options,
                first_pass.len().div_ceil(sample_every as usize),
                (w * h) as usize,
            )
        });
        let mut frames = Frames {
            plan,
            size: (w, h),
            background,
            crop_margin: job.crop_margin,
            gif,
            first_pass,
            first_done: 0,
            sample_every,
            keep_max,
            kept: HashMap::new(),
            content: ContentBox::default(),
            sampler,
            layout: None,
            rect: None,
            next: 0,
        };
        frames.end_first_pass_if_done();
        frames
    }

    /// Frames to render or encode in all: the first pass's and the plan's.
    pub fn total(&self) -> u32 {
        self.plan.count + self.first_pass.len() as u32
    }

    /// The encoder's layout, once the first pass is over.
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_ref()
    }

    /// What to do next. A [`Next::Render`] is asked again until its frame is added.
    pub fn next_step(&mut self) -> Next {
        if let Some(&i) = self.first_pass.get(self.first_done) {
            return Next::Render(i);
        }
        if self.next >= self.plan.count {
            return Next::Done;
        }
        match self.kept.remove(&self.next) {
            Some(img) => {
                self.next += 1;
                Next::Encode(self.cropped(img))
            }
            None => Next::Render(self.next),
        }
    }

    /// The frame [`Frames::next_step`] asked to render; returns it (cropped) when it goes to
    /// the encoder now, `None` in the first pass.
    pub fn add(&mut self, img: image::RgbaImage) -> Option<image::RgbaImage> {
        let Some(&i) = self.first_pass.get(self.first_done) else {
            self.next += 1;
            return Some(self.cropped(img));
        };
        if self.crop_margin.is_some() {
            self.content.add(&img, self.background);
        }
        if let Some(s) = &mut self.sampler
            && (self.first_done as u32).is_multiple_of(self.sample_every)
        {
            s.add(&img);
        }
        if self.kept.len() < self.keep_max {
            self.kept.insert(i, img);
        }
        self.first_done += 1;
        self.end_first_pass_if_done();
        None
    }

    fn cropped(&self, img: image::RgbaImage) -> image::RgbaImage {
        match self.rect {
            Some(rect) => crop(&img, rect),
            None => img,
        }
    }

    /// After the first pass's last frame: the crop box and the palette.
    fn end_first_pass_if_done(&mut self) {
        if self.layout.is_some() || self.first_done < self.first_pass.len() {
            return;
        }
        let (w, h) = self.size;
        self.rect = self.crop_margin.map(|m| self.content.rect(m, w, h));
        let size = self.rect.map_or((w, h), |r| (r.width, r.height));
        let palette = self.gif.then(|| {
            self.sampler
                .take()
                .map(|s| s.palette())
                .expect("a GIF export samples its palette")
        });
        self.layout = Some(Layout {
            size,
            palette,
            transparent: self.background[3] == 0,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::animation::{Encoding, Motion};
    use crate::model::{Clip, Format as ModelFormat, Model};
    use std::sync::Arc;

    fn job(format: Format, frames: u32, crop: Option<u32>) -> Job {
        let mut m = Model::new(ModelFormat::Pie, "3");
        m.clips.push(Clip::new("pump", 10.0, frames, true));
        let motion = Motion::Clip {
            clip: 0,
            first: 0,
            last: frames - 1,
        };
        Job {
            plan: FramePlan::new(&m, motion, None).unwrap(),
            model: Arc::new(m),
            view: Default::default(),
            size: (8, 6),
            samples: 1,
            crop_margin: crop,
            encoding: Encoding {
                format,
                ..Encoding::default()
            },
            output: "out.gif".into(),
        }
    }

    /// Frame `i`: the background with one pixel of colour `i` at column `i`.
    fn picture(i: u32, bg: [u8; 4]) -> image::RgbaImage {
        let mut img = image::RgbaImage::from_pixel(8, 6, image::Rgba(bg));
        img.put_pixel(i % 8, 2, image::Rgba([(i * 20 % 256) as u8, 200, 0, 255]));
        img
    }

    /// Runs the passes as a caller does; returns the frames rendered (in order) and the
    /// frames encoded.
    fn run(job: &Job) -> (Vec<u32>, Vec<image::RgbaImage>) {
        let bg = job.view.background;
        let mut f = Frames::new(job);
        let (mut rendered, mut encoded) = (Vec::new(), Vec::new());
        loop {
            match f.next_step() {
                Next::Render(i) => {
                    rendered.push(i);
                    if let Some(img) = f.add(picture(i, bg)) {
                        assert!(f.layout().is_some(), "the first pass is over");
                        encoded.push(img);
                    }
                }
                Next::Encode(img) => encoded.push(img),
                Next::Done => break,
            }
        }
        (rendered, encoded)
    }

    #[test]
    fn an_apng_renders_each_frame_once_in_order() {
        let j = job(Format::Apng, 5, None);
        let f = Frames::new(&j);
        assert_eq!(f.total(), 5);
        assert_eq!(f.layout().unwrap().size, (8, 6));
        let (rendered, encoded) = run(&j);
        assert_eq!(rendered, vec![0, 1, 2, 3, 4]);
        assert_eq!(encoded.len(), 5);
        assert_eq!(encoded[3], picture(3, j.view.background));
    }

    #[test]
    fn a_gif_samples_a_few_frames_first_and_reuses_them() {
        let j = job(Format::Gif, 30, None);
        let f = Frames::new(&j);
        assert!(f.layout().is_none(), "the palette comes first");
        assert_eq!(f.total(), 30 + PALETTE_FRAMES);
        let (rendered, encoded) = run(&j);
        // The 12 sample frames are kept and not rendered a second time.
        assert_eq!(rendered.len(), 30);
        let bg = j.view.background;
        assert!(
            encoded
                .iter()
                .enumerate()
                .all(|(i, e)| *e == picture(i as u32, bg))
        );
    }

    #[test]
    fn cropping_sees_every_frame_then_crops_each() {
        let j = job(Format::Apng, 4, Some(0));
        let (rendered, encoded) = run(&j);
        assert_eq!(rendered, vec![0, 1, 2, 3, 0, 1, 2, 3]);
        // The dots at columns 0–3 of row 2: one 4×1 box.
        assert!(encoded.iter().all(|e| e.dimensions() == (4, 1)));
        assert_eq!(encoded[2].get_pixel(2, 0).0, [40, 200, 0, 255]);
    }
}
