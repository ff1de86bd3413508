//! Warzone 2100 knowledge: the game's stats (`stats/*.json`) read through a stack of data
//! roots, finding part files, and assembling droids and structures from their parts the
//! way the game draws them. Pure: no GPU, no UI; files come through `crate::files`.

pub mod assemble;
pub mod design;
pub mod parts;
pub mod stats;

pub use assemble::{Assembly, PartInfo, TurretPose, assemble, assemble_structure_with_modules};
pub use design::Design;
pub use parts::PartFinder;
pub use stats::{Stats, Warning};
