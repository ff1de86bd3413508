//! One pure loader per format: bytes in, [`Model`] or [`LoadError`] out. No GPU, no UI.
//!
//! [`load`] is the edge: it asks the [`Files`] it is given for the bytes (a loose file or
//! an archive entry), picks the loader by extension (checking the magic where there is
//! one), then resolves texture and event files through the same files ([`resolve`]). No
//! code under `formats/` touches the file system.

pub mod basis;
mod error;
pub mod fuzzing;
pub mod gltf;
pub mod ktx2;
pub mod ktx2_prefix;
pub mod obj;
pub mod pet;
pub mod pie;
pub mod pmf;
pub mod reader;
pub mod resolve;
pub mod text;
pub mod texture;
pub mod tpm;

pub use error::{ErrorKind, LoadError};

use crate::files::{FileRef, Files};
use crate::model::{Format, Model};
use std::path::Path;

/// Options a user can change that affect loading.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Data roots, searched in order after the model's own folder for textures, event
    /// models and game data: folders or archive roots (a Warzone 2100 mod over `mp.wz`
    /// over `base`, a Trespasser data root, a PangYa texture folder).
    pub data_roots: Vec<FileRef>,
    /// PMF transform rules the format leaves unstated (units, Euler order, root mode).
    pub pmf: pmf::PmfOptions,
    /// The Warzone 2100 tileset whose texture pages PIE models are drawn with.
    pub tileset: pie::Tileset,
    /// How PET ANIM rotation keys are read.
    pub pet_rotations: pet::PetRotations,
    /// How a Warzone 2100 map's terrain is drawn (blended ground textures, or the
    /// classic tile images).
    pub map_terrain: crate::map::scene::TerrainMode,
    /// The seed a script-generated Warzone 2100 map's `game.js` runs with (`None`: the
    /// default, [`crate::map::script::DEFAULT_SEED`]); the game draws a new one each game.
    pub map_seed: Option<u32>,
}

/// Picks the format from a file name's extension (case-insensitive).
pub fn format_for_path(path: &Path) -> Option<Format> {
    format_for_name(&path.file_name()?.to_string_lossy())
}

/// Picks the format from a file name's extension (case-insensitive).
pub fn format_for_name(name: &str) -> Option<Format> {
    let (_, ext) = name.rsplit_once('.')?;
    let ext = ext.to_ascii_lowercase();
    match ext.as_str() {
        "pie" => Some(Format::Pie),
        "pmf" => Some(Format::Pmf),
        "pet" | "apet" | "bpet" | "mpet" => Some(Format::Pet),
        "tpm" => Some(Format::Tpm),
        "glb" | "gltf" => Some(Format::Gltf),
        "obj" => Some(Format::Obj),
        _ => None,
    }
}

/// Whether `path` names a file any loader reads (by extension).
pub fn is_model_path(path: &Path) -> bool {
    format_for_path(path).is_some()
}

/// Whether a file name is one any loader reads (by extension): the filter for
/// program's folder walk (`vitrine::files::walk`).
pub fn is_model_name(name: &str) -> bool {
    format_for_name(name).is_some()
}

/// Parses `bytes` as `format` without touching the file system (textures stay
/// unresolved). `name` is used in messages only.
pub fn parse(
    format: Format,
    bytes: &[u8],
    name: &str,
    options: &LoadOptions,
) -> Result<Model, LoadError> {
    let result = match format {
        Format::Pie => pie::parse_for(bytes, options.tileset),
        Format::Pmf => pmf::parse(bytes, &options.pmf),
        Format::Tpm => tpm::parse(bytes),
        Format::Gltf => gltf::parse(bytes),
        Format::Obj => obj::parse(bytes, &mut obj::no_files),
        Format::Pet => pet::parse(bytes, name).map(|mut m| {
            pet::apply_rotations(&mut m, options.pet_rotations);
            m
        }),
    };
    let mut model = result.map_err(|e| e.in_file(name))?;
    warn_overflowing_nodes(&mut model);
    Ok(model)
}

