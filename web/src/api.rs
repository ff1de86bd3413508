//! The page's JavaScript API, for pages that embed it and for the browser tests:
//! `window.vitrine.open(url)` opens a model or an archive from a URL, and
//! `window.vitrine.status()` returns the [`PageStatus`] object; `window.vitrine.frames()`
//! the number of frames the app has drawn (for frame-rate figures).

use crate::status::PageStatus;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;

/// Installs `window.vitrine`: `open(url)` calls `open` with the URL (a non-string
/// argument throws a `TypeError`); `status()` reads `status` each time it is called.
pub fn install(
    status: Rc<RefCell<PageStatus>>,
    open: impl Fn(String) + 'static,
) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let api = js_sys::Object::new();
    let open = Closure::<dyn Fn(JsValue) -> Result<(), JsValue>>::new(move |url: JsValue| {
        let url = url.as_string().ok_or_else(|| {
            JsValue::from(js_sys::TypeError::new(
                "vitrine.open(url): url must be a string",
            ))
        })?;
        open(url);
        Ok(())
    });
    js_sys::Reflect::set(&api, &"open".into(), open.as_ref())?;
    // The page lives as long as the closures: handing them to JavaScript for good.
    open.forget();
    let counted = status.clone();
    let frames = Closure::<dyn Fn() -> f64>::new(move || counted.borrow().frames as f64);
    js_sys::Reflect::set(&api, &"frames".into(), frames.as_ref())?;
    frames.forget();
    let read = Closure::<dyn Fn() -> Result<JsValue, JsValue>>::new(move || {
        js_sys::JSON::parse(&status.borrow().to_json())
    });
    js_sys::Reflect::set(&api, &"status".into(), read.as_ref())?;
    read.forget();
    js_sys::Reflect::set(&window, &"vitrine".into(), &api)?;
    Ok(())
}
