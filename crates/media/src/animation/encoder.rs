//! The encoder of an export's format behind one interface: frames go in one at a time
//! ([`Encoder::push`]: on the desktop from the encoder thread, in the browser a frame per
//! page frame), and [`Encoder::finish`] ends the file and commits it (renamed into place
//! on the desktop, offered as a download in the browser). An encoder dropped unfinished
//! (cancelled, failed) leaves nothing.

use super::apng::ApngWriter;
use super::frames::Layout;
use super::gif::GifWriter;
use super::pipeline::Job;
use super::sequence::{self, SequenceWriter};
use super::{Format, GifOptions};
use crate::output::{Output, OutputFile};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Where an export writes, decided before any frame is rendered (an unwritable path
/// fails first).
pub enum Destination<'h> {
    /// The output file, not yet committed.
    File(Box<dyn OutputFile>),
    /// A PNG sequence written through this output, a file per frame.
    Sequence(&'h dyn Output),
}

impl<'h> Destination<'h> {
    /// Creates `job`'s output through `output` (a PNG sequence writes nothing yet).
    pub fn create(output: &'h dyn Output, job: &Job) -> Result<Destination<'h>, String> {
        match job.encoding.format {
            Format::PngSequence => Ok(Destination::Sequence(output)),
            _ => Destination::file(output, job),
        }
    }

    /// `job`'s output file, created through `output`: only for the formats written as one
    /// file (a PNG sequence is an error), and borrowing nothing.
    pub fn file(output: &dyn Output, job: &Job) -> Result<Destination<'h>, String> {
        if job.encoding.format == Format::PngSequence {
            return Err("a PNG sequence is written as many files, not one".into());
        }
        output
            .create(&job.output)
            .map(Destination::File)
            .map_err(|e| e.to_string())
    }
}

/// The output file behind a byte counter, shared by the format's writer and the
/// [`Encoder`] (which takes it back to commit it once the writer is done).
#[derive(Clone)]
struct Shared(Arc<Mutex<Counted>>);

/// The output file, buffered, its bytes counted.
type Counted = Counting<BufWriter<Box<dyn OutputFile>>>;

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Counted> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.lock().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.lock().flush()
    }
}

/// A writer that counts the bytes through it.
struct Counting<W> {
    inner: W,
    count: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.count += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

enum Writer<'h> {
    Gif(Box<GifWriter<Shared>>),
    Apng(ApngWriter<Shared>),
    #[cfg(feature = "webp")]
    Webp(super::webp::WebpWriter<Shared>),
    Sequence(SequenceWriter<'h>),
}

/// The encoder of one export.
pub struct Encoder<'h> {
    writer: Writer<'h>,
    /// The output file (`None` for a PNG sequence).
    out: Option<Shared>,
    /// What the export writes (a PNG sequence: the name pattern).
    output: PathBuf,
    count: u32,
    /// Every frame's size (the layout's).
    size: (u32, u32),
}

/// What an encoder wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// The file written (a PNG sequence: its first frame).
    pub path: PathBuf,
    /// Frames.
    pub frames: u32,
    /// Bytes (all files of a sequence).
    pub bytes: u64,
}

impl<'h> Encoder<'h> {
    /// The encoder of `job`'s format writing frames of `layout` to `destination`
    /// (writes the file's header).
    pub fn new(
        destination: Destination<'h>,
        job: &Job,
        layout: &Layout,
    ) -> Result<Encoder<'h>, String> {
        let plan = &job.plan;
        let enc = job.encoding;
        let size = layout.size;
        let (out, output) = match destination {
            Destination::File(file) => (
                Some(Shared(Arc::new(Mutex::new(Counting {
                    inner: BufWriter::new(file),
                    count: 0,
                })))),
                None,
            ),
            Destination::Sequence(output) => (None, Some(output)),
        };
        let writer = match (enc.format, out.clone(), output) {
            (Format::PngSequence, _, Some(output)) => {
                Writer::Sequence(SequenceWriter::new(output, &job.output, plan.count))
            }
            (Format::Gif, Some(out), _) => {
                let palette = layout.palette.as_ref().ok_or("no palette")?;
                let options = GifOptions {
                    dither: enc.dither,
                    matte: enc.matte,
                    transparent: layout.transparent,
                    loops: enc.loops,
                };
                Writer::Gif(Box::new(GifWriter::new(out, size, palette, plan, options)?))
            }
            (Format::Apng, Some(out), _) => Writer::Apng(ApngWriter::new(
                out,
                size,
                plan,
                layout.transparent,
                enc.loops,
            )?),
            #[cfg(feature = "webp")]
            (Format::Webp, Some(out), _) => {
                let options = super::webp::WebpOptions {
                    quality: enc.webp_quality,
                    loops: enc.loops,
                };
                Writer::Webp(super::webp::WebpWriter::new(out, size, plan, options)?)
            }
            #[cfg(not(feature = "webp"))]
            (Format::Webp, ..) => return Err(super::WEBP_UNAVAILABLE.to_string()),
            (format, ..) => {
                return Err(format!(
                    "{} cannot be written to this destination",
                    format.label()
                ));
            }
        };
        Ok(Encoder {
            writer,
            out,
            output: job.output.clone(),
            count: plan.count,
            size,
        })
    }

    /// Frames encoded so far.
    pub fn written(&self) -> u32 {
        match &self.writer {
            Writer::Gif(w) => w.written(),
            Writer::Apng(w) => w.written(),
            #[cfg(feature = "webp")]
            Writer::Webp(w) => w.written(),
            Writer::Sequence(w) => w.written(),
        }
    }

    /// Encodes `img` as the next frame; a frame not of the layout's size is refused, for
    /// every format.
    pub fn push(&mut self, img: &image::RgbaImage) -> Result<(), String> {
        if img.dimensions() != self.size {
            let (width, height) = self.size;
            return Err(format!(
                "frame {} is {}×{}, expected {width}×{height}",
                self.written(),
                img.width(),
                img.height()
            ));
        }
        match &mut self.writer {
            Writer::Gif(w) => w.push(img),
            Writer::Apng(w) => w.push(img),
            #[cfg(feature = "webp")]
            Writer::Webp(w) => w.push(img),
            Writer::Sequence(w) => w.push(img),
        }
    }

    /// Ends the file and commits it; an error (nothing kept) unless every planned frame
    /// was encoded.
    pub fn finish(self) -> Result<Encoded, String> {
        let frames = self.written();
        if frames != self.count {
            return Err(format!(
                "only {frames} of {} frames were encoded",
                self.count
            ));
        }
        let sequence_bytes = match self.writer {
            Writer::Gif(w) => w.finish().map(|_| None),
            Writer::Apng(w) => w.finish().map(|_| None),
            #[cfg(feature = "webp")]
            Writer::Webp(w) => w.finish().map(|_| None),
            Writer::Sequence(w) => w.finish().map(Some),
        }?;
        if let Some(bytes) = sequence_bytes {
            return Ok(Encoded {
                path: sequence::frame_path(&self.output, 0, self.count),
                frames,
                bytes,
            });
        }
        let out = self.out.ok_or("no output file")?;
        let counting = Arc::try_unwrap(out.0)
            .map_err(|_| "the output is still in use".to_string())?
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        let bytes = counting.count;
        let file = counting
            .inner
            .into_inner()
            .map_err(|e| e.error().to_string())?;
        let path = file.commit().map_err(|e| e.to_string())?;
        Ok(Encoded {
            path,
            frames,
            bytes,
        })
    }
}
