//! Vitrine: a viewer for retro game 3D models.
//!
//! Data flows one way (see `ARCHITECTURE.md`):
//! bytes → [`formats`] (one pure loader per format) → [`model`] (one format-neutral
//! scene, plus the pose sampler) → [`render`] (windowless wgpu) → [`app`] (eframe) and
//! [`cli`].

//!
//! The pure core ([`formats`], [`model`]) builds without the `gui` feature; the renderer,
//! the window and the command line need it.

#[cfg(feature = "gui")]
pub mod app;
pub mod check;
#[cfg(feature = "gui")]
pub mod cli;
pub mod crash;
pub mod desktop;
pub mod export;
pub mod files;
pub mod formats;
pub mod model;
#[cfg(feature = "gui")]
pub mod render;
pub mod wz;
