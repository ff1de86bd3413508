//! Vitrine in the browser: the web page's side of the app — the files the page is given
//! ([`page_files`]: dropped, picked, fetched, as `incoming` reads them), reading a URL
//! with progress (`fetch`), the JavaScript API `window.vitrine` (`api`) and the status it
//! reports ([`status`]), what the browser keeps for the page (`browser`: downloads,
//! settings, the file dialog), and the engines only some maps need, fetched as modules
//! of their own when a map asks (`engines`).
//!
//! The parts that touch the browser build for `wasm32-unknown-unknown` only; the rest is
//! plain Rust, tested natively. `web/build.sh OUT_DIR` builds the page.

pub mod data_roots;
pub mod listing;
pub mod page_files;
pub mod ranges;
pub mod status;

#[cfg(target_arch = "wasm32")]
pub mod api;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod engines;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
#[cfg(target_arch = "wasm32")]
pub mod host;
#[cfg(target_arch = "wasm32")]
pub mod incoming;
#[cfg(target_arch = "wasm32")]
pub mod link;
#[cfg(target_arch = "wasm32")]
pub mod opening;
#[cfg(target_arch = "wasm32")]
pub mod remote;
#[cfg(target_arch = "wasm32")]
pub mod screenshots;
#[cfg(target_arch = "wasm32")]
pub mod shell;

#[cfg(target_arch = "wasm32")]
pub use entry::start;

#[cfg(target_arch = "wasm32")]
mod entry {
    use crate::incoming::Incoming;
    use crate::shell::WebApp;
    use crate::status::PageStatus;
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;

    /// Starts the viewer on `canvas`: WebGPU where the browser offers it, WebGL2
    /// otherwise (or when the page's address says `?backend=webgl2`); opens the page's
    /// `?url=` or the demo model; installs `window.vitrine`.
    #[wasm_bindgen]
    pub async fn start(canvas: web_sys::HtmlCanvasElement) -> Result<(), JsValue> {
        let _ = eframe::WebLogger::init(log::LevelFilter::Warn);
        // The script engine and the KTX2 transcoder: fetched when a map first needs one.
        crate::engines::install();
        let status = Rc::new(RefCell::new(PageStatus::default()));
        let (tx, rx) = std::sync::mpsc::channel::<Incoming>();
        // The app's context once it runs: a call from JavaScript asks it for a frame.
        let wake: Rc<RefCell<Option<eframe::egui::Context>>> = Rc::default();
        {
            let send = {
                let (tx, wake) = (tx.clone(), wake.clone());
                move |msg: Incoming| {
                    let _ = tx.send(msg);
                    if let Some(ctx) = wake.borrow().as_ref() {
                        ctx.request_repaint();
                    }
                }
            };
            let send = Rc::new(send);
            let export = send.clone();
            crate::api::install(
                status.clone(),
                move |url| send(Incoming::OpenUrl(url)),
                move |name| export(Incoming::ExportAnimation(name)),
            )?;
        }
        let mut options = eframe::WebOptions::default();
        if crate::fetch::page_parameter("backend").as_deref() == Some("webgl2")
            && let eframe::egui_wgpu::WgpuSetup::CreateNew(new) =
                &mut options.wgpu_options.wgpu_setup
        {
            new.instance_descriptor.backends = wgpu::Backends::GL;
        }
        let url = crate::fetch::page_parameter("url").map(|u| crate::fetch::absolute(&u));
        let data = crate::fetch::page_parameters("data")
            .iter()
            .map(|u| crate::fetch::absolute(u))
            .collect();
        let app_status = status.clone();
        let result = eframe::WebRunner::new()
            .start(
                canvas,
                options,
                Box::new(move |cc| {
                    *wake.borrow_mut() = Some(cc.egui_ctx.clone());
                    Ok(Box::new(WebApp::new(cc, app_status, (tx, rx), url, data)))
                }),
            )
            .await;
        if let Err(e) = &result {
            let mut s = status.borrow_mut();
            s.state = crate::status::LoadState::Error;
            s.error = Some(format!(
                "Vitrine could not start: {}",
                crate::fetch::js_text(e)
            ));
        }
        result
    }
}
