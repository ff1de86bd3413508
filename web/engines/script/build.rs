//! The module's memory may never grow past twice the script's cap (what the allocator
//! charges, and room for its own bookkeeping and the stack): a second bound, which holds
//! even if the count missed something.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        let most = 2 * vitrine_memory_cap_bytes();
        println!("cargo:rustc-link-arg-cdylib=--max-memory={most}");
    }
}

/// `vitrine_core::map::script::MEMORY_CAP` (a build script cannot link the core).
fn vitrine_memory_cap_bytes() -> u64 {
    256 << 20
}
