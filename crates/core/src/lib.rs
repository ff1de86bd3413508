//! Vitrine's core: everything that turns bytes into a model and a model into findings
//! or another program's files, with no GPU, no UI and no window (see `ARCHITECTURE.md`).
//!
//! bytes ([`files`]) → [`formats`] (one pure loader per format) → [`model`] (one
//! format-neutral scene, plus the pose sampler); [`wz`] (Warzone 2100's stats and
//! assembly), [`check`] (`vitrine check`'s rules) and [`export::gltf`] (the glTF writer)
//! work on that model. The renderer (`vitrine-render`) and the program (`vitrine`: the
//! window, the CLI) build on this crate; nothing here knows of them.

pub mod check;
pub mod crash;
pub mod engines;
pub mod export;
pub mod files;
pub mod formats;
pub mod map;
pub mod model;
pub mod wz;
