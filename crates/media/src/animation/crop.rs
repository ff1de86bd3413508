//! Crop to content: one box over all frames (so the model does not jump from frame to
//! frame), grown by a margin and kept inside the picture.

/// A pixel rectangle: `x`, `y` of the top-left corner, `width`, `height`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// The union of the content boxes of the frames seen so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ContentBox {
    /// `(x0, y0, x1, y1)` inclusive, `None` until a frame had content.
    bounds: Option<(u32, u32, u32, u32)>,
}

impl ContentBox {
    /// Adds the pixels of `img` that are not background: any alpha above 0 when the
    /// background is transparent (`background[3] == 0`), else any colour other than the
    /// background's.
    pub fn add(&mut self, img: &image::RgbaImage, background: [u8; 4]) {
        let transparent = background[3] == 0;
        let is_content = |p: &image::Rgba<u8>| {
            if transparent {
                p.0[3] > 0
            } else {
                p.0[..3] != background[..3]
            }
        };
        let (w, h) = img.dimensions();
        for y in 0..h {
            let Some(first) = (0..w).find(|&x| is_content(img.get_pixel(x, y))) else {
                continue;
            };
            let last = (first..w)
                .rev()
                .find(|&x| is_content(img.get_pixel(x, y)))
                .unwrap_or(first);
            self.bounds = Some(match self.bounds {
                None => (first, y, last, y),
                Some((x0, y0, x1, y1)) => (x0.min(first), y0.min(y), x1.max(last), y1.max(y)),
            });
        }
    }

    /// The box grown by `margin` pixels on each side, inside a `width` × `height`
    /// picture; the whole picture if no frame had content.
    pub fn rect(&self, margin: u32, width: u32, height: u32) -> Rect {
        let Some((x0, y0, x1, y1)) = self.bounds else {
            return Rect {
                x: 0,
                y: 0,
                width,
                height,
            };
        };
        let (x0, y0) = (x0.saturating_sub(margin), y0.saturating_sub(margin));
        let x1 = x1.saturating_add(margin).min(width - 1);
        let y1 = y1.saturating_add(margin).min(height - 1);
        Rect {
            x: x0,
            y: y0,
            width: x1 - x0 + 1,
            height: y1 - y0 + 1,
        }
    }
}

/// The `rect` part of `img` (which must contain it).
pub fn crop(img: &image::RgbaImage, rect: Rect) -> image::RgbaImage {
    image::imageops::crop_imm(img, rect.x, rect.y, rect.width, rect.height).to_image()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(dot: (u32, u32)) -> image::RgbaImage {
        let mut img = image::RgbaImage::from_pixel(40, 30, image::Rgba([10, 20, 30, 255]));
        img.put_pixel(dot.0, dot.1, image::Rgba([200, 0, 0, 255]));
        img
    }

    #[test]
    fn one_box_over_all_frames_with_a_margin() {
        let bg = [10, 20, 30, 255];
        let mut b = ContentBox::default();
        assert_eq!(b.rect(2, 40, 30).width, 40, "no content: the whole picture");
        b.add(&frame((20, 12)), bg);
        b.add(&frame((10, 5)), bg);
        assert_eq!(
            b.rect(2, 40, 30),
            Rect {
                x: 8,
                y: 3,
                width: 15,
                height: 12
            }
        );
        // The margin stops at the picture's edge.
        b.add(&frame((39, 29)), bg);
        let r = b.rect(5, 40, 30);
        assert_eq!((r.x + r.width, r.y + r.height), (40, 30));
        assert_eq!(crop(&frame((10, 5)), r).dimensions(), (r.width, r.height));
    }

    #[test]
    fn transparent_background_counts_alpha() {
        let mut img = image::RgbaImage::from_pixel(8, 8, image::Rgba([48, 52, 60, 0]));
        img.put_pixel(3, 4, image::Rgba([48, 52, 60, 40]));
        let mut b = ContentBox::default();
        b.add(&img, [48, 52, 60, 0]);
        assert_eq!(
            b.rect(0, 8, 8),
            Rect {
                x: 3,
                y: 4,
                width: 1,
                height: 1
            }
        );
    }
}
