//! Vitrine: a viewer for retro game 3D models.
//!
//! Data flows one way (see `ARCHITECTURE.md`):
//! bytes → [`formats`] (one pure loader per format) → [`model`] (one format-neutral
//! scene, plus the pose sampler) → [`render`] (windowless wgpu) → [`app`] (eframe) and
//! [`cli`].

pub mod app;
pub mod cli;
pub mod formats;
pub mod model;
pub mod render;