/// Warns about nodes whose rest transform, composed with their parents', overflows
/// (finite values too large to draw, e.g. a 1e28 scale under another): the pose sampler
/// hides them rather than handing the renderer infinite matrices.
pub(crate) fn warn_overflowing_nodes(model: &mut Model) {
    let pose = crate::model::Pose::rest(model);
    let names: Vec<String> = model
        .nodes
        .iter()
        .enumerate()
        .filter(|&(i, n)| !pose.visible[i] && n.parent.is_none_or(|p| pose.visible[p]))
        .map(|(_, n)| n.name.clone())
        .collect();
    for name in names {
        model.warn(
            crate::model::Location::File,
            format!(
                "node {name:?}: its rest transform is too large to draw (it overflows once \
                 combined with its parents'); it and its children are hidden"
            ),
        );
    }
}

/// Reads, parses and resolves the model at `path` (a plain path, or `a.wz!/x/y.pie`)
/// from `files`.
pub fn load_path(files: &Files, path: &Path, options: &LoadOptions) -> Result<Model, LoadError> {
    load(files, &files.parse(path), options)
}

/// Reads, parses and resolves the model `file` (loose or inside an archive) from `files`.
pub fn load(files: &Files, file: &FileRef, options: &LoadOptions) -> Result<Model, LoadError> {
    load_with(&mut resolve::Resolver::new(files), file, options)
}

/// [`load`] with a caller-owned [`resolve::Resolver`] (and the files it reads), so a
/// batch lists each texture folder once.
pub fn load_with(
    resolver: &mut resolve::Resolver,
    file: &FileRef,
    options: &LoadOptions,
) -> Result<Model, LoadError> {
    let _processing = crate::crash::processing(file);
    let name = file.file_name();
    if crate::map::is_map_file_name(&name) {
        // A Warzone 2100 map (its `game.map`, or a script-generated map's `game.js`)
        // opens as its scene, through the same path as a model.
        return crate::map::scene::load(resolver.files(), file, options);
    }
    let format = format_for_name(&name).ok_or_else(|| {
        LoadError::new(
            ErrorKind::Unsupported,
            crate::model::Location::File,
            "not a model file this viewer reads (.pie, .pmf, .pet/.apet/.bpet/.mpet, .tpm, \
             .glb/.gltf, .obj, a Warzone 2100 game.map)",
        )
        .in_file(&name)
    })?;
    let mut model = if format == Format::Pet {
        // PET characters span several files (skeleton, parts, animations).
        pet::assemble::load(resolver.files(), file, options)?
    } else if format == Format::Gltf {
        // Buffers and images may be files beside it.
        let mut m = gltf::load(resolver.files(), file)?;
        warn_overflowing_nodes(&mut m);
        m
    } else if format == Format::Obj {
        // The MTL is a file beside it.
        let mut m = obj::load(resolver.files(), file)?;
        warn_overflowing_nodes(&mut m);
        m
    } else {
        let bytes = read_file(resolver.files(), file).map_err(|e| e.in_file(&name))?;
        parse(format, &bytes, &name, options)?
    };
    if format == Format::Pmf {
        pmf::attach_sidecar(resolver.files(), &mut model, file, options);
    }
    if format == Format::Pet {
        // (`parse` already did this for the other formats.)
        warn_overflowing_nodes(&mut model);
    }
    resolve::resolve_model_with(resolver, &mut model, file, options);
    model.validate().map_err(|msg| {
        LoadError::new(
            ErrorKind::Invalid,
            crate::model::Location::File,
            format!("internal: loader produced an invalid model: {msg}"),
        )
        .in_file(&name)
    })?;
    Ok(model)
}

/// Reads a whole file (loose or an archive entry), refusing anything over
/// [`crate::files::MAX_FILE_BYTES`], folders, pipes and devices.
pub(crate) fn read_file(files: &Files, file: &FileRef) -> Result<Vec<u8>, LoadError> {
    files.read(file).map_err(|e| {
        let kind = match e.kind() {
            std::io::ErrorKind::FileTooLarge => ErrorKind::CountTooLarge,
            _ => ErrorKind::Io,
        };
        // The caller names the file (`in_file`); keep only what else the error says.
        let msg = e.to_string();
        let msg = msg.strip_prefix(&format!("{file}: ")).unwrap_or(&msg);
        LoadError::new(kind, crate::model::Location::File, msg)
    })
}
