//! The real window under Xvfb, losing its GPU device and relaunching itself. A crate of its
//! own so nothing else in the process competes with the window's timing (its tests already
//! run one at a time).
//!
//! Run with `cargo test --test window`.

mod device_relaunch;
