//! The page's JavaScript engine for script-generated maps: Boa (the core's
//! `run_script_watched`) as a wasm module of its own, so that the page's own `.wasm` leaves
//! Boa out, run in a Web Worker (`web/vitrine_script_worker.js`) so that a stranger's
//! script is bounded from outside the engine, as the program bounds it in a child process:
//! - **memory**: the module's allocator ([`vitrine_memory_cap::Capped`]) charges every
//!   allocation the engine makes to [`MEMORY_CAP`]; past it the allocation fails, the
//!   module stops with a trap, and the worker reports [`memory_reached`] and
//!   [`last_line`];
//! - **time**: the page ends the worker after its time limit (`web/vitrine_engines.js`);
//! - **what it hands back**: the answer crosses back as bytes
//!   (`vitrine_core::map::script::wire`), the two modules sharing no memory.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use vitrine_core::map::script::{MEMORY_CAP, run_script_watched, wire};

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: vitrine_memory_cap::Capped = vitrine_memory_cap::Capped;

/// The line of `game.js` the script was last seen on.
static LINE: AtomicU32 = AtomicU32::new(0);
static ARMED: AtomicBool = AtomicBool::new(false);

/// Runs `source` (a map's `game.js`) with `seed` for a level of `players`, at Boa's full
/// speed under the memory cap: the answer (the map or the refusal) as [`wire`] bytes.
pub fn answer(source: &[u8], seed: u32, players: u32) -> Vec<u8> {
    if !ARMED.swap(true, Ordering::Relaxed) {
        // Past the cap the allocation fails: the module traps, the worker says why.
        vitrine_memory_cap::arm(MEMORY_CAP, &LINE, |_| {});
    }
    LINE.store(0, Ordering::Relaxed);
    wire::encode(&run_script_watched(source, seed, players, &LINE))
}

/// The line of `game.js` the last run was last seen on (0: none yet).
pub fn last_line() -> u32 {
    LINE.load(Ordering::Relaxed)
}

/// Whether the last run was stopped at the memory cap.
pub fn memory_reached() -> bool {
    vitrine_memory_cap::reached()
}

/// [`answer`] for JavaScript: `run_script(Uint8Array, seed, players) → Uint8Array`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = run_script)]
pub fn run_script_js(source: &[u8], seed: u32, players: u32) -> Vec<u8> {
    answer(source, seed, players)
}

/// [`last_line`] for JavaScript.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = last_line)]
pub fn last_line_js() -> u32 {
    last_line()
}

/// [`memory_reached`] for JavaScript.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = memory_reached)]
pub fn memory_reached_js() -> bool {
    memory_reached()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::map::script::run_script;

    #[test]
    fn the_answer_is_the_script_run_in_place() {
        let map = "const t = Array(4).fill(0); const h = [0, 60, 120, 600];\n\
                   setMapData(2, 2, t, h, [{name: 'A0CommandCentre', position: [192, 192], \
                   direction: 0, modules: 0, player: 1}], [], [{name: 'OilResource', \
                   position: [64, 64], direction: 0}]);\n\
                   log('seed ' + gameRand(1000));";
        let broken = "setMapData(1, 1, [0], [0], [], [], []);\nnoSuchHelper();";
        for source in [map, broken] {
            let here = run_script(source.as_bytes(), 7, 2);
            let there = wire::decode(&answer(source.as_bytes(), 7, 2));
            if source == map {
                let (m, n) = (
                    here.expect("the map script runs"),
                    there.expect("and there"),
                );
                // The same map; only the in-process budget's count differs.
                assert_eq!(
                    (m.width, m.height, &m.objects, &m.textures),
                    (n.width, n.height, &n.objects, &n.textures)
                );
                assert_eq!((m.width, m.height, m.objects.len()), (2, 2, 2));
            } else {
                assert_eq!(
                    here.unwrap_err().to_string(),
                    there.unwrap_err().to_string()
                );
                // Last seen where it last called the game's API: `setMapData`, line 1.
                assert_eq!(last_line(), 1);
            }
        }
        assert!(!memory_reached());
    }
}
