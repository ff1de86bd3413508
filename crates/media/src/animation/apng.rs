//! APNG (animated PNG, full alpha) with the `png` crate's animation support. Frames are
//! written as they come ([`ApngWriter::push`]); the frame count goes in the header, so it
//! is known up front.

use super::timing::FramePlan;
use std::io::Write;

/// An APNG being written, one frame at a time.
pub struct ApngWriter<W: Write> {
    writer: png::Writer<W>,
    plan: FramePlan,
    alpha: bool,
    /// `Some(fps)`: delays of exactly 1/fps.
    whole_fps: Option<u16>,
    written: u32,
}

fn png_error(e: png::EncodingError) -> String {
    e.to_string()
}

impl<W: Write> ApngWriter<W> {
    /// Writes the header to `out`: RGBA when `alpha` else RGB, `plan.count` frames,
    /// `loops` = 0 plays forever.
    pub fn new(
        out: W,
        (width, height): (u32, u32),
        plan: &FramePlan,
        alpha: bool,
        loops: u32,
    ) -> Result<ApngWriter<W>, String> {
        let mut encoder = png::Encoder::new(out, width, height);
        encoder.set_color(if alpha {
            png::ColorType::Rgba
        } else {
            png::ColorType::Rgb
        });
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Balanced);
        encoder.set_animated(plan.count, loops).map_err(png_error)?;
        let writer = encoder.write_header().map_err(png_error)?;
        // A whole number of frames per second is exact as 1/fps; otherwise milliseconds
        // with the rounding carried.
        let whole_fps =
            (plan.fps.fract() == 0.0 && plan.fps <= u16::MAX as f32).then_some(plan.fps as u16);
        Ok(ApngWriter {
            writer,
            plan: *plan,
            alpha,
            whole_fps,
            written: 0,
        })
    }

    /// Frames written so far.
    pub fn written(&self) -> u32 {
        self.written
    }

    /// Writes `img` as the next frame.
    pub fn push(&mut self, img: &image::RgbaImage) -> Result<(), String> {
        let written = self.written;
        if written == self.plan.count {
            return Err(format!(
                "more than the {} frames announced",
                self.plan.count
            ));
        }
        let (num, den) = match self.whole_fps {
            Some(fps) => (1, fps),
            None => (
                u16::try_from(self.plan.delay(written, 1000)).unwrap_or(u16::MAX),
                1000,
            ),
        };
        self.writer.set_frame_delay(num, den).map_err(png_error)?;
        if self.alpha {
            self.writer
                .write_image_data(img.as_raw())
                .map_err(png_error)?;
        } else {
            let rgb: Vec<u8> = img
                .pixels()
                .flat_map(|p| [p.0[0], p.0[1], p.0[2]])
                .collect();
            self.writer.write_image_data(&rgb).map_err(png_error)?;
        }
        self.written += 1;
        Ok(())
    }

    /// Ends the file; an error unless all the frames announced were written (the file is
    /// then incomplete: the caller throws it away).
    pub fn finish(self) -> Result<(), String> {
        if self.written != self.plan.count {
            return Err(format!(
                "only {} of {} frames were encoded",
                self.written, self.plan.count
            ));
        }
        self.writer.finish().map_err(png_error)
    }
}
