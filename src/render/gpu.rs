//! Windowless device creation (CLI, tests). The window gets its device from eframe.

/// A render failure.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No GPU adapter (not even a software one such as lavapipe) was found.
    #[error("no GPU adapter found (install Mesa's lavapipe: mesa-vulkan-drivers): {0}")]
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
    /// Creates a device without a window. Honours `WGPU_BACKEND` (e.g. `gl`).
    pub fn headless() -> Result<Gpu, RenderError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        if std::env::var_os("WGPU_BACKEND").is_none() {
            desc.backends = wgpu::Backends::PRIMARY | wgpu::Backends::GL;
        }
        let instance = wgpu::Instance::new(desc);
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..Default::default()
        }))
        .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        crate::crash::set_adapter(describe_adapter(&adapter.get_info()));
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

/// One line naming an adapter for crash reports: name, backend, driver.
pub fn describe_adapter(info: &wgpu::AdapterInfo) -> String {
    format!(
        "{} ({:?}, {:?}; driver {} {})",
        info.name, info.backend, info.device_type, info.driver, info.driver_info
    )
}

/// For tests: a headless GPU, or `None` with a loud SKIPPED message when there is no
/// adapter — unless `VITRINE_REQUIRE_GPU=1` (CI), where that panics.
pub fn gpu_or_skip() -> Option<Gpu> {
    match Gpu::headless() {
        Ok(g) => Some(g),
        Err(e) if std::env::var("VITRINE_REQUIRE_GPU").as_deref() == Ok("1") => {
            panic!("VITRINE_REQUIRE_GPU=1 but no GPU: {e}")
        }
        Err(e) => {
            eprintln!("SKIPPED: GPU test needs an adapter: {e}");
            None
        }
    }
}
