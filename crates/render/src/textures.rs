//! Texture decoding and upload, cached by file across models.
//!
//! Images are decoded by [`vitrine_core::formats::texture`] (bytes from the
//! [`Files`] the renderer is given — the renderer never reads a file itself — so a page
//! inside a `.wz` archive works like a loose one) and uploaded with a CPU-built mip
//! chain ([`super::pages`]; pages decoded on other threads are handed over,
//! [`super::SceneRenderer::provide_texture`]). A page handed over in part (its levels up
//! to a size, for a map's first frame) is uploaded so, and replaced when the whole page
//! follows ([`super::SceneRenderer::refine_textures`]). Colour textures (base maps) use an `*Srgb` format so the shader shades in
//! linear; data textures (masks, normal and specular maps) stay `Unorm`.
//!
//! A batch of thumbnails shares a handful of texture pages, so the cache outlives
//! [`super::SceneRenderer::set_model`]: entries the current model does not use are evicted
//! only once the cache grows past its byte budget. Failed decodes are cached too. Entries
//! are keyed by the file's [`vitrine_core::files::Stamp`], so a texture rewritten on disk (live
//! reload) is decoded afresh, never served stale.
//!
//! Non-goals: DDS other than DXT1/3/5, uploading compressed GPU formats (DDS blocks
//! are decoded on the CPU), anisotropic filtering.

// The cache's `Arc<GpuTexture>`s go to the batch's threads on the desktop; in the browser
// wgpu's objects are neither `Send` nor `Sync` and everything runs on the page's thread.
#![cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]

use super::pages::{PageImage, decode_page};
use std::collections::HashMap;
use std::sync::Arc;
use vitrine_core::files::{FileRef, Files, Stamp};

/// How a texture's bytes are interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum TexClass {
    /// sRGB-encoded colour (decoded to linear when sampled).
    Color,
    /// Linear data (masks, normals, specular).
    Data,
}

impl TexClass {
    fn format(self) -> wgpu::TextureFormat {
        match self {
            TexClass::Color => wgpu::TextureFormat::Rgba8UnormSrgb,
            TexClass::Data => wgpu::TextureFormat::Rgba8Unorm,
        }
    }
}

/// An uploaded texture.
#[derive(Debug)]
pub(crate) struct GpuTexture {
    /// Keeps the texture alive (only the view is bound).
    _texture: wgpu::Texture,
    /// View bound in material bind groups.
    pub view: wgpu::TextureView,
    /// GPU bytes (all mips).
    pub bytes: u64,
    /// Uploaded from a page not read yet ([`PageImage::waiting`]): what is drawn with it
    /// is left out.
    pub waiting: bool,
}

#[derive(Debug)]
struct Entry {
    result: Result<Arc<GpuTexture>, String>,
    last_used: u64,
    /// Uploaded from part of the page (its smaller levels), the whole page to follow.
    partial: bool,
}

/// Bytes of cached textures allowed beyond what the current model uses (512 MiB), unless
/// [`TextureCache::set_budget`] says otherwise.
pub(crate) const CACHE_BUDGET: u64 = 512 << 20;

/// Decoded and uploaded textures keyed by file and class, plus the placeholders.
#[derive(Debug)]
pub(crate) struct TextureCache {
    /// Where texture pages are read from.
    files: Files,
    entries: HashMap<(FileRef, Stamp, TexClass), Entry>,
    /// Pages decoded ahead on another thread ([`TextureCache::provide`]), taken by the
    /// next [`TextureCache::get`] of that version of the file instead of decoding again.
    /// Shared: the batch hands one decoded page to every renderer that uploads it.
    provided: HashMap<(FileRef, Stamp), Result<Arc<PageImage>, String>>,
    generation: u64,
    max_size: u32,
    /// Bytes kept beyond the current model's textures ([`CACHE_BUDGET`] by default).
    budget: u64,
    /// White 1×1 (untextured base; sRGB).
    pub white: Arc<GpuTexture>,
    /// Transparent black 1×1 (no tcmask / no specular; linear).
    pub black: Arc<GpuTexture>,
    /// Flat normal (128, 128, 255) 1×1.
    pub(crate) flat_normal: Arc<GpuTexture>,
    /// Magenta/black checkerboard for missing or undecodable base textures.
    pub checker: Arc<GpuTexture>,
    /// Files whose next upload reports out of memory ([`TextureCache::simulate_out_of_memory`]).
    out_of_memory: std::collections::HashSet<FileRef>,
}

