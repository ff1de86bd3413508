//! The app driven through egui_kittest with the real layout and command handling, on a
//! front-end that reads the disk and keeps what the app writes in memory
//! (`vitrine_test_support::app::DiskHost`). The app on the desktop's host — files from
//! the disk, live reload, the gallery's disk cache, the system fonts, the desktop's
//! dialogs — is the program's test (tests/app).
//!
//! Run one file's tests with `cargo test -p vitrine-app --test app help_window::`.

#![allow(
    clippy::disallowed_methods,
    reason = "the tests write and read their files on the disk (crates/clippy.toml bans it \
              in the crate itself)"
)]

/// Where the tests' data is (crates/test-needs) and a GPU for a test that declared it
/// (crates/test-support): the same as the other packages' tests.
mod common {
    pub use vitrine_test_needs::{fixtures, synthetic, wz2100};
    pub use vitrine_test_support::gpu;
}
use vitrine_test_support::app as app_support;
use vitrine_test_support::render as render_support;

mod assemble_panel;
mod checks_panel;
mod device_faults;
mod gallery_ui;
mod help_window;
mod inspect_app;
mod map_camera;
mod map_checks;
mod map_document;
mod map_gallery;
mod map_pages;
mod map_seed;
mod map_support;
mod map_window;
mod messages_window;
mod timeline_ui;
mod toasts;
