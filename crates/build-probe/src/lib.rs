//! For build scripts: whether the tests about to be built will find a GPU adapter.
//!
//! [`gpu_cfg`] sets the cfg `vitrine_no_gpu` when there is none, and the tests marked
//! `#[vitrine_test(gpu)]` are then reported by libtest as *ignored, needs a GPU adapter*.
//! `VITRINE_REQUIRE_GPU=1` (CI) makes that a build error instead.
//!
//! What is probed is what `Gpu::headless()` (crates/render) asks wgpu for on Linux and the
//! BSDs — Vulkan and OpenGL ES, or the backends `WGPU_BACKEND` names: the Vulkan loader
//! (`libvulkan.so.1`) must list a physical device, or EGL (`libEGL.so.1`, on Mesa's
//! surfaceless platform when it has one) must give an OpenGL ES 3 context. Software
//! drivers count: lavapipe (Vulkan) and llvmpipe (EGL). On Windows and macOS (DX12,
//! Metal) and when cross-compiling nothing is probed and an adapter is assumed. The probe
//! can disagree with wgpu (a driver wgpu refuses); a test that declared `gpu` and then
//! finds no adapter fails, it is never passed.
//!
//! Hiding the drivers from the probe and the tests alike:
//! `VK_DRIVER_FILES=/nonexistent __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent`.
//!
//! Also for build scripts: [`build_stamp`], the commit and the day of the build that
//! `vitrine --version` and Help ▸ About show.

pub mod stamp;
pub use stamp::build_stamp;

use std::ffi::CStr;

/// The environment that changes what the probe (and wgpu) find.
const WATCHED: &[&str] = &[
    "VITRINE_REQUIRE_GPU",
    "WGPU_BACKEND",
    "VK_ICD_FILENAMES",
    "VK_DRIVER_FILES",
    "VK_ADD_DRIVER_FILES",
    "VK_LOADER_DRIVERS_SELECT",
    "VK_LOADER_DRIVERS_DISABLE",
    "__EGL_VENDOR_LIBRARY_FILENAMES",
    "__EGL_VENDOR_LIBRARY_DIRS",
    "EGL_PLATFORM",
    "LD_LIBRARY_PATH",
];

/// Declares the cfgs the `#[vitrine_test]` attribute reads (`vitrine_no_gpu`,
/// `vitrine_no_shared`), probes for an adapter and sets `vitrine_no_gpu` without one,
/// with a cargo warning; exits with an error instead under `VITRINE_REQUIRE_GPU=1`.
pub fn gpu_cfg() {
    println!("cargo::rustc-check-cfg=cfg(vitrine_no_gpu)");
    println!("cargo::rustc-check-cfg=cfg(vitrine_no_shared)");
    for name in WATCHED {
        println!("cargo::rerun-if-env-changed={name}");
    }
    let Err(why) = probe() else { return };
    if std::env::var("VITRINE_REQUIRE_GPU").as_deref() == Ok("1") {
        eprintln!(
            "error: VITRINE_REQUIRE_GPU=1 but no GPU adapter was found ({why}); install a \
             driver (mesa-vulkan-drivers for lavapipe), or unset VITRINE_REQUIRE_GPU to have \
             the tests that need one reported as ignored"
        );
        std::process::exit(1);
    }
    println!("cargo::rustc-cfg=vitrine_no_gpu");
    println!(
        "cargo::warning=no GPU adapter ({why}): the tests that need one are reported as \
         ignored (install mesa-vulkan-drivers for lavapipe)"
    );
}

/// The adapter found (“Vulkan: llvmpipe …”), or why there is none.
pub fn probe() -> Result<String, String> {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let target_os = var("CARGO_CFG_TARGET_OS");
    if var("CARGO_CFG_TARGET_ARCH") == "wasm32" || var("HOST") != var("TARGET") {
        return Ok("not probed (cross-compiling: the tests do not run here)".into());
    }
    if !["linux", "freebsd", "netbsd", "openbsd", "dragonfly"].contains(&target_os.as_str()) {
        return Ok(format!("not probed on {target_os} (DX12 / Metal assumed)"));
    }
    let (vulkan, gl) = backends(std::env::var("WGPU_BACKEND").ok().as_deref());
    let mut why = Vec::new();
    if vulkan {
        match vulkan_device() {
            Ok(found) => return Ok(found),
            Err(e) => why.push(format!("Vulkan: {e}")),
        }
    }
    if gl {
        match gles_context() {
            Ok(found) => return Ok(found),
            Err(e) => why.push(format!("OpenGL ES (EGL): {e}")),
        }
    }
    if why.is_empty() {
        why.push("WGPU_BACKEND names neither vulkan nor gl".into());
    }
    Err(why.join("; "))
}

