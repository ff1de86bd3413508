//! The desktop's window: the eframe native runner ([`run`]), the shell that runs the app
//! on it ([`shell`]: native dialogs, screenshots and exports on the window's device,
//! relaunch after a lost device), and the desktop's side of the app's host ([`host`]:
//! the disk, threads for jobs, the settings file, the thumbnail cache, live reload,
//! fonts).

pub mod crash_notice;
pub mod dialogs;
pub mod fonts;
pub mod host;
pub mod relaunch;
pub mod settings_file;
pub mod shell;
pub mod thumbnail_cache;

pub use host::DesktopHost;
pub use settings_file::SettingsFile;

use crate::app::state::AppState;
use eframe::egui;
use std::path::{Path, PathBuf};

/// Opens the viewer window on `file` (or the demo model); returns the exit code.
///
/// `VITRINE_EXIT_AFTER_FRAMES=N` closes the window by itself after N frames (used by the
/// Xvfb smoke test; frames come at least every 50 ms while it counts).
pub fn run(file: Option<PathBuf>) -> i32 {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp_millis()
        .try_init();
    let host = DesktopHost::user();
    let (settings, warning) = host.settings_file().map(|f| f.load()).unwrap_or_default();
    let mut state = AppState::new(settings, host.clone());
    if let Some(w) = warning {
        state.services.toasts.error(w);
    }
    // A relaunch after a lost GPU device (`relaunch`): the resume file, read and deleted.
    let start = relaunch::Start::from_env();
    let initial = file.unwrap_or_else(demo_model_path);
    let exit_after_frames = std::env::var("VITRINE_EXIT_AFTER_FRAMES")
        .ok()
        .and_then(|v| v.trim().parse().ok());
    let [w, h] = state.services.settings.window_size;
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("Vitrine")
        .with_app_id("vitrine")
        .with_inner_size([w, h])
        .with_min_inner_size([480.0, 320.0])
        .with_maximized(state.services.settings.maximized)
        .with_drag_and_drop(true);
    match window_icon() {
        Ok(icon) => viewport = viewport.with_icon(icon),
        Err(e) => log::warn!("window icon: {e}"),
    }
    if let Some(pos) = state.services.settings.window_pos {
        viewport = viewport.with_position(pos);
    }
    let options = eframe::NativeOptions {
        viewport,
        renderer: eframe::Renderer::Wgpu,
        // Vitrine installs its own, lazily created system font provider (`fonts`).
        system_font_fallback: false,
        ..Default::default()
    };
    let result = eframe::run_native(
        "Vitrine",
        options,
        Box::new(move |cc| {
            Ok(Box::new(shell::ViewerApp::new(
                cc,
                state,
                host,
                initial,
                start,
                exit_after_frames,
            )))
        }),
    );
    // The window closed after losing its GPU device without relaunching: say why.
    if let Some(message) = relaunch::take_farewell() {
        eprintln!("vitrine: {message}");
        show_native_error(&message);
        return 1;
    }
    match result {
        Ok(()) => 0,
        Err(e) => {
            let message = window_error_message(&e);
            eprintln!("vitrine: {message}");
            show_native_error(&message);
            1
        }
    }
}

/// What to tell the user when the window cannot open. Without a usable GPU adapter (no
/// Vulkan/Metal/DX12/GL driver, not even Mesa's software one) it says what the command
/// line says ([`crate::render::RenderError::NoAdapter`]): what to install.
pub fn window_error_message(e: &eframe::Error) -> String {
    use eframe::egui_wgpu::WgpuError;
    match e {
        eframe::Error::Wgpu(
            w @ (WgpuError::RequestAdapterError(_)
            | WgpuError::CreateSurfaceError(_)
            | WgpuError::NoSurfaceFormatsAvailable
            | WgpuError::CustomNativeAdapterSelectionError(_)),
        ) => format!(
            "could not open the window: {}",
            crate::render::RenderError::NoAdapter(w.to_string())
        ),
        other => format!("could not open the window: {other}"),
    }
}

/// Shows `message` in the platform's message box (rfd: a native dialog on Windows and
/// macOS, zenity on Linux) where one is available; standard error has it either way.
fn show_native_error(message: &str) {
    let result = rfd::MessageDialog::new()
        .set_level(rfd::MessageLevel::Error)
        .set_title("Vitrine")
        .set_description(message)
        .set_buttons(rfd::MessageButtons::Ok)
        .show();
    log::debug!("message box: {result:?}");
}

/// The window's icon: [`crate::desktop::ICON_PNG`] decoded.
pub fn window_icon() -> Result<egui::IconData, String> {
    let img = image::load_from_memory(crate::desktop::ICON_PNG)
        .map_err(|e| e.to_string())?
        .into_rgba8();
    Ok(egui::IconData {
        width: img.width(),
        height: img.height(),
        rgba: img.into_raw(),
    })
}

/// The demo model shipped in `assets/demo/tank.pie`: in `assets/` next to the executable
/// (the tarball, the Windows zip), else in `../share/vitrine/assets/` from the executable's
/// folder (a package: `/usr/share/vitrine/assets`), else in the source tree (`cargo run`).
/// The shipped copies come first, so a release built on this machine still opens its own.
pub fn demo_model_path() -> PathBuf {
    let rel = Path::new("assets").join("demo").join("tank.pie");
    let in_tree = Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
        .map(|dir| {
            let shared = dir.join("..").join("share").join("vitrine").join(&rel);
            [dir.join(&rel), shared]
        });
    beside
        .into_iter()
        .flatten()
        .find(|p| p.is_file())
        .unwrap_or(in_tree)
}

#[cfg(test)]
mod tests {
    /// Without an adapter the window's error names what each backend said and how to
    /// pick one (`WGPU_BACKEND`), on every platform.
    #[test]
    fn no_adapter_says_which_backends_were_tried_and_how_to_pick_one() {
        use eframe::egui_wgpu::WgpuError;
        let all = wgpu::Backends::all();
        let tried = wgpu::Backends::PRIMARY | wgpu::Backends::GL;
        let e = eframe::Error::Wgpu(WgpuError::RequestAdapterError(
            wgpu::RequestAdapterError::NotFound {
                active_backends: tried,
                requested_backends: tried,
                supported_backends: all,
                no_fallback_backends: wgpu::Backends::empty(),
                no_adapter_backends: tried,
                incompatible_surface_backends: wgpu::Backends::empty(),
            },
        ));
        let m = super::window_error_message(&e);
        assert!(
            m.starts_with("could not open the window: no GPU adapter found"),
            "{m}"
        );
        assert!(
            m.contains("vulkan found no adapters") && m.contains("gl found no adapters"),
            "{m}"
        );
        assert!(m.contains("WGPU_BACKEND"), "{m}");
        let pick = if cfg!(windows) {
            "dx12, vulkan or gl"
        } else {
            "vulkan or gl"
        };
        assert!(m.contains(pick), "{m}");
    }
}
