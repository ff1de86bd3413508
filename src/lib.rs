//! Vitrine: a viewer for retro game 3D models — the program: the window (`app`, feature
//! `gui`), the command line ([`cli`], feature `cli`: no egui), crash reports ([`crash`]),
//! desktop integration ([`desktop`]) and the animation export ([`export::animation`],
//! vitrine-media's).
//!
//! Data flows one way (see `ARCHITECTURE.md`): bytes → [`formats`] (one pure loader per
//! format) → [`model`] (one format-neutral scene, plus the pose sampler) → [`render`]
//! (windowless wgpu) → [`app`] (eframe) and [`cli`]. The pure core (`files`, `formats`,
//! `model`, `wz`, `check`, `export::gltf`) is the `vitrine-core` crate and the renderer
//! the `vitrine-render` crate, so the compiler holds the layers; they are re-exported
//! here under their old names.

#[cfg(feature = "gui")]
pub use vitrine_app as app;
#[cfg(feature = "cli")]
pub mod cli;
pub mod crash;
pub mod desktop;
pub mod export;
pub mod files;
pub mod formats;
#[cfg(feature = "cli")]
pub mod publish;
pub mod script_sandbox;
#[cfg(windows)]
pub mod windows_console;
pub use vitrine_core::{check, model, wz};
#[cfg(feature = "cli")]
pub use vitrine_render as render;