/// Size of one checkerboard cell in texels, and cells per side.
pub(crate) const CHECKER_CELL: u32 = 8;
const CHECKER_CELLS: u32 = 8;
/// The checkerboard's two colours (sRGB).
pub const CHECKER_COLOURS: [[u8; 4]; 2] = [[255, 0, 255, 255], [0, 0, 0, 255]];

/// RGBA of the checkerboard image.
pub fn checkerboard() -> image::RgbaImage {
    let side = CHECKER_CELL * CHECKER_CELLS;
    image::RgbaImage::from_fn(side, side, |x, y| {
        image::Rgba(CHECKER_COLOURS[((x / CHECKER_CELL + y / CHECKER_CELL) % 2) as usize])
    })
}

impl TextureCache {
    /// Creates the cache and its placeholders. Textures larger than the device's limit are
    /// uploaded from the first mip level that fits.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, files: &Files) -> TextureCache {
        let one = |rgba: [u8; 4], class, label| {
            Arc::new(upload(
                device,
                queue,
                &PageImage::new(image::RgbaImage::from_pixel(1, 1, image::Rgba(rgba))),
                class,
                label,
                u32::MAX,
            ))
        };
        TextureCache {
            files: files.clone(),
            entries: HashMap::new(),
            provided: HashMap::new(),
            generation: 0,
            max_size: device.limits().max_texture_dimension_2d,
            budget: CACHE_BUDGET,
            white: one([255; 4], TexClass::Color, "vitrine white"),
            black: one([0; 4], TexClass::Data, "vitrine black"),
            flat_normal: one([128, 128, 255, 255], TexClass::Data, "vitrine flat normal"),
            checker: Arc::new(upload(
                device,
                queue,
                &PageImage::new(checkerboard()),
                TexClass::Color,
                "vitrine checkerboard",
                u32::MAX,
            )),
            out_of_memory: Default::default(),
        }
    }

    /// Testing aid: the next upload of `file` is reported as its `OutOfMemory` error scope
    /// reports a GPU out of memory (Mesa's lavapipe never runs out), so the fallback to
    /// the checkerboard can be exercised on any device.
    pub(crate) fn simulate_out_of_memory(&mut self, file: FileRef) {
        self.out_of_memory.insert(file);
    }

    /// Limits uploaded textures to `size` texels per side (smaller mips are used instead):
    /// a 256² thumbnail gains nothing from a 1024² page. Clamped to the device limit.
    pub(crate) fn set_max_size(&mut self, device: &wgpu::Device, size: u32) {
        self.max_size = size.clamp(1, device.limits().max_texture_dimension_2d);
    }

    /// Where texture pages are read from.
    pub(crate) fn files(&self) -> &Files {
        &self.files
    }

    /// Whether version `stamp` of `file` is uploaded (or failed to).
    pub(crate) fn has(&self, file: &FileRef, stamp: Stamp) -> bool {
        [TexClass::Color, TexClass::Data]
            .iter()
            .any(|c| self.entries.contains_key(&(file.clone(), stamp, *c)))
    }

    /// Keeps at most `bytes` of textures beyond the current model's (a batch's renderers
    /// share [`CACHE_BUDGET`] between them).
    #[cfg(not(target_arch = "wasm32"))] // the batch's threads
    pub(crate) fn set_budget(&mut self, bytes: u64) {
        self.budget = bytes;
    }

    /// Starts a new model: textures fetched from now on count as in use.
    pub(crate) fn begin_model(&mut self) {
        self.generation += 1;
    }

    /// Hands over `file` (at version `stamp`) decoded with its mip chain on another
    /// thread ([`decode_page`]), so the render thread only uploads it (the batch
    /// pipeline, [`super::batch`]; the window's opening job). Ignored if that version is
    /// already uploaded; a later version on disk is decoded afresh.
    pub(crate) fn provide(
        &mut self,
        file: FileRef,
        stamp: Stamp,
        image: Result<Arc<PageImage>, String>,
    ) {
        if !self.has(&file, stamp) {
            self.provided.insert((file, stamp), image);
        }
    }

    /// Hands over the whole page `file` (at version `stamp`) where it was uploaded in part
    /// ([`PageImage::is_complete`]): the next [`TextureCache::get`] uploads it whole.
    /// Returns whether some upload of it was partial (the materials using it are to be
    /// built again); a page uploaded whole, or not at all, is left as it is.
    pub(crate) fn refine(&mut self, file: &FileRef, stamp: Stamp, page: Arc<PageImage>) -> bool {
        self.replace_where(file, stamp, |e| e.partial, Ok(page))
    }

    /// The whole page `file` (at version `stamp`) does not decode (`error`): where it
    /// was uploaded as a page not read yet ([`PageImage::waiting`]), the next
    /// [`TextureCache::get`] gives the error (a base texture shows the checkerboard,
    /// with a warning) instead of leaving out what is drawn with it. Returns whether
    /// such an upload was dropped; one from a page's smaller levels keeps them.
    pub(crate) fn refine_failed(&mut self, file: &FileRef, stamp: Stamp, error: String) -> bool {
        let waiting = |e: &Entry| e.result.as_ref().is_ok_and(|t| t.waiting);
        self.replace_where(file, stamp, waiting, Err(error))
    }

    /// Drops the uploads of `file` (at version `stamp`, either class) that `drop` picks,
    /// and provides `page` for the next [`TextureCache::get`] if any was; returns
    /// whether one was.
    fn replace_where(
        &mut self,
        file: &FileRef,
        stamp: Stamp,
        drop: impl Fn(&Entry) -> bool,
        page: Result<Arc<PageImage>, String>,
    ) -> bool {
        let dropped: Vec<_> = [TexClass::Color, TexClass::Data]
            .into_iter()
            .map(|c| (file.clone(), stamp, c))
            .filter(|k| self.entries.get(k).is_some_and(&drop))
            .collect();
        for k in &dropped {
            self.entries.remove(k);
        }
        if !dropped.is_empty() {
            self.provided.insert((file.clone(), stamp), page);
        }
        !dropped.is_empty()
    }

    /// Evicts textures the current model does not use while the cache is over budget.
    pub(crate) fn end_model(&mut self) {
        // Whatever was provided and not used by this model is not kept (memory).
        self.provided.clear();
        let mut total: u64 = self.entries.values().map(entry_bytes).sum();
        if total <= self.budget {
            return;
        }
        let mut old: Vec<_> = self
            .entries
            .iter()
            .filter(|(_, e)| e.last_used < self.generation)
            .map(|(k, e)| (e.last_used, k.clone()))
            .collect();
        old.sort_by_key(|(t, _)| *t);
        for (_, k) in old {
            if total <= self.budget {
                break;
            }
            if let Some(e) = self.entries.remove(&k) {
                total -= entry_bytes(&e);
            }
        }
    }

    /// The texture `file`, decoded and uploaded once per version of the file; `Err` with
    /// a message if it cannot be read or decoded.
    pub fn get(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        file: &FileRef,
        class: TexClass,
    ) -> Result<Arc<GpuTexture>, String> {
        let stamp = self.files.stamp(file).unwrap_or_default();
        let key = (file.clone(), stamp, class);
        let generation = self.generation;
        if let Some(e) = self.entries.get_mut(&key) {
            e.last_used = generation;
            return e.result.clone();
        }
        let decoded = match self.provided.remove(&(file.clone(), stamp)) {
            Some(page) => page,
            None => decode_page(&self.files, file).map(Arc::new),
        };
        let partial = decoded.as_ref().is_ok_and(|p| !p.is_complete());
        let result = decoded.and_then(|img| {
            let label = format!("vitrine texture {file}");
            // A page the GPU has no memory for falls back to the checkerboard with a
            // warning instead of taking the device down.
            let scope = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
            let texture = upload(device, queue, &img, class, &label, self.max_size);
            let mut caught = caught_now(scope.pop());
            if self.out_of_memory.remove(file) {
                caught = caught.or_else(|| Some(simulated_out_of_memory()));
            }
            checked_upload(file, texture, caught)
        });
        // A read waiting for bytes to arrive (a remote archive) fails now and works later.
        if result.is_ok() || !self.files.wanting() {
            self.entries.insert(
                key,
                Entry {
                    result: result.clone(),
                    last_used: generation,
                    partial,
                },
            );
        }
        result
    }
}

