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
    progress: impl FnMut(u64, Option<u64>),
) -> Result<Vec<u8>, String> {
    let response = get(url, None).await?;
    if !response.ok() {
        return Err(format!(
            "{url}: the server answered HTTP {} {}",
            response.status(),
            response.status_text()
        ));
    }
    read_body(url, &response, MAX_FILE_BYTES, progress).await
}

/// Sends a GET for `url`, with a `Range` header when given; the response whatever its
/// status. Errors say what to do when the server cannot be reached or read.
pub async fn get(url: &str, range: Option<&str>) -> Result<Response, String> {
    let window = web_sys::window().ok_or_else(|| format!("{url}: no browser window"))?;
    let init = RequestInit::new();
    init.set_mode(RequestMode::Cors);
    if let Some(range) = range {
        let headers = web_sys::Headers::new().map_err(|e| js_text(&e))?;
        headers.set("Range", range).map_err(|e| js_text(&e))?;
        init.set_headers(&headers);
    }
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
    response
        .dyn_into()
        .map_err(|_| format!("{url}: the browser gave no response"))
}

/// A header of `response`, if sent (and readable: another site's must be exposed).
pub fn header(response: &Response, name: &str) -> Option<String> {
    response.headers().get(name).ok().flatten()
}

/// Reads `response`'s body chunk by chunk, calling `progress(received, total)`; refuses
/// more than `limit` bytes (declared or received).
pub async fn read_body(
    url: &str,
    response: &Response,
    limit: u64,
    mut progress: impl FnMut(u64, Option<u64>),
) -> Result<Vec<u8>, String> {
    let total = header(response, "content-length").and_then(|n| n.trim().parse::<u64>().ok());
    if let Some(n) = total
        && n > limit
    {
        return Err(too_large(url, n, limit));
    }
    let Some(body) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    // The declared length is only a hint (a compressed transfer declares fewer bytes).
    let mut bytes = Vec::with_capacity(total.unwrap_or(0).min(limit) as usize);
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
        if received > limit {
            let _ = reader.cancel();
            return Err(too_large(url, received, limit));
        }
        let start = bytes.len();
        bytes.resize(start + data.length() as usize, 0);
        data.copy_to(&mut bytes[start..]);
        progress(received, total);
    }
    Ok(bytes)
}

fn too_large(url: &str, n: u64, limit: u64) -> String {
    if limit == MAX_FILE_BYTES {
        format!("{url}: {n} bytes; the limit is {MAX_FILE_BYTES}")
    } else {
        format!("{url}: the server sent {n} bytes or more where {limit} were asked for")
    }
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

/// Every value of a repeated parameter of the page's address (`&data=a.wz&data=b.wz`).
pub fn page_parameters(name: &str) -> Vec<String> {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return Vec::new();
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    params
        .get_all(name)
        .iter()
        .filter_map(|v| v.as_string())
        .filter(|v| !v.trim().is_empty())
        .collect()
}

/// `url` made absolute against the page's address (`?url=site.wz` beside the page).
pub fn absolute(url: &str) -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .and_then(|base| web_sys::Url::new_with_base(url, &base).ok())
        .map_or_else(|| url.to_string(), |u| u.href())
}
