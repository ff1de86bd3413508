//! Fuzz target `map`: see `vitrine_core::map::fuzzing` for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(finding) = vitrine_core::map::fuzzing::run(data) {
        panic!("{finding}");
    }
});
