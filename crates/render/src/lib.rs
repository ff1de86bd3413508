//! The windowless wgpu renderer: draws a [`Model`](vitrine_core::model::Model) in a
//! [`Pose`](vitrine_core::model::Pose) into an offscreen [`RenderTarget`]. The window, the
//! screenshot code, `vitrine render` and the tests all use this same code. It knows
//! nothing of egui and never branches on the file format.

pub mod batch;
mod camera;
pub mod colour_mode;
mod draw_runs;
pub mod framing;
mod geometry;
mod gpu;
mod gpu_model;
pub mod inspect;
pub mod lighting;
mod mesh_buffers;
#[cfg(not(target_arch = "wasm32"))]
mod offscreen_instance;
pub mod pages;
pub mod pipelines;
mod scene;
mod sky;
mod stencil_shadows;
mod target;
pub mod textures;
mod uniforms;

pub use camera::{Camera, GAME_START_DISTANCE, ViewPreset};
pub use colour_mode::{ColourMode, LegendEntry, legend, node_colour};
pub use framing::{EdgeToEdge, framing_points};
pub use gpu::{DeviceWatch, Gpu, RenderError, describe_adapter};
pub use inspect::highlight::Highlight;
pub use inspect::{OverlayKind, Overlays};
pub use lighting::Lighting;
pub use scene::{SceneRenderer, ViewSettings, clip_points, model_bounds, visible_points};
pub use target::{MSAA_SAMPLES, Reading, RenderTarget, SAMPLE_COUNTS};
pub use uniforms::sizes as uniforms_sizes;
pub use vitrine_core::model::team::{TEAM_COLOURS, TeamColour, team_by_name};
pub use wgpu;
