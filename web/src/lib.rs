//! Vitrine in the browser: the web page's side of the app — the files the page is given
//! ([`page_files`]: dropped, picked, fetched), reading a URL with progress (`fetch`), the
//! JavaScript API `window.vitrine` (`api`) and the status it reports ([`status`]), and
//! what the browser keeps for the page (`browser`: downloads, settings, the file dialog).
//!
//! The parts that touch the browser build for `wasm32-unknown-unknown` only; the rest is
//! plain Rust, tested natively. `web/build.sh OUT_DIR` builds the page.

pub mod page_files;
pub mod status;

#[cfg(target_arch = "wasm32")]
pub mod api;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
