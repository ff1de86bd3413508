//! The page's JavaScript API, for pages that embed it and for the browser tests:
//! `window.vitrine.open(url)` opens a model or an archive from a URL,
//! `window.vitrine.status()` returns the [`PageStatus`] object,
//! `window.vitrine.exportAnimation(name)` exports the open model's animation as File ▸
//! Export animation… does with its current settings, downloaded as `name` (`.gif` or
//! `.apng` picks the format; the progress window and the toast at the end show as for
//! the dialog), and `window.vitrine.frames()` returns the number of frames the app has
//! drawn (for frame-rate figures).

use crate::status::PageStatus;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;

/// Installs `window.vitrine`: `open(url)` calls `open` with the URL and
/// `exportAnimation(name)` calls `export_animation` with the name (a non-string argument
/// throws a `TypeError`); `status()` reads `status` each time it is called.
pub fn install(
    status: Rc<RefCell<PageStatus>>,
    open: impl Fn(String) + 'static,
    export_animation: impl Fn(String) + 'static,
) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let api = js_sys::Object::new();
    set_string_function(
        &api,
        "open",
        "vitrine.open(url): url must be a string",
        open,
    )?;
    set_string_function(
        &api,
        "exportAnimation",
        "vitrine.exportAnimation(name): name must be a string",
        export_animation,
    )?;
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

/// `api[name] = (text) => call(text)`, throwing a `TypeError` saying `wrong` when the
/// argument is not a string.
fn set_string_function(
    api: &js_sys::Object,
    name: &str,
    wrong: &'static str,
    call: impl Fn(String) + 'static,
) -> Result<(), JsValue> {
    let f = Closure::<dyn Fn(JsValue) -> Result<(), JsValue>>::new(move |arg: JsValue| {
        let text = arg
            .as_string()
            .ok_or_else(|| JsValue::from(js_sys::TypeError::new(wrong)))?;
        call(text);
        Ok(())
    });
    js_sys::Reflect::set(api, &name.into(), f.as_ref())?;
    // The page lives as long as the closures: handing them to JavaScript for good.
    f.forget();
    Ok(())
}
