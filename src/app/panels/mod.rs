//! Panels of the side bar that are features of their own (new panels go here).

pub mod assemble;
pub mod checks;
