//! Panels of the side bar that are features of their own (new panels go here).

pub mod data_roots;
pub mod display;
pub mod format_panels;
pub mod hierarchy;
pub mod map;
pub mod sections;
pub mod side_panel;
pub mod stats;
pub mod team_picker;

pub mod assemble;
pub mod checks;
