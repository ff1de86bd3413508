//! The map panel: what the side panel shows when the open document is a Warzone 2100
//! map ([`crate::document::Document::map`]) in place of a model's facts — the map's
//! facts, its files, the layer toggles, the object list with its search and the selected
//! object ([`ui`]); its own state is the search ([`state`]).

pub mod state;
pub mod ui;

pub use state::{MapCommand, MapPanelState};
