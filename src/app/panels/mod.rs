//! Side-panel sections that have grown into panels of their own.

pub mod checks;
