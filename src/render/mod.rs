//! The windowless wgpu renderer (being written).
