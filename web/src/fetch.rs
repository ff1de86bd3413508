//! Reading a model or an archive from a URL (`?url=`, `window.vitrine.open(url)`): the
//! browser's `fetch`, the body read chunk by chunk so the progress line moves, failures
//! worded like the desktop's load errors — the URL first, then what went wrong and what
//! to do.

use js_sys::{Reflect, Uint8Array};
use vitrine_core::files::MAX_FILE_BYTES;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, Request, RequestInit, RequestMode, Response};

/// Fetches `url` whole, calling `progress(received, total)` after each chunk (`total`
/// from `Content-Length` when the server sends it). Refuses bodies over the core's
/// [`MAX_FILE_BYTES`], as the desktop refuses such files.
pub async fn fetch_bytes(
    url: &str,
    mut progress: impl FnMut(u64, Option<u64>),
) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or_else(|| format!("{url}: no browser window"))?;
    let init = RequestInit::new();
    init.set_mode(RequestMode::Cors);
    let request = Request::new_with_str_and_init(url, &init)
        .map_err(|e| format!("{url}: not a URL the browser can fetch ({})", js_text(&e)))?;
    let response = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(|e| {
            format!(
                "{url}: could not fetch it ({}): the server is unreachable, or it does not let \
                 other sites read its files (CORS: it must send Access-Control-Allow-Origin)",
                js_text(&e)
            )
        })?;
    let response: Response = response
        .dyn_into()
        .map_err(|_| format!("{url}: the browser gave no response"))?;
    if !response.ok() {
        return Err(format!(
            "{url}: the server answered HTTP {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let total = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|n| n.trim().parse::<u64>().ok());
    if let Some(n) = total
        && n > MAX_FILE_BYTES
    {
        return Err(too_large(url, n));
    }
    let Some(body) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    // The declared length is only a hint (a compressed transfer declares fewer bytes).
    let mut bytes = Vec::with_capacity(total.unwrap_or(0) as usize);
    progress(0, total);
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("{url}: the download broke off ({})", js_text(&e)))?;
        let done = Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let value = Reflect::get(&chunk, &"value".into()).unwrap_or(JsValue::UNDEFINED);
        let Some(data) = value.dyn_ref::<Uint8Array>() else {
            return Err(format!(
                "{url}: the download gave something other than bytes"
            ));
        };
        let received = bytes.len() as u64 + u64::from(data.length());
        if received > MAX_FILE_BYTES {
            let _ = reader.cancel();
            return Err(too_large(url, received));
        }
        let start = bytes.len();
        bytes.resize(start + data.length() as usize, 0);
        data.copy_to(&mut bytes[start..]);
        progress(received, total);
    }
    Ok(bytes)
}

fn too_large(url: &str, n: u64) -> String {
    format!("{url}: {n} bytes; the limit is {MAX_FILE_BYTES}")
}

/// A JavaScript error's message (or its text).
pub fn js_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// A parameter of the page's address (`?url=…`, `?backend=webgl2`), decoded.
pub fn page_parameter(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
        .filter(|u| !u.trim().is_empty())
}
