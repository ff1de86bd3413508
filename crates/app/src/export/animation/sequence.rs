//! PNG sequences for video editors: one PNG per frame, numbered from 1 with at least four
//! digits (`tank_0001.png`, …), or where the output name says `{n}`
//! (`frames/{n}.png` → `frames/0001.png`). Each file is written through the host
//! (atomically on the desktop); a cancelled or failed export removes the frames it had
//! already written.

use crate::host::Host;
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

/// Files written so far; removed on drop unless kept.
struct Written<'a> {
    host: &'a dyn Host,
    paths: Vec<PathBuf>,
    keep: bool,
}

impl Drop for Written<'_> {
    fn drop(&mut self) {
        if !self.keep {
            for p in &self.paths {
                let _ = self.host.remove(p);
            }
        }
    }
}

/// Writes each frame as a PNG; returns (frames written, bytes written). Unless all
/// `count` frames were written, none of them is kept.
pub fn write(
    host: &dyn Host,
    pattern: &Path,
    count: u32,
    frames: &mut dyn Iterator<Item = image::RgbaImage>,
) -> Result<(u32, u64), String> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut written = Written {
        host,
        paths: Vec::new(),
        keep: false,
    };
    let mut bytes_total = 0u64;
    for (i, img) in frames.enumerate() {
        let path = frame_path(pattern, i as u32, count);
        let mut bytes = Vec::new();
        PngEncoder::new_with_quality(&mut bytes, CompressionType::Fast, FilterType::Adaptive)
            .write_image(
                img.as_raw(),
                img.width(),
                img.height(),
                image::ExtendedColorType::Rgba8,
            )
            .map_err(|e| format!("{}: {e}", path.display()))?;
        host.write(&path, &bytes).map_err(|e| e.to_string())?;
        bytes_total += bytes.len() as u64;
        written.paths.push(path);
    }
    let n = written.paths.len() as u32;
    written.keep = n == count;
    Ok((n, bytes_total))
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
        let host = crate::host::MemoryHost::new(Default::default());
        let img = image::RgbaImage::new(4, 4);
        let mut two = vec![img.clone(), img].into_iter();
        let (n, bytes) = write(&*host, Path::new("a.png"), 5, &mut two).unwrap();
        assert_eq!(n, 2);
        assert!(bytes > 0);
        for i in 0..5 {
            assert_eq!(host.written(&frame_path(Path::new("a.png"), i, 5)), None);
        }
    }
}
