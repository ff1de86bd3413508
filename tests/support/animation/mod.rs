//! Reading exported animations back with decoders independent of the encoders (the
//! `gif`, `png` and `image-webp` crates); frames are compared with stills through
//! [`crate::common::image_diff`].
#![allow(dead_code)]

use std::path::Path;

/// An animation as a viewer shows it: full frames, how long each shows, whether it
/// loops forever.
#[derive(Debug)]
pub struct Decoded {
    pub frames: Vec<image::RgbaImage>,
    pub delays_ms: Vec<f64>,
    pub forever: bool,
}

impl Decoded {
    /// The frame shown `ms` milliseconds in.
    pub fn frame_at(&self, ms: f64) -> &image::RgbaImage {
        let mut end = 0.0;
        for (f, d) in self.frames.iter().zip(&self.delays_ms) {
            end += d;
            if ms < end {
                return f;
            }
        }
        self.frames.last().expect("no frames")
    }

    pub fn duration_ms(&self) -> f64 {
        self.delays_ms.iter().sum()
    }
}

/// Any of the three formats, by extension.
pub fn decode(path: &Path) -> Decoded {
    match path.extension().and_then(|e| e.to_str()) {
        Some("gif") => decode_gif(path),
        Some("apng") => decode_apng(path),
        Some("webp") => decode_webp(path),
        other => panic!("no decoder for {other:?}"),
    }
}

/// GIF frames composited as a browser does (sub-rectangles over the frame before,
/// disposal to background = transparent).
pub fn decode_gif(path: &Path) -> Decoded {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut d = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let (w, h) = (d.width() as u32, d.height() as u32);
    let forever = d.repeat() == gif::Repeat::Infinite;
    let mut canvas = image::RgbaImage::new(w, h);
    let (mut frames, mut delays_ms) = (Vec::new(), Vec::new());
    while let Some(f) = d.read_next_frame().unwrap() {
        let (l, t, fw, fh) = (f.left as u32, f.top as u32, f.width as u32, f.height as u32);
        for y in 0..fh {
            for x in 0..fw {
                let i = ((y * fw + x) * 4) as usize;
                let px = &f.buffer[i..i + 4];
                if px[3] > 0 {
                    canvas.put_pixel(l + x, t + y, image::Rgba([px[0], px[1], px[2], px[3]]));
                }
            }
        }
        frames.push(canvas.clone());
        delays_ms.push(f.delay as f64 * 10.0);
        if f.dispose == gif::DisposalMethod::Background {
            for y in t..t + fh {
                for x in l..l + fw {
                    canvas.put_pixel(x, y, image::Rgba([0, 0, 0, 0]));
                }
            }
        }
    }
    Decoded {
        frames,
        delays_ms,
        forever,
    }
}

/// APNG frames (the exporter writes whole frames, each replacing the last).
pub fn decode_apng(path: &Path) -> Decoded {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let actl = reader
        .info()
        .animation_control
        .expect("an APNG (acTL chunk)");
    let forever = actl.num_plays == 0;
    let (mut frames, mut delays_ms) = (Vec::new(), Vec::new());
    for _ in 0..actl.num_frames {
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let fc = reader.info().frame_control.expect("fcTL");
        assert_eq!((fc.x_offset, fc.y_offset), (0, 0));
        let rgba: Vec<u8> = match info.color_type {
            png::ColorType::Rgba => buf[..info.buffer_size()].to_vec(),
            png::ColorType::Rgb => buf[..info.buffer_size()]
                .chunks(3)
                .flat_map(|c| [c[0], c[1], c[2], 255])
                .collect(),
            other => panic!("unexpected colour type {other:?}"),
        };
        frames.push(image::RgbaImage::from_raw(info.width, info.height, rgba).unwrap());
        let den = if fc.delay_den == 0 { 100 } else { fc.delay_den };
        delays_ms.push(fc.delay_num as f64 * 1000.0 / den as f64);
    }
    Decoded {
        frames,
        delays_ms,
        forever,
    }
}

/// Animated WebP frames.
pub fn decode_webp(path: &Path) -> Decoded {
    let bytes = std::fs::read(path).unwrap();
    let mut d = image_webp::WebPDecoder::new(std::io::Cursor::new(bytes)).unwrap();
    assert!(d.is_animated(), "not an animated WebP");
    let forever = matches!(d.loop_count(), image_webp::LoopCount::Forever);
    let (w, h) = d.dimensions();
    let (mut frames, mut delays_ms) = (Vec::new(), Vec::new());
    for _ in 0..d.num_frames() {
        let mut buf = vec![0; d.output_buffer_size().unwrap()];
        let ms = d.read_frame(&mut buf).unwrap();
        let rgba: Vec<u8> = if d.has_alpha() {
            buf
        } else {
            buf.chunks(3)
                .flat_map(|c| [c[0], c[1], c[2], 255])
                .collect()
        };
        frames.push(image::RgbaImage::from_raw(w, h, rgba).unwrap());
        delays_ms.push(ms as f64);
    }
    Decoded {
        frames,
        delays_ms,
        forever,
    }
}

/// Bounding box `(x0, y0, x1, y1)` of the pixels with alpha above 0.
pub fn alpha_box(img: &image::RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in img.enumerate_pixels() {
        if p.0[3] > 0 {
            b = Some(match b {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            });
        }
    }
    b
}
