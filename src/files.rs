//! The core's files (`vitrine_core::files`: [`FileRef`], reading from folders and
//! archives, [`atomic`] writes, [`walk`], [`folders`]) and, for the window, [`watch`]
//! (file-system events for live reload).

pub use vitrine_core::files::*;
#[cfg(feature = "gui")]
pub mod watch;
