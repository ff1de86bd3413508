//! The app's dialogs: Screenshot…, Export glTF…, Export animation, Published sites. The file pickers they
//! need are [`super::effect::Effect`]s the front-end shows (natively on the desktop);
//! the answers come back as commands.

pub mod export_animation;
pub mod export_gltf;
pub mod export_pie;
pub mod published_sites;
pub mod screenshot;
pub mod screenshot_dialog;

/// The model file extensions offered by the Open dialog.
pub const MODEL_EXTENSIONS: &[&str] = &[
    "pie", "pmf", "pet", "apet", "bpet", "mpet", "tpm", "glb", "gltf", "obj",
];

/// Why a folder cannot be picked where the front-end has no folders (a browser).
pub const NO_FOLDERS: &str =
    "Not available in the browser: drop the folder's files or an archive on the page instead";
