//! The offscreen render target: 4× MSAA colour + depth (or one sample, drawn straight into
//! the colour texture: [`RenderTarget::with_samples`]), resolved into an `Rgba8Unorm`
//! texture holding sRGB-encoded bytes: what PNG files hold, and what egui-wgpu 0.37
//! expects of a native texture (an `Rgba8UnormSrgb` one is shown too dark). Rendering
//! through an `*Srgb` view of a Unorm texture would need `DownlevelFlags::VIEW_FORMATS`,
//! which the GL backend lacks, so the fragment shader encodes to sRGB itself.

/// Sample count of the multisampled attachments (the default).
pub const MSAA_SAMPLES: u32 = 4;
/// The sample counts a target may have: one (no anti-aliasing) or [`MSAA_SAMPLES`].
pub const SAMPLE_COUNTS: [u32; 2] = [1, MSAA_SAMPLES];
/// Format of the resolved colour texture.
pub(crate) const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// Depth format, with the stencil a scene's shadow volumes count in
/// ([`crate::stencil_shadows`]): WebGPU and WebGL2 both have it without a feature.
pub(crate) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth24PlusStencil8;

/// Offscreen colour (resolved), MSAA colour and depth textures of one size.
#[derive(Debug)]
pub struct RenderTarget {
    /// Resolved colour: `RENDER_ATTACHMENT | TEXTURE_BINDING | COPY_SRC`.
    pub color: wgpu::Texture,
    /// View of `color` (register this with egui).
    pub color_view: wgpu::TextureView,
    /// Multisampled colour attachment (`None` with one sample).
    pub(crate) msaa_view: Option<wgpu::TextureView>,
    /// Samples per pixel of the colour and depth attachments.
    pub samples: u32,
    /// Multisampled depth attachment.
    pub(crate) depth_view: wgpu::TextureView,
    /// Size in pixels.
    pub width: u32,
    /// Size in pixels.
    pub height: u32,
    /// Readback buffer kept between [`RenderTarget::read_rgba`] calls.
    readback: std::sync::Mutex<Option<wgpu::Buffer>>,
}

impl RenderTarget {
    /// Creates a target of `width` × `height` (each clamped to 1..=8192 and to the
    /// device's texture size limit: 2048 is all WebGL2 promises) with [`MSAA_SAMPLES`].
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> RenderTarget {
        RenderTarget::with_samples(device, width, height, MSAA_SAMPLES)
    }

    /// A target with `samples` per pixel (one of [`SAMPLE_COUNTS`]; anything else is
    /// taken as [`MSAA_SAMPLES`]), for a [`super::SceneRenderer`] built with the same.
    pub fn with_samples(
        device: &wgpu::Device,
        width: u32,
        height: u32,
        samples: u32,
    ) -> RenderTarget {
        let samples = checked_samples(samples);
        let max = device.limits().max_texture_dimension_2d.clamp(1, 8192);
        let (width, height) = (width.clamp(1, max), height.clamp(1, max));
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let tex = |label, samples, format, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let color = tex(
            "vitrine target colour",
            1,
            COLOR_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
        );
        let msaa = (samples > 1).then(|| {
            tex(
                "vitrine target msaa",
                samples,
                COLOR_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            )
        });
        let depth = tex(
            "vitrine target depth",
            samples,
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        );
        RenderTarget {
            color_view: color.create_view(&Default::default()),
            msaa_view: msaa.map(|m| m.create_view(&Default::default())),
            samples,
            depth_view: depth.create_view(&Default::default()),
            color,
            width,
            height,
            readback: std::sync::Mutex::new(None),
        }
    }

    /// Copies the resolved colour texture back to the CPU, waiting for it: the desktop's
    /// way. In the browser use [`RenderTarget::start_read`] (a wait there ends only on
    /// WebGL2, whose copies finish when polled).
    pub fn read_rgba(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<image::RgbaImage, super::RenderError> {
        let buffer = self
            .readback
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(|| readback_buffer(device, self.width, self.height))
            .clone();
        let reading = self.read_into(device, queue, buffer);
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| readback_error(e.to_string()))?;
        reading
            .mapped
            .recv()
            .map_err(|e| readback_error(e.to_string()))?
            .map_err(|e| readback_error(e.to_string()))?;
        reading.pixels()
    }

    /// Starts copying the resolved colour texture back to the CPU without waiting for it:
    /// the browser's way, where a wait on the page's thread never ends (the copy finishes
    /// only when the page's event loop runs). Take the picture with
    /// [`Reading::try_take`] on a later frame.
    pub fn start_read(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Reading {
        self.read_into(
            device,
            queue,
            readback_buffer(device, self.width, self.height),
        )
    }

    fn read_into(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        buffer: wgpu::Buffer,
    ) -> Reading {
        let padded = padded_row(self.width);
        let mut enc = device.create_command_encoder(&Default::default());
        enc.copy_texture_to_buffer(
            self.color.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: 1,
            },
        );
        queue.submit([enc.finish()]);
        let (tx, mapped) = std::sync::mpsc::channel();
        buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        Reading {
            buffer,
            mapped,
            width: self.width,
            height: self.height,
        }
    }
}

/// A picture on its way back from the GPU ([`RenderTarget::start_read`]).
#[derive(Debug)]
pub struct Reading {
    buffer: wgpu::Buffer,
    mapped: std::sync::mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>,
    width: u32,
    height: u32,
}

impl Reading {
    /// The picture once the copy is done; `None` while it is under way (ask again on a
    /// later frame). Never waits.
    pub fn try_take(
        &self,
        device: &wgpu::Device,
    ) -> Option<Result<image::RgbaImage, super::RenderError>> {
        // Native and WebGL2 devices report finished copies when polled; WebGPU's report
        // arrives through the page's event loop.
        let _ = device.poll(wgpu::PollType::Poll);
        match self.mapped.try_recv() {
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(e) => Some(Err(readback_error(e.to_string()))),
            Ok(Err(e)) => Some(Err(readback_error(e.to_string()))),
            Ok(Ok(())) => Some(self.pixels()),
        }
    }

    /// The mapped buffer's rows without their padding.
    fn pixels(&self) -> Result<image::RgbaImage, super::RenderError> {
        let (unpadded, padded) = (self.width * 4, padded_row(self.width));
        let mut out = Vec::with_capacity((unpadded * self.height) as usize);
        {
            let data = self
                .buffer
                .slice(..)
                .get_mapped_range()
                .map_err(|e| readback_error(format!("{e:?}")))?;
            for row in data.chunks(padded as usize) {
                out.extend_from_slice(&row[..unpadded as usize]);
            }
        }
        self.buffer.unmap();
        image::RgbaImage::from_raw(self.width, self.height, out)
            .ok_or_else(|| readback_error("size mismatch".into()))
    }
}

fn readback_error(e: String) -> super::RenderError {
    super::RenderError::Readback(e)
}

/// Bytes per row of a readback buffer: a row of RGBA8 padded to wgpu's copy alignment.
fn padded_row(width: u32) -> u32 {
    (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT
}

fn readback_buffer(device: &wgpu::Device, width: u32, height: u32) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("vitrine readback"),
        size: padded_row(width) as u64 * height as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    })
}

/// `samples` if it is one of [`SAMPLE_COUNTS`], else [`MSAA_SAMPLES`].
pub(crate) fn checked_samples(samples: u32) -> u32 {
    if SAMPLE_COUNTS.contains(&samples) {
        samples
    } else {
        MSAA_SAMPLES
    }
}
