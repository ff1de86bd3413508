//! The wgpu instance for drawing offscreen (CLI, thumbnails, tests): one that initialises
//! no window system.
//!
//! wgpu's own Vulkan instance enables every surface extension the loader offers
//! (`VK_KHR_wayland_surface`, `VK_KHR_xcb_surface`, `VK_KHR_xlib_surface`), because it
//! cannot know whether a window will come. A Vulkan layer may act on that: Mesa's
//! `VK_LAYER_MESA_device_select` (installed with Mesa's Vulkan drivers, lavapipe included)
//! sees the Wayland extension enabled and, while listing the GPUs, connects to the Wayland
//! compositor to find the one it shows on — which, without a display session, makes
//! libwayland print `error: XDG_RUNTIME_DIR is invalid or not set in the environment.`
//! on stderr (twice: wgpu lists the GPUs twice) from a command that then succeeds.
//! An offscreen instance never makes a surface, so here Vulkan is created without those
//! extensions. The other backends are created as wgpu creates them, without a display
//! handle (GL then takes EGL's surfaceless platform, which connects to nothing).
//!
//! Not handled: a layer that connects to a display whatever the instance enables.

#[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
use std::ffi::CStr;

/// The window-system surface extensions an offscreen instance leaves out (those of the
/// free desktops: Windows and macOS have no layer known to act on theirs, and there wgpu
/// makes the instance itself).
#[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
const WINDOW_SYSTEM_EXTENSIONS: [&CStr; 3] = [
    c"VK_KHR_wayland_surface",
    c"VK_KHR_xcb_surface",
    c"VK_KHR_xlib_surface",
];

/// The instances to ask for an adapter, in order: Vulkan without window-system
/// extensions (when `desc.backends` has Vulkan and a Vulkan loader is installed), then
/// wgpu's own instance for the remaining backends (when there are any).
pub(crate) fn offscreen_instances(desc: wgpu::InstanceDescriptor) -> Vec<wgpu::Instance> {
    let mut instances = Vec::new();
    #[allow(
        unused_mut,
        reason = "only the free desktops take Vulkan out of `rest`"
    )]
    let mut rest = desc;
    #[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
    if rest.backends.contains(wgpu::Backends::VULKAN) {
        match vulkan_without_window_system(&rest) {
            Ok(instance) => instances.push(instance),
            Err(e) => log::debug!("no offscreen Vulkan instance: {e}"),
        }
        rest.backends.remove(wgpu::Backends::VULKAN);
    }
    if !rest.backends.is_empty() {
        instances.push(wgpu::Instance::new(rest));
    }
    instances
}

#[cfg(all(unix, not(target_os = "macos"), not(target_os = "android")))]
/// A Vulkan instance like wgpu's, less [`WINDOW_SYSTEM_EXTENSIONS`].
fn vulkan_without_window_system(
    desc: &wgpu::InstanceDescriptor,
) -> Result<wgpu::Instance, wgpu::hal::InstanceError> {
    use wgpu::hal::vulkan;
    let hal_desc = wgpu::hal::InstanceDescriptor {
        name: "vitrine offscreen",
        flags: desc.flags,
        memory_budget_thresholds: desc.memory_budget_thresholds,
        backend_options: desc.backend_options.clone(),
        telemetry: None,
        display: None,
    };
    let drop_window_system = Box::new(|args: vulkan::CreateInstanceCallbackArgs| {
        args.extensions
            .retain(|name| !WINDOW_SYSTEM_EXTENSIONS.contains(name));
    });
    // SAFETY: `init_with_callback` asks the callback not to remove extensions, because
    // wgpu-hal assumes that an extension it wanted is enabled. The list the callback
    // edits is the one the instance is created with and the one wgpu-hal keeps
    // (`InstanceShared::extensions`), and wgpu-hal 30 reads the three window-system
    // extensions nowhere but in `create_surface_from_{wayland,xcb,xlib}`, each of which
    // first checks that list and refuses when the extension is missing; this instance
    // never makes a surface. Nothing else is changed from wgpu's own `init`.
    let hal = unsafe { vulkan::Instance::init_with_callback(&hal_desc, Some(drop_window_system)) }?;
    // SAFETY: `hal` is a valid instance just made, handed over whole.
    Ok(unsafe { wgpu::Instance::from_hal::<wgpu::hal::api::Vulkan>(hal) })
}
