//! PNG sequences for video editors: one PNG per frame, numbered from 1 with at least four
//! digits (`tank_0001.png`, …), or where the output name says `{n}`
//! (`frames/{n}.png` → `frames/0001.png`). Each file is written through the output
//! (atomically on the desktop); a cancelled or failed export removes the frames it had
//! already written.

use crate::output::Output;
use std::path::{Path, PathBuf};

/// The placeholder for the frame number in an output name.
pub const PLACEHOLDER: &str = "{n}";

/// The file of frame `index` (from 0) of `count` for the output name `pattern`.
pub fn frame_path(pattern: &Path, index: u32, count: u32) -> PathBuf {
    let digits = count.max(1).to_string().len().max(4);
    let number = format!("{:0digits$}", index + 1);
    let name = crate::files::file_name(pattern);
    let name = if name.contains(PLACEHOLDER) {
        name.replace(PLACEHOLDER, &number)
    } else {
        let p = Path::new(&name);
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "frame".into());
        format!("{stem}_{number}.png")
    };
    pattern.with_file_name(name)
}

/// A PNG sequence being written, one file per [`SequenceWriter::push`]. Dropped before
/// [`SequenceWriter::finish`] has kept them, it removes the files it wrote.
pub struct SequenceWriter<'h> {
    output: &'h dyn Output,
    pattern: PathBuf,
    count: u32,
    paths: Vec<PathBuf>,
    bytes: u64,
    keep: bool,
}

impl Drop for SequenceWriter<'_> {
    fn drop(&mut self) {
        if !self.keep {
            for p in &self.paths {
                let _ = self.output.remove(p);
            }
        }
    }
}

impl<'h> SequenceWriter<'h> {
    /// A sequence of `count` frames named after `pattern`, written through `output`.
    pub fn new(output: &'h dyn Output, pattern: &Path, count: u32) -> SequenceWriter<'h> {
        SequenceWriter {
            output,
            pattern: pattern.to_path_buf(),
            count,
            paths: Vec::new(),
            bytes: 0,
            keep: false,
        }
    }

    /// Frames written so far.
    pub fn written(&self) -> u32 {
        self.paths.len() as u32
    }

    /// Writes `img` as the next frame's PNG.
    pub fn push(&mut self, img: &image::RgbaImage) -> Result<(), String> {
        let path = frame_path(&self.pattern, self.written(), self.count);
        let fast = image::codecs::png::CompressionType::Fast;
        let bytes = vitrine_core::export::encode_png(img, fast)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        self.output
            .write(&path, &bytes)
            .map_err(|e| e.to_string())?;
        self.bytes += bytes.len() as u64;
        self.paths.push(path);
        Ok(())
    }

    /// Keeps the files if all `count` frames were written (else removes them and says
    /// so); returns the bytes written.
    pub fn finish(mut self) -> Result<u64, String> {
        if self.written() != self.count {
            return Err(format!(
                "only {} of {} frames were encoded",
                self.written(),
                self.count
            ));
        }
        self.keep = true;
        Ok(self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering() {
        assert_eq!(
            frame_path(Path::new("out/tank.png"), 0, 60),
            Path::new("out/tank_0001.png")
        );
        assert_eq!(
            frame_path(Path::new("frames/{n}.png"), 11, 12),
            Path::new("frames/0012.png")
        );
        assert_eq!(
            frame_path(Path::new("f-{n}.png"), 99_999, 100_000),
            Path::new("f-100000.png")
        );
    }

    #[test]
    fn an_unfinished_sequence_leaves_nothing() {
        let output = crate::output::MemoryOutput::default();
        let img = image::RgbaImage::new(4, 4);
        let first = frame_path(Path::new("a.png"), 0, 5);
        let mut w = SequenceWriter::new(&output, Path::new("a.png"), 5);
        w.push(&img).unwrap();
        w.push(&img).unwrap();
        assert_eq!(w.written(), 2);
        assert!(
            output.written(&first).is_some(),
            "each frame is written as it comes"
        );
        let e = w.finish().unwrap_err();
        assert!(e.contains("2 of 5"), "{e}");
        for i in 0..5 {
            assert_eq!(output.written(&frame_path(Path::new("a.png"), i, 5)), None);
        }
        // A whole sequence is kept.
        let mut w = SequenceWriter::new(&output, Path::new("b.png"), 2);
        w.push(&img).unwrap();
        w.push(&img).unwrap();
        assert!(w.finish().unwrap() > 0);
        assert!(
            output
                .written(&frame_path(Path::new("b.png"), 1, 2))
                .is_some()
        );
    }
}
