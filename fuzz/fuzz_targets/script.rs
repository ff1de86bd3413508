//! Fuzz target `script`: the input is a map's `game.js`, run in Boa with its budget; see
//! `vitrine_core::map::fuzzing::run_script` for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(finding) = vitrine_core::map::fuzzing::run_script(data) {
        panic!("{finding}");
    }
});
