//! Animated WebP through libwebp's animation encoder (`libwebp-sys`, which builds the
//! vendored libwebp from source). Lossless, or lossy with a quality. Each frame is handed
//! to libwebp as it comes ([`WebpWriter::push`]; it keeps the encoded frames, not the
//! pixels).

use super::timing::FramePlan;
use libwebp_sys as sys;
use std::io::Write;

/// WebP settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WebpOptions {
    /// `None`: lossless; `Some(q)`: lossy at quality `q` (0–100).
    pub quality: Option<f32>,
    /// Times the animation plays; 0 = forever.
    pub loops: u32,
}

/// An animation encoder, deleted on drop.
struct AnimEncoder(*mut sys::WebPAnimEncoder);

impl Drop for AnimEncoder {
    fn drop(&mut self) {
        // SAFETY: created by WebPAnimEncoderNewInternal, deleted once.
        unsafe { sys::WebPAnimEncoderDelete(self.0) }
    }
}

impl AnimEncoder {
    fn error(&self) -> String {
        // SAFETY: the encoder is alive; libwebp returns a NUL-terminated string it owns.
        let msg = unsafe { sys::WebPAnimEncoderGetError(self.0) };
        if msg.is_null() {
            return "libwebp failed".into();
        }
        // SAFETY: non-null, NUL-terminated.
        let text = unsafe { std::ffi::CStr::from_ptr(msg) }.to_string_lossy();
        if text.is_empty() {
            "libwebp failed".into()
        } else {
            text.into_owned()
        }
    }
}

/// An animated WebP being encoded, one frame at a time; libwebp assembles the file
/// in [`WebpWriter::finish`].
pub struct WebpWriter<W: Write> {
    out: W,
    encoder: AnimEncoder,
    config: sys::WebPConfig,
    size: (u32, u32),
    plan: FramePlan,
    written: u32,
}

impl<W: Write> WebpWriter<W> {
    /// An encoder of `width` × `height` frames, written to `out` when finished.
    pub fn new(
        out: W,
        (width, height): (u32, u32),
        plan: &FramePlan,
        options: WebpOptions,
    ) -> Result<WebpWriter<W>, String> {
        const MAX_SIDE: u32 = 16383;
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(format!(
                "{width}×{height}: WebP pictures are at most {MAX_SIDE} pixels a side"
            ));
        }
        let (w, h) = (width as i32, height as i32);
        // SAFETY (whole function): plain C structs initialised by libwebp's own init
        // functions before use; pointers passed to libwebp point at live locals.
        let mut anim_options = std::mem::MaybeUninit::<sys::WebPAnimEncoderOptions>::uninit();
        let ok = unsafe {
            sys::WebPAnimEncoderOptionsInitInternal(
                anim_options.as_mut_ptr(),
                sys::WEBP_MUX_ABI_VERSION as i32,
            )
        };
        if ok == 0 {
            return Err("libwebp: incompatible animation encoder version".into());
        }
        let mut anim_options = unsafe { anim_options.assume_init() };
        anim_options.anim_params.loop_count = options.loops.min(65535) as i32;
        anim_options.anim_params.bgcolor = 0;
        let encoder = AnimEncoder(unsafe {
            sys::WebPAnimEncoderNewInternal(w, h, &anim_options, sys::WEBP_MUX_ABI_VERSION as i32)
        });
        if encoder.0.is_null() {
            return Err("libwebp: could not create the animation encoder".into());
        }
        let mut config = std::mem::MaybeUninit::<sys::WebPConfig>::uninit();
        let quality = options.quality.unwrap_or(75.0).clamp(0.0, 100.0);
        let ok = unsafe {
            sys::WebPConfigInitInternal(
                config.as_mut_ptr(),
                sys::WebPPreset::WEBP_PRESET_DEFAULT,
                quality,
                sys::WEBP_ENCODER_ABI_VERSION as i32,
            )
        };
        if ok == 0 {
            return Err("libwebp: incompatible encoder version".into());
        }
        let mut config = unsafe { config.assume_init() };
        if options.quality.is_none() {
            // Level 1 of 9: most of the size gain of lossless WebP at a fraction of the
            // time.
            if unsafe { sys::WebPConfigLosslessPreset(&mut config, 1) } == 0 {
                return Err("libwebp: bad lossless preset".into());
            }
        } else {
            config.method = 2;
        }
        Ok(WebpWriter {
            out,
            encoder,
            config,
            size: (width, height),
            plan: *plan,
            written: 0,
        })
    }

    /// Frames encoded so far.
    pub fn written(&self) -> u32 {
        self.written
    }

    /// Hands `img` to libwebp as the next frame.
    pub fn push(&mut self, img: &image::RgbaImage) -> Result<(), String> {
        let (width, height) = self.size;
        let written = self.written;
        // SAFETY: as in `new`; the picture is freed before returning.
        let mut picture = std::mem::MaybeUninit::<sys::WebPPicture>::uninit();
        if unsafe {
            sys::WebPPictureInitInternal(picture.as_mut_ptr(), sys::WEBP_ENCODER_ABI_VERSION as i32)
        } == 0
        {
            return Err("libwebp: incompatible picture version".into());
        }
        let mut picture = unsafe { picture.assume_init() };
        picture.use_argb = 1;
        picture.width = width as i32;
        picture.height = height as i32;
        let imported = unsafe {
            sys::WebPPictureImportRGBA(&mut picture, img.as_raw().as_ptr(), width as i32 * 4)
        };
        let timestamp = self.plan.boundary(written, 1000) as i32;
        let added = imported != 0
            && unsafe {
                sys::WebPAnimEncoderAdd(self.encoder.0, &mut picture, timestamp, &self.config)
            } != 0;
        unsafe { sys::WebPPictureFree(&mut picture) };
        if !added {
            return Err(format!("frame {written}: {}", self.encoder.error()));
        }
        self.written += 1;
        Ok(())
    }

    /// Assembles the animation and writes it out; an error (nothing written) unless all
    /// the planned frames were encoded.
    pub fn finish(mut self) -> Result<W, String> {
        if self.written != self.plan.count {
            return Err(format!(
                "only {} of {} frames were encoded",
                self.written, self.plan.count
            ));
        }
        let end = self.plan.boundary(self.written, 1000) as i32;
        let mut data = sys::WebPData {
            bytes: std::ptr::null(),
            size: 0,
        };
        // SAFETY: the encoder is alive; a null frame ends the animation.
        let assembled = unsafe {
            sys::WebPAnimEncoderAdd(self.encoder.0, std::ptr::null_mut(), end, std::ptr::null())
        } != 0
            && unsafe { sys::WebPAnimEncoderAssemble(self.encoder.0, &mut data) } != 0;
        if !assembled {
            return Err(self.encoder.error());
        }
        // SAFETY: libwebp filled `data` with a buffer of `size` bytes it allocated.
        let bytes = unsafe { std::slice::from_raw_parts(data.bytes, data.size) };
        let result = self.out.write_all(bytes).map_err(|e| e.to_string());
        unsafe { sys::WebPFree(data.bytes as *mut std::ffi::c_void) };
        result.map(|_| self.out)
    }
}