/// An upload's texture, or the message saying why it is not used, given what the upload's
/// `OutOfMemory` error scope caught: a page the GPU has no memory for becomes an error
/// naming the page (the renderer then shows the checkerboard and lists the warning).
pub(crate) fn checked_upload(
    file: &FileRef,
    texture: GpuTexture,
    caught: Option<wgpu::Error>,
) -> Result<Arc<GpuTexture>, String> {
    match caught {
        None => Ok(Arc::new(texture)),
        Some(e) => Err(format!(
            "{file}: the GPU ran out of memory uploading it ({e})"
        )),
    }
}

/// What an error scope caught. On the desktop wgpu answers at once (pollster returns
/// without waiting). In the browser the future is polled once and never waited on — a
/// wait on the page's only thread would never end: WebGL2 (wgpu's own validation) answers
/// at once too, WebGPU later, so there an out-of-memory upload goes unreported here.
fn caught_now(pop: impl std::future::Future<Output = Option<wgpu::Error>>) -> Option<wgpu::Error> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        pollster::block_on(pop)
    }
    #[cfg(target_arch = "wasm32")]
    {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match std::pin::pin!(pop).poll(&mut cx) {
            std::task::Poll::Ready(caught) => caught,
            std::task::Poll::Pending => None,
        }
    }
}

