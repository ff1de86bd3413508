//! Warzone 2100 PIE loader (being written).
use super::LoadError;
use crate::model::Model;

/// Parses PIE bytes.
pub fn parse(_bytes: &[u8]) -> Result<Model, LoadError> {
    todo!()
}
