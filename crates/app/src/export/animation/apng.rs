//! APNG (animated PNG, full alpha) with the `png` crate's animation support. Frames are
//! written as they come; the frame count goes in the header, so it is known up front.

use super::timing::FramePlan;
use std::io::Write;

/// Writes the frames as an APNG to `out`, RGBA when `alpha` else RGB; `loops` = 0 plays
/// forever. Returns the frames written (fewer than planned only when `frames` ended
/// early, which leaves the file incomplete: the caller throws it away).
pub fn write(
    out: &mut impl Write,
    (width, height): (u32, u32),
    plan: &FramePlan,
    alpha: bool,
    loops: u32,
    frames: &mut dyn Iterator<Item = image::RgbaImage>,
) -> Result<u32, String> {
    let err = |e: png::EncodingError| e.to_string();
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(if alpha {
        png::ColorType::Rgba
    } else {
        png::ColorType::Rgb
    });
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Balanced);
    encoder.set_animated(plan.count, loops).map_err(err)?;
    let mut writer = encoder.write_header().map_err(err)?;
    // A whole number of frames per second is exact as 1/fps; otherwise milliseconds with
    // the rounding carried.
    let whole_fps =
        (plan.fps.fract() == 0.0 && plan.fps <= u16::MAX as f32).then_some(plan.fps as u16);
    let mut written = 0u32;
    for img in frames {
        if written == plan.count {
            return Err(format!("more than the {} frames announced", plan.count));
        }
        let (num, den) = match whole_fps {
            Some(fps) => (1, fps),
            None => (
                u16::try_from(plan.delay(written, 1000)).unwrap_or(u16::MAX),
                1000,
            ),
        };
        writer.set_frame_delay(num, den).map_err(err)?;
        if alpha {
            writer.write_image_data(img.as_raw()).map_err(err)?;
        } else {
            let rgb: Vec<u8> = img
                .pixels()
                .flat_map(|p| [p.0[0], p.0[1], p.0[2]])
                .collect();
            writer.write_image_data(&rgb).map_err(err)?;
        }
        written += 1;
    }
    if written == plan.count {
        writer.finish().map_err(err)?;
    }
    Ok(written)
}