/// What [`TextureCache::simulate_out_of_memory`] reports: the error wgpu's scope gives.
fn simulated_out_of_memory() -> wgpu::Error {
    wgpu::Error::OutOfMemory {
        source: Box::new(std::io::Error::other("simulated out of memory")),
    }
}

fn entry_bytes(e: &Entry) -> u64 {
    e.result.as_ref().map(|t| t.bytes).unwrap_or(0)
}

/// Uploads `page`'s mip chain, from the first level no larger than `max_size` per side.
fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    page: &PageImage,
    class: TexClass,
    label: &str,
    max_size: u32,
) -> GpuTexture {
    // The 1×1 level always fits (`max_size` is at least 1).
    let first = page
        .levels()
        .iter()
        .position(|l| l.width().max(l.height()) <= max_size)
        .unwrap_or(page.levels().len() - 1);
    let levels = &page.levels()[first..];
    let (w, h) = levels[0].dimensions();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
        mip_level_count: levels.len() as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: class.format(),
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let mut bytes = 0;
    for (i, level) in levels.iter().enumerate() {
        let (lw, lh) = level.dimensions();
        bytes += level.as_raw().len() as u64;
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: i as u32,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            level.as_raw(),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(lw * 4),
                rows_per_image: Some(lh),
            },
            wgpu::Extent3d {
                width: lw,
                height: lh,
                depth_or_array_layers: 1,
            },
        );
    }
    let view = texture.create_view(&Default::default());
    GpuTexture {
        _texture: texture,
        view,
        bytes,
        waiting: page.is_waiting(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_test_needs::vitrine_test;

    #[test]
    fn dxt1_dds_decodes_by_content() {
        // 4×4 DXT1: one block, colour 0 = pure green (RGB565 0x07E0) > colour 1 = black,
        // texels 0..7 index 0, texels 8..15 index 1.
        let mut bytes = vec![0u8; 128];
        let mut put = |at: usize, v: u32| bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
        put(4, 124);
        put(8, 0x1 | 0x2 | 0x4 | 0x1000);
        put(12, 4);
        put(16, 4);
        put(76, 32);
        put(80, 0x4);
        put(108, 0x1000);
        bytes[..4].copy_from_slice(b"DDS ");
        bytes[84..88].copy_from_slice(b"DXT1");
        bytes.extend_from_slice(&0x07E0u16.to_le_bytes());
        bytes.extend_from_slice(&0u16.to_le_bytes());
        bytes.extend_from_slice(&0x5555_0000u32.to_le_bytes());
        let img = vitrine_core::formats::texture::decode_bytes(&bytes, "dxt1.tex").unwrap();
        assert_eq!(img.dimensions(), (4, 4));
        assert_eq!(img.get_pixel(0, 0).0, [0, 255, 0, 255]);
        assert_eq!(img.get_pixel(3, 3).0, [0, 0, 0, 255]);
    }

    /// What the window's opening job and the batch's prepare threads rely on: a page
    /// handed over is uploaded as it is, its file never read (here there is none), and
    /// only its levels that fit the size cap go to the GPU.
    #[vitrine_test(gpu)]
    fn a_provided_page_is_uploaded_without_reading_its_file() {
        use vitrine_core::files::{Files, MemorySource};
        let gpu = crate::gpu::test_gpu();
        let files = Files::new(MemorySource::new());
        let mut cache = TextureCache::new(&gpu.device, &gpu.queue, &files);
        cache.set_max_size(&gpu.device, 4);
        let file = FileRef::Disk("/nowhere/page-1.png".into());
        let stamp = files.stamp(&file).unwrap_or_default();
        let missing = cache.get(&gpu.device, &gpu.queue, &file, TexClass::Color);
        assert!(missing.is_err(), "no file, nothing handed over: an error");
        let mut cache = TextureCache::new(&gpu.device, &gpu.queue, &files);
        cache.set_max_size(&gpu.device, 4);
        let img = image::RgbaImage::from_pixel(16, 16, image::Rgba([1, 2, 3, 255]));
        cache.provide(file.clone(), stamp, Ok(Arc::new(PageImage::new(img))));
        let got = cache
            .get(&gpu.device, &gpu.queue, &file, TexClass::Color)
            .expect("the page handed over is used");
        assert_eq!(got.bytes, (16 + 4 + 1) * 4, "levels 4×4, 2×2 and 1×1");
    }

    #[vitrine_test(gpu)]
    fn an_out_of_memory_scope_result_rejects_the_texture_naming_the_page() {
        let gpu = crate::gpu::test_gpu();
        let img = image::RgbaImage::from_pixel(4, 4, image::Rgba([1, 2, 3, 255]));
        let file = FileRef::Disk("/data/texpages/page-7.png".into());
        let page = PageImage::new(img);
        let up = || upload(&gpu.device, &gpu.queue, &page, TexClass::Color, "t", 16);
        assert!(checked_upload(&file, up(), None).is_ok());
        let oom = wgpu::Error::OutOfMemory {
            source: Box::new(std::io::Error::other("VRAM full")),
        };
        let e = checked_upload(&file, up(), Some(oom)).unwrap_err();
        assert!(
            e.starts_with("/data/texpages/page-7.png: the GPU ran out of memory"),
            "{e}"
        );
        assert!(
            e.ends_with("(Out of Memory)"),
            "wgpu's error is quoted: {e}"
        );
    }

    #[test]
    fn checkerboard_alternates() {
        let c = checkerboard();
        assert_eq!(c.get_pixel(0, 0).0, CHECKER_COLOURS[0]);
        assert_eq!(c.get_pixel(CHECKER_CELL, 0).0, CHECKER_COLOURS[1]);
        assert_eq!(
            c.get_pixel(CHECKER_CELL, CHECKER_CELL).0,
            CHECKER_COLOURS[0]
        );
    }
}
