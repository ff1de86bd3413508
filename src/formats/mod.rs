//! One pure loader per format: bytes in, [`Model`] or [`LoadError`] out. No GPU, no UI.
//!
//! [`load_path`] is the edge that touches the file system: it reads the file, picks the
//! loader by extension (checking the magic where there is one), then resolves texture
//! and event files next to it ([`resolve`]).

mod error;
pub mod fuzzing;
pub mod pet;
pub mod pie;
pub mod pmf;
pub mod reader;
pub mod resolve;
pub mod text;
pub mod tpm;

pub use error::{ErrorKind, LoadError};

use crate::model::{Format, Model};
use std::path::{Path, PathBuf};

/// Largest input any loader accepts (no real model comes near it).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Options a user can change that affect loading.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Extra folders to search for textures (a Trespasser data root, a PangYa texture
    /// folder, a Warzone 2100 `data/` folder), before the model's own folder.
    pub texture_roots: Vec<PathBuf>,
    /// PMF transform rules the format leaves unstated (units, Euler order, root mode).
    pub pmf: pmf::PmfOptions,
}

/// Picks the format from a file name's extension (case-insensitive).
pub fn format_for_path(path: &Path) -> Option<Format> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "pie" => Some(Format::Pie),
        "pmf" => Some(Format::Pmf),
        "pet" | "apet" | "bpet" | "mpet" => Some(Format::Pet),
        "tpm" => Some(Format::Tpm),
        _ => None,
    }
}

/// Whether `path` names a file any loader reads (by extension).
pub fn is_model_path(path: &Path) -> bool {
    format_for_path(path).is_some()
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
        Format::Pie => pie::parse(bytes),
        Format::Pmf => pmf::parse(bytes, &options.pmf),
        Format::Tpm => tpm::parse(bytes),
        Format::Pet => pet::parse(bytes, name),
    };
    let mut model = result.map_err(|e| e.in_file(name))?;
    warn_overflowing_nodes(&mut model);
    Ok(model)
}

/// Warns about nodes whose rest transform, composed with their parents', overflows
/// (finite values too large to draw, e.g. a 1e28 scale under another): the pose sampler
/// hides them rather than handing the renderer infinite matrices.
pub fn warn_overflowing_nodes(model: &mut Model) {
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
                "node {name:?}: its rest transform is too large to draw (it overflows once                  combined with its parents'); it and its children are hidden"
            ),
        );
    }
}

/// Reads, parses and resolves the model at `path`.
pub fn load_path(path: &Path, options: &LoadOptions) -> Result<Model, LoadError> {
    load_path_with(&mut resolve::Resolver::new(), path, options)
}

/// [`load_path`] with a caller-owned [`resolve::Resolver`], so a batch lists each texture
/// folder once.
pub fn load_path_with(
    resolver: &mut resolve::Resolver,
    path: &Path,
    options: &LoadOptions,
) -> Result<Model, LoadError> {
    let _processing = crate::crash::processing(path.display());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let format = format_for_path(path).ok_or_else(|| {
        LoadError::new(
            ErrorKind::Unsupported,
            crate::model::Location::File,
            "not a model file this viewer reads (.pie, .pmf, .pet/.apet/.bpet/.mpet, .tpm)",
        )
        .in_file(&name)
    })?;
    let mut model = if format == Format::Pet {
        // PET characters span several files (skeleton, parts, animations).
        pet::assemble::load(path, options)?
    } else {
        let bytes = read_file(path).map_err(|e| e.in_file(&name))?;
        parse(format, &bytes, &name, options)?
    };
    if format == Format::Pmf {
        pmf::attach_sidecar(&mut model, path, options);
    }
    if format == Format::Pet {
        // (`parse` already did this for the other formats.)
        warn_overflowing_nodes(&mut model);
    }
    resolve::resolve_model_with(resolver, &mut model, path, options);
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

/// Reads a whole file through [`crate::files::read`]: anything over [`MAX_FILE_BYTES`],
/// a folder, a pipe or a device is refused with a message (a FIFO would block forever).
pub fn read_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    crate::files::read(&crate::files::FileRef::Disk(path.to_path_buf())).map_err(|e| {
        let kind = if e.kind() == std::io::ErrorKind::FileTooLarge {
            ErrorKind::CountTooLarge
        } else {
            ErrorKind::Io
        };
        LoadError::new(kind, crate::model::Location::File, e.to_string())
    })
}
