//! The browser tests' probe (web/tests/renderer.test.mjs), not a page for users: in a
//! real browser, fetches a model and its texture pages from the test server into the
//! page's files, loads it with the core, draws it with vitrine-render on the browser's
//! WebGPU or WebGL2 device into an offscreen target and reads the picture back without
//! blocking the page — the path the web page takes, checked before the page exists.
//!
//! Built by `web/tests/build_probe.sh`; JavaScript calls `render(base, files, model,
//! backend, size)` and gets `{backend, adapter, width, height, pixels}`.

#![cfg(target_arch = "wasm32")]

use vitrine_core::formats::{LoadOptions, load};
use vitrine_render::{RenderTarget, SceneRenderer, ViewSettings};
use vitrine_web::fetch::{fetch_bytes, js_text};
use vitrine_web::page_files::{PageFiles, url_path};
use vitrine_web::status::Backend;
use wasm_bindgen::prelude::*;

/// The empty display handle of a web page (what eframe gives wgpu for WebGL).
#[derive(Debug)]
struct WebDisplay;

impl wgpu::rwh::HasDisplayHandle for WebDisplay {
    fn display_handle(&self) -> Result<wgpu::rwh::DisplayHandle<'_>, wgpu::rwh::HandleError> {
        Ok(wgpu::rwh::DisplayHandle::web())
    }
}

/// Fetches `files` (paths under `base`), opens `model` among them and draws it at
/// `size`² on `backend` ("webgpu" or "webgl2"), framed as `vitrine render` frames it.
#[wasm_bindgen]
pub async fn render(
    base: String,
    files: Vec<String>,
    model: String,
    backend: String,
    size: u32,
) -> Result<js_sys::Object, JsValue> {
    let err = |e: String| JsValue::from_str(&e);
    let page = PageFiles::new();
    let mut model_file = None;
    for f in &files {
        let url = format!("{base}{f}");
        let bytes = fetch_bytes(&url, |_, _| {}).await.map_err(err)?;
        let path = url_path(&url).ok_or_else(|| err(format!("{url}: no file name")))?;
        let added = page.add(path, bytes);
        if *f == model {
            model_file = Some(added);
        }
    }
    let model_file = model_file.ok_or_else(|| err(format!("{model} is not among the files")))?;
    let files = page.files();
    let model =
        load(&files, &model_file, &LoadOptions::default()).map_err(|e| err(e.to_string()))?;

    let backends = match backend.as_str() {
        "webgpu" => wgpu::Backends::BROWSER_WEBGPU,
        "webgl2" => wgpu::Backends::GL,
        other => return Err(err(format!("unknown backend {other}"))),
    };
    let mut desc = wgpu::InstanceDescriptor::new_with_display_handle(Box::new(WebDisplay));
    desc.backends = backends;
    let instance = wgpu::Instance::new(desc);
    // WebGL2 needs a canvas to get a context from; WebGPU does not.
    let canvas: web_sys::HtmlCanvasElement = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("canvas").ok())
        .ok_or_else(|| err("no document".into()))?
        .unchecked_into();
    let surface = match backend.as_str() {
        "webgl2" => Some(
            instance
                .create_surface(wgpu::SurfaceTarget::Canvas(canvas))
                .map_err(|e| err(e.to_string()))?,
        ),
        _ => None,
    };
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            compatible_surface: surface.as_ref(),
            ..Default::default()
        })
        .await
        .map_err(|e| err(format!("no {backend} adapter: {e}")))?;
    let limits = match backend.as_str() {
        "webgl2" => wgpu::Limits::downlevel_webgl2_defaults(),
        _ => wgpu::Limits::downlevel_defaults(),
    };
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            label: Some("vitrine probe"),
            required_limits: limits.using_resolution(adapter.limits()),
            ..Default::default()
        })
        .await
        .map_err(|e| err(e.to_string()))?;
    let info = adapter.get_info();
    let named = Backend::of(info.backend).ok_or_else(|| {
        err(format!(
            "a native backend in the browser: {:?}",
            info.backend
        ))
    })?;

    // As `vitrine render` draws it: its default view, framed the same way.
    let view = ViewSettings::default();
    let mut scene = SceneRenderer::new(&device, &queue, &files);
    let target = RenderTarget::new(&device, size, size);
    vitrine_render::batch::draw_framed(&device, &queue, &mut scene, &target, (&model, None), &view);
    let reading = target.start_read(&device, &queue);
    let image = loop {
        if let Some(done) = reading.try_take(&device) {
            break done.map_err(|e| err(e.to_string()))?;
        }
        next_tick().await?;
    };

    let out = js_sys::Object::new();
    let set = |k: &str, v: JsValue| js_sys::Reflect::set(&out, &k.into(), &v);
    set(
        "backend",
        serde_json::to_string(&named)
            .unwrap_or_default()
            .trim_matches('"')
            .into(),
    )?;
    set(
        "adapter",
        format!("{} ({:?})", info.name, info.backend).into(),
    )?;
    set("width", image.width().into())?;
    set("height", image.height().into())?;
    set("warnings", scene.warnings().join("\n").into())?;
    set(
        "pixels",
        js_sys::Uint8Array::from(image.as_raw().as_slice()).into(),
    )?;
    Ok(out)
}

/// Lets the page's event loop run once (GPU work and its callbacks go on meanwhile).
async fn next_tick() -> Result<(), JsValue> {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .map(|w| w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 1));
    });
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| JsValue::from_str(&js_text(&e)))
}
