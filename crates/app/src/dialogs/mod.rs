//! The app's dialogs: Screenshot…, Export glTF…, Export animation, Published sites. The file pickers they
//! need are [`super::commands::Effect`]s the front-end shows (natively on the desktop);
//! the answers come back as commands.

pub mod export_animation;
pub mod export_gltf;
pub mod export_pie;
pub mod published_sites;
pub mod screenshot;

/// The model file extensions offered by the Open dialog.
pub const MODEL_EXTENSIONS: &[&str] = &[
    "pie", "pmf", "pet", "apet", "bpet", "mpet", "tpm", "glb", "gltf", "obj",
];
