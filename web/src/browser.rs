//! What the browser keeps for the page: files the page makes become downloads (a
//! screenshot, a glTF, a GIF: the browser has no folder the page may write to), the
//! settings live in the page's `localStorage`, and files the user picks come from the
//! browser's file dialog (several at once: a PIE with its texture pages).

use crate::fetch::js_text;
use wasm_bindgen::JsCast;

/// Where the settings are kept in `localStorage`.
pub const SETTINGS_KEY: &str = "vitrine.settings";

/// Offers `bytes` as a download named `file_name` (the browser's own download bar says
/// where it went).
pub fn download(file_name: &str, bytes: &[u8]) -> Result<(), String> {
    let fail =
        |what: &str, e: wasm_bindgen::JsValue| format!("{file_name}: {what} ({})", js_text(&e));
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| format!("{file_name}: no page to download from"))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime_type(file_name));
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|e| fail("could not hold the file", e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|e| fail("could not hold the file", e))?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| fail("could not start the download", e))?
        .unchecked_into();
    link.set_href(&url);
    link.set_download(file_name);
    link.click();
    // The click has handed the blob to the download; the URL is not needed any more.
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The MIME type of the files the page makes, by extension.
fn mime_type(file_name: &str) -> &'static str {
    let ext = file_name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("png") | Some("apng") => "image/png",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("glb") => "model/gltf-binary",
        Some("gltf") => "model/gltf+json",
        Some("json") => "application/json",
        Some("zip") => "application/zip",
        _ => "application/octet-stream",
    }
}

fn storage() -> Result<web_sys::Storage, String> {
    web_sys::window()
        .ok_or("no browser window")?
        .local_storage()
        .map_err(|e| js_text(&e))?
        .ok_or_else(|| "the browser keeps no storage for this page".to_string())
}

/// The settings saved by an earlier visit, if any.
pub fn load_settings() -> Option<String> {
    storage().ok()?.get_item(SETTINGS_KEY).ok().flatten()
}

/// Keeps the settings for the next visit.
pub fn save_settings(json: &str) -> Result<(), String> {
    storage()?.set_item(SETTINGS_KEY, json).map_err(|e| {
        format!(
            "the browser's storage refused the settings ({})",
            js_text(&e)
        )
    })
}

/// Files the user picks in the browser's dialog, several at once, by file name; empty when
/// the dialog was cancelled.
pub async fn pick_files(extensions: &[&str]) -> Vec<(String, Vec<u8>)> {
    let dialog =
        rfd::AsyncFileDialog::new().add_filter("Models, texture pages and archives", extensions);
    let Some(handles) = dialog.pick_files().await else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        out.push((h.file_name(), h.read().await));
    }
    out
}
