//! Two render targets with their readback buffers, so the batch's render thread draws
//! the next model while the previous picture is still being copied back.

use crate::RenderTarget;
use std::sync::mpsc::Receiver;

/// A render target and its readback buffer: two of them let the render thread draw the
/// next model while the GPU (or lavapipe's threads) still works on the previous one.
pub(super) struct Slot {
    pub(super) target: RenderTarget,
    buffer: wgpu::Buffer,
    padded_row: u32,
}

impl Slot {
    pub(super) fn new(device: &wgpu::Device, (w, h): (u32, u32), samples: u32) -> Slot {
        let target = RenderTarget::with_samples(device, w, h, samples);
        let padded_row = (target.width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("vitrine batch readback"),
            size: padded_row as u64 * target.height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Slot {
            target,
            buffer,
            padded_row,
        }
    }

    /// Queues the copy of the drawn picture into the buffer and asks for it mapped.
    pub(super) fn start_readback(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> (
        wgpu::SubmissionIndex,
        Receiver<Result<(), wgpu::BufferAsyncError>>,
    ) {
        let t = &self.target;
        let mut enc = device.create_command_encoder(&Default::default());
        enc.copy_texture_to_buffer(
            t.color.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &self.buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_row),
                    rows_per_image: Some(t.height),
                },
            },
            wgpu::Extent3d {
                width: t.width,
                height: t.height,
                depth_or_array_layers: 1,
            },
        );
        let index = queue.submit([enc.finish()]);
        let (tx, rx) = std::sync::mpsc::channel();
        self.buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |r| {
                let _ = tx.send(r);
            });
        (index, rx)
    }

    /// Waits for that copy and returns the picture.
    pub(super) fn finish_readback(
        &self,
        device: &wgpu::Device,
        index: wgpu::SubmissionIndex,
        mapped: Receiver<Result<(), wgpu::BufferAsyncError>>,
    ) -> Result<image::RgbaImage, String> {
        let t = &self.target;
        device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(index),
                timeout: None,
            })
            .map_err(|e| format!("reading the picture back: {e}"))?;
        mapped
            .recv()
            .map_err(|e| e.to_string())?
            .map_err(|e| format!("reading the picture back: {e}"))?;
        let row = (t.width * 4) as usize;
        let mut out = Vec::with_capacity(row * t.height as usize);
        {
            let data = self
                .buffer
                .slice(..)
                .get_mapped_range()
                .map_err(|e| format!("reading the picture back: {e:?}"))?;
            for r in data.chunks(self.padded_row as usize) {
                out.extend_from_slice(&r[..row]);
            }
        }
        self.buffer.unmap();
        image::RgbaImage::from_raw(t.width, t.height, out)
            .ok_or_else(|| "reading the picture back: size mismatch".into())
    }
}