/// (Vulkan, GL) as `Gpu::headless()` picks them: both unless `WGPU_BACKEND` is set, then
/// those it names (wgpu's spellings; the others do not exist on these systems).
fn backends(wgpu_backend: Option<&str>) -> (bool, bool) {
    let Some(list) = wgpu_backend else {
        return (true, true);
    };
    let names: Vec<String> = list.split(',').map(|n| n.trim().to_lowercase()).collect();
    let has = |spellings: &[&str]| names.iter().any(|n| spellings.contains(&n.as_str()));
    (has(&["vulkan", "vk"]), has(&["opengl", "gles", "gl"]))
}

/// The first physical device the Vulkan loader lists.
fn vulkan_device() -> Result<String, String> {
    // SAFETY: loading the system's Vulkan loader, as wgpu does; the instance is destroyed
    // before returning and no handle outlives it.
    unsafe {
        let entry = ash::Entry::load().map_err(|e| format!("no loader ({e})"))?;
        let app = ash::vk::ApplicationInfo::default().api_version(ash::vk::API_VERSION_1_1);
        let info = ash::vk::InstanceCreateInfo::default().application_info(&app);
        let instance = entry
            .create_instance(&info, None)
            .map_err(|e| format!("no instance ({e})"))?;
        let devices = instance.enumerate_physical_devices();
        let name = match &devices {
            Ok(list) => list.first().map(|d| {
                let p = instance.get_physical_device_properties(*d);
                p.device_name_as_c_str()
                    .map(CStr::to_string_lossy)
                    .unwrap_or_default()
                    .into_owned()
            }),
            Err(_) => None,
        };
        instance.destroy_instance(None);
        match (devices, name) {
            (Err(e), _) => Err(format!("listing devices failed ({e})")),
            (Ok(_), None) => Err("no physical device".into()),
            (Ok(_), Some(name)) => Ok(format!("Vulkan: {name}")),
        }
    }
}

/// An OpenGL ES 3 context on the display wgpu would use without a window.
fn gles_context() -> Result<String, String> {
    use khronos_egl as egl;
    const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;
    // SAFETY: loading the system's libEGL, as wgpu does; the display is terminated before
    // returning.
    let api = unsafe { egl::DynamicInstance::<egl::EGL1_4>::load_required() }
        .map_err(|e| format!("no libEGL ({e})"))?;
    let extensions = api
        .query_string(None, egl::EXTENSIONS)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let display = match api.upcast::<egl::EGL1_5>() {
        Some(api15) if extensions.contains("EGL_MESA_platform_surfaceless") => unsafe {
            // SAFETY: the surfaceless platform takes the default display and no attributes.
            api15.get_platform_display(
                PLATFORM_SURFACELESS_MESA,
                egl::DEFAULT_DISPLAY,
                &[egl::ATTRIB_NONE],
            )
        }
        .map_err(|e| format!("no surfaceless display ({e})"))?,
        // SAFETY: the default display needs no native handle.
        _ => unsafe { api.get_display(egl::DEFAULT_DISPLAY) }.ok_or("no default display")?,
    };
    api.initialize(display)
        .map_err(|e| format!("initialising the display failed ({e})"))?;
    let context = (|| -> Result<String, String> {
        let config = api
            .choose_first_config(
                display,
                // wgpu's off-screen tier: a pbuffer config that renders OpenGL ES.
                &[
                    egl::SURFACE_TYPE,
                    egl::PBUFFER_BIT,
                    egl::RENDERABLE_TYPE,
                    egl::OPENGL_ES2_BIT,
                    egl::NONE,
                ],
            )
            .map_err(|e| format!("choosing a config failed ({e})"))?
            .ok_or("no off-screen OpenGL ES config")?;
        api.bind_api(egl::OPENGL_ES_API)
            .map_err(|e| format!("no OpenGL ES API ({e})"))?;
        let context = api
            .create_context(
                display,
                config,
                None,
                &[egl::CONTEXT_MAJOR_VERSION, 3, egl::NONE],
            )
            .map_err(|e| format!("no OpenGL ES 3 context ({e})"))?;
        let vendor = api
            .query_string(Some(display), egl::VENDOR)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let _ = api.destroy_context(display, context);
        Ok(format!("OpenGL ES (EGL): {vendor}"))
    })();
    let _ = api.terminate(display);
    context
}

#[cfg(test)]
mod tests {
    use super::backends;

    #[test]
    fn wgpu_backend_picks_the_probed_loaders_as_wgpu_reads_it() {
        assert_eq!(backends(None), (true, true));
        assert_eq!(backends(Some("vulkan")), (true, false));
        assert_eq!(backends(Some("GL")), (false, true));
        assert_eq!(backends(Some("vk, gles")), (true, true));
        assert_eq!(backends(Some("metal")), (false, false));
    }
}
