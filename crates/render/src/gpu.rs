//! Windowless device creation (CLI, tests; the window gets its device from eframe),
//! watching a device for loss, and uploads that survive a lost device.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A render failure.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No GPU adapter (not even a software one such as lavapipe) was found: the message
    /// names what each backend said, and how to pick one (`WGPU_BACKEND`).
    #[cfg_attr(
        windows,
        error(
            "no GPU adapter found: {0}. Update the graphics driver, or pick a backend by \
             setting the environment variable WGPU_BACKEND to dx12, vulkan or gl"
        )
    )]
    #[cfg_attr(
        not(windows),
        error(
            "no GPU adapter found: {0}. Install Mesa's lavapipe (mesa-vulkan-drivers) or your \
             GPU's driver, or pick a backend by setting the environment variable WGPU_BACKEND \
             to vulkan or gl"
        )
    )]
    NoAdapter(String),
    /// The adapter refused to create a device.
    #[error("could not create a GPU device: {0}")]
    Device(String),
    /// Reading pixels back failed.
    #[error("reading the image back failed: {0}")]
    Readback(String),
}

/// An adapter, device and queue not tied to any window.
#[derive(Debug)]
pub struct Gpu {
    /// The adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// Creates a device without a window, on an instance that initialises no window
    /// system (see `offscreen_instance`: nothing connects to X11 or Wayland, so nothing
    /// complains on stderr without a display session). Honours `WGPU_BACKEND` (e.g.
    /// `gl`); otherwise Vulkan (and the platform's other primary APIs) first, then GL. Not in the
    /// browser, which hands its device to the page's canvas asynchronously (and where
    /// blocking on a GPU future never returns: it resolves only when the page's event
    /// loop runs).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn headless() -> Result<Gpu, RenderError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        if std::env::var_os("WGPU_BACKEND").is_none() {
            desc.backends = wgpu::Backends::PRIMARY | wgpu::Backends::GL;
        }
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..Default::default()
        };
        let mut refusals = Vec::new();
        let mut found = None;
        for instance in crate::offscreen_instance::offscreen_instances(desc) {
            match pollster::block_on(instance.request_adapter(&options)) {
                Ok(adapter) => {
                    found = Some(adapter);
                    break;
                }
                Err(e) => refusals.push(e.to_string()),
            }
        }
        let adapter = found.ok_or_else(|| RenderError::NoAdapter(refusals.join("; ")))?;
        vitrine_core::crash::set_adapter(describe_adapter(&adapter.get_info()));
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("vitrine headless device"),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| RenderError::Device(e.to_string()))?;
        Ok(Gpu {
            adapter,
            device,
            queue,
        })
    }
}

/// Watches a device for loss. Installs wgpu's device-lost callback (recording why, for
/// whoever drew with it — the window relaunches Vitrine on a new device; optionally
/// waking the window, [`DeviceWatch::on_lost`]) and an uncaptured-error handler that
/// keeps wgpu's default — a validation error is a bug and panics — until the device is
/// lost; after that the errors wgpu reports for work on the dead device (resources it
/// hands back invalid) are logged, not fatal, so the work between the loss and the
/// window closing cannot crash the window.
#[derive(Clone, Default)]
pub struct DeviceWatch {
    lost: Arc<AtomicBool>,
    why: Arc<Mutex<Option<String>>>,
    wake: Arc<Mutex<Option<Wake>>>,
}

/// Called when the device is lost (the window asks for a frame).
type Wake = Box<dyn Fn() + Send + Sync>;

impl std::fmt::Debug for DeviceWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceWatch")
            .field("lost", &self.lost)
            .field("why", &self.why)
            .finish_non_exhaustive()
    }
}

impl DeviceWatch {
    /// Installs the callbacks on `device` (replacing earlier ones).
    pub fn install(device: &wgpu::Device) -> DeviceWatch {
        let watch = DeviceWatch::default();
        let (lost, why, wake) = (watch.lost.clone(), watch.why.clone(), watch.wake.clone());
        device.set_device_lost_callback(move |reason, message: String| {
            lost.store(true, Ordering::SeqCst);
            *why.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{reason:?}: {message}"));
            if let Some(wake) = wake.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                wake();
            }
        });
        let lost = watch.lost.clone();
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            if lost.load(Ordering::SeqCst) {
                log::warn!("wgpu error on a lost device (ignored): {error}");
            } else {
                panic!("wgpu error: {error}");
            }
        }));
        watch
    }

    /// Calls `wake` from the device-lost callback (on whichever thread wgpu runs it), so
    /// a window that is not drawing notices the loss without waiting for input.
    pub fn on_lost(&self, wake: impl Fn() + Send + Sync + 'static) {
        *self.wake.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(wake));
    }

    /// Whether the device has been lost.
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// Why the device was lost, once (then `None` again).
    pub fn take_lost(&self) -> Option<String> {
        self.why.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A buffer holding `contents` (for `usage`), written through the queue. Unlike
/// `wgpu::util::DeviceExt::create_buffer_init` (a buffer mapped at creation), this
/// never panics on a lost device: wgpu then hands back an invalid buffer and ignores the
/// write, and the window relaunches Vitrine after the device-lost callback.
pub(crate) fn buffer_with(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    contents: &[u8],
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    let align = wgpu::COPY_BUFFER_ALIGNMENT as usize;
    let size = contents.len().max(1).div_ceil(align) * align;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size as u64,
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    if contents.len() == size {
        queue.write_buffer(&buffer, 0, contents);
    } else {
        let mut padded = contents.to_vec();
        padded.resize(size, 0);
        queue.write_buffer(&buffer, 0, &padded);
    }
    buffer
}

/// One line naming an adapter for crash reports: name, backend, driver.
pub fn describe_adapter(info: &wgpu::AdapterInfo) -> String {
    format!(
        "{} ({:?}, {:?}; driver {} {})",
        info.name, info.backend, info.device_type, info.driver, info.driver_info
    )
}

/// For this crate's tests marked `#[vitrine_test(gpu)]`: a headless device. Panics in a
/// test not so marked (on every machine), and without an adapter — such a test is
/// reported as ignored where the build found none (cfg `vitrine_no_gpu`), so that is a
/// driver gone since the build, or wgpu refusing what the build's probe accepted.
#[cfg(test)]
#[track_caller]
pub(crate) fn test_gpu() -> Gpu {
    vitrine_test_needs::require(vitrine_test_needs::Need::Gpu, "a GPU adapter");
    Gpu::headless().unwrap_or_else(|e| {
        panic!("{e} (the build found an adapter, or the test was run with --ignored)")
    })
}
