//! Fuzz target `gltf`: see `vitrine_core::formats::fuzzing` for what is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_core::formats::fuzzing::{Target, run};

fuzz_target!(|data: &[u8]| {
    if let Err(finding) = run(Target::Gltf, data) {
        panic!("{finding}");
    }
});
