//! The page's KTX2 transcoder: the core's Basis Universal transcoder (the `basisu` crate)
//! as a wasm module of its own, so that the page's own `.wasm` leaves it out. The page
//! fetches it the first time a KTX2 texture (a 4.x map's ground) is decoded
//! (`web/vitrine_engines.js`, the page's `engines`); the core's KTX2 reader checks each
//! file before it asks, and names the offset of what the transcoder refuses.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

use vitrine_core::formats::basis;

/// Level 0's width and height and the level count of the Basis data in `bytes` (a whole
/// KTX2 file), as three numbers.
///
/// # Errors
/// The transcoder's refusal.
pub fn describe(bytes: &[u8]) -> Result<Vec<u32>, String> {
    basis::describe(bytes).map(|i| vec![i.width, i.height, i.levels])
}

/// [`describe`] for JavaScript: `describe(Uint8Array) → Uint32Array`; throws the refusal.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(js_name = describe)]
pub fn describe_js(bytes: &[u8]) -> Result<Vec<u32>, String> {
    describe(bytes)
}

/// Level `level` of `bytes` as RGBA8 for JavaScript: `transcode(Uint8Array, level) →
/// Uint8Array`; throws the refusal.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn transcode(bytes: &[u8], level: u32) -> Result<Vec<u8>, String> {
    basis::transcode_level(bytes, level)
}
