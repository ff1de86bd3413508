//! The viewer's egui app, shared by every front-end.
//!
//! State lives in plain structs ([`state`]), split by owner: [`services`] (host, files,
//! settings, toasts, background work), [`document`] (the open model, its load error,
//! inspection and checks), [`view`] (camera, colour mode), and each panel's and
//! dialog's own state. Panels ([`menu`], [`panels`], [`layout`]) read it and emit
//! [`commands::AppCommand`]s, which only name an owner's command; [`dispatch::apply`]
//! hands each to its owner with the owner's state and a narrow context. Loading,
//! assembling and listing run as [`jobs`] ([`loading`]) that the front-end runs, never
//! on the UI thread; everything outside the app's memory (files, threads, saving,
//! settings storage, watching) goes through the front-end's [`host::Host`], and dialogs
//! are [`commands::Effect`]s the front-end performs. [`viewport`] is the GPU view, drawn
//! by the shared windowless renderer.

pub mod commands;
pub mod dialogs;
pub mod dispatch;
pub mod document;
pub mod effect;
pub mod export;
pub mod fonts;
pub mod frame;
pub mod gallery;
pub mod game_camera;
pub mod game_motion;
pub mod help;
pub mod host;
pub mod inspect;
pub mod jobs;
pub mod keys;
pub mod layout;
pub mod lighting;
pub mod link;
#[cfg(test)]
mod lint_lists;
pub mod live_reload;
pub mod loading;
pub mod menu;
pub mod messages;
pub mod opening;
pub mod page_detail;
pub mod panels;
pub mod published;
pub mod services;
pub mod settings;
pub mod share;
pub mod state;
pub mod timeline;
pub mod toasts;
pub mod view;
pub mod viewport;
pub mod watching;
pub mod work;

// The core and the renderer under the names the app's modules use.
pub use vitrine_core::{check, crash, files, formats, map, model, wz};
pub use vitrine_render as render;
