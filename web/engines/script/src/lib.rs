//! The page's JavaScript engine for script-generated maps: the core's `run_script` (Boa)
//! as a wasm module of its own, so that the page's own `.wasm` leaves Boa out. The page
//! fetches it the first time a map's `game.js` is run (`web/vitrine_engines.js`, the
//! page's `engines`) and hands it the script; the answer crosses back as bytes
//! (`vitrine_core::map::script::wire`), the two modules sharing no memory.

use vitrine_core::map::script::{run_script, wire};

/// Runs `source` (a map's `game.js`) with `seed` for a level of `players`: the answer
/// (the map or the refusal) as [`wire`] bytes.
pub fn answer(source: &[u8], seed: u32, players: u32) -> Vec<u8> {
    wire::encode(&run_script(source, seed, players))
}

/// [`answer`] for JavaScript: `run_script(Uint8Array, seed, players) → Uint8Array`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = run_script)]
pub fn run_script_js(source: &[u8], seed: u32, players: u32) -> Vec<u8> {
    answer(source, seed, players)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(wire::decode(&answer(source.as_bytes(), 7, 2)), here);
            if source == map {
                let m = here.expect("the map script runs");
                assert_eq!((m.width, m.height, m.objects.len()), (2, 2, 2));
            } else {
                assert!(here.is_err());
            }
        }
    }
}
