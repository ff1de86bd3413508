//! Loading untrusted bytes with every invariant checked: what the fuzz targets
//! (`fuzz/fuzz_targets/`) run on each input, and what the regression test
//! (`crates/core/tests/core/fuzz_regressions.rs`) replays on the committed inputs — one code path, so a
//! fixed finding stays fixed on the stable toolchain too.
//!
//! A loader may reject any input with a [`LoadError`]; what it must never do is panic,
//! return an error that does not name the file, or return a model that breaks the
//! model's invariants ([`Model::validate`]: indices in range, finite numbers, parents
//! before children), whose posed world matrices are not finite, or whose `info --json`
//! does not serialise. [`run`] returns `Err` with what broke; a panic propagates.

use super::{LoadError, LoadOptions, parse, pet};
use crate::files::Archive;
use crate::model::json::{JsonOptions, model_json};
use crate::model::{Format, Model, Pose};
use std::path::Path;

/// What a fuzz target feeds its input to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// One Warzone 2100 `.pie`.
    Pie,
    /// One Piece Model Editor `.pmf`.
    Pmf,
    /// One PangYa `.pet` (all in one file).
    Pet,
    /// A PangYa multi-file character: the input is split into parts (`split_parts`).
    PetGroup,
    /// One Trespasser `.tpm`.
    Tpm,
    /// A zip archive; every model entry in it is loaded.
    Archive,
    /// One glTF 2.0 file: a `.glb` when it starts with the binary magic, else `.gltf` JSON
    /// (buffers and images from `data:` URIs; files beside it are not there).
    Gltf,
    /// One Wavefront `.obj` (its MTL is not there).
    Obj,
}

impl Target {
    /// Every target, in the order of the fuzz table.
    pub const ALL: [Target; 8] = [
        Target::Pie,
        Target::Pmf,
        Target::Pet,
        Target::PetGroup,
        Target::Tpm,
        Target::Archive,
        Target::Gltf,
        Target::Obj,
    ];

    /// The target's name (its fuzz target, seed and regression folders).
    pub fn name(self) -> &'static str {
        match self {
            Target::Pie => "pie",
            Target::Pmf => "pmf",
            Target::Pet => "pet",
            Target::PetGroup => "pet_group",
            Target::Tpm => "tpm",
            Target::Archive => "archive",
            Target::Gltf => "gltf",
            Target::Obj => "obj",
        }
    }
}

/// What one input did: how many models loaded and how many were rejected (with a
/// message naming the file).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Models that loaded and passed every check.
    pub loaded: usize,
    /// Inputs rejected with a clear error.
    pub rejected: usize,
}

/// Separates the parts of a [`Target::PetGroup`] input.
pub(crate) const PART_SEPARATOR: &[u8] = b"VTRNPART";

/// Most parts one group input is split into.
pub(crate) const MAX_GROUP_PARTS: usize = 8;

/// Most archive entries loaded from one [`Target::Archive`] input.
pub(crate) const MAX_ARCHIVE_MODELS: usize = 16;

/// Splits a [`Target::PetGroup`] input into named parts: chunks between
/// [`PART_SEPARATOR`]s, each chunk's first byte picking its kind (`% 3`: `.bpet`,
/// `.mpet`, `.apet`), the rest its bytes. The first part is the opened file. At most
/// [`MAX_GROUP_PARTS`].
pub(crate) fn split_parts(data: &[u8]) -> Vec<(String, &[u8])> {
    let mut out = Vec::new();
    let mut rest = data;
    while out.len() < MAX_GROUP_PARTS {
        let (chunk, next) = match find(rest, PART_SEPARATOR) {
            Some(i) => (&rest[..i], Some(&rest[i + PART_SEPARATOR.len()..])),
            None => (rest, None),
        };
        if let Some((&kind, bytes)) = chunk.split_first() {
            let ext = ["bpet", "mpet", "apet"][usize::from(kind % 3)];
            out.push((format!("fz_{}.{ext}", out.len()), bytes));
        }
        match next {
            Some(n) => rest = n,
            None => break,
        }
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Feeds `data` to `target`'s loader and checks everything it returns.
pub fn run(target: Target, data: &[u8]) -> Result<Outcome, String> {
    let options = LoadOptions::default();
    let mut outcome = Outcome::default();
    let single = |format: Format, name: &str, outcome: &mut Outcome| {
        let result = parse(format, data, name, &options);
        record(result, name, outcome)
    };
    match target {
        Target::Pie => single(Format::Pie, "fuzz.pie", &mut outcome)?,
        Target::Pmf => single(Format::Pmf, "fuzz.pmf", &mut outcome)?,
        Target::Pet => single(Format::Pet, "fuzz.pet", &mut outcome)?,
        Target::Tpm => single(Format::Tpm, "fuzz.tpm", &mut outcome)?,
        Target::PetGroup => {
            let parts = split_parts(data);
            let Some(((opened, bytes), siblings)) = parts.split_first() else {
                return Ok(outcome);
            };
            let siblings: Vec<(&str, &[u8])> =
                siblings.iter().map(|(n, b)| (n.as_str(), *b)).collect();
            let result = pet::assemble::assemble((opened, bytes), &siblings);
            record(result, opened, &mut outcome)?;
        }
        Target::Archive => archive(data, &options, &mut outcome)?,
        Target::Gltf => {
            let name = if data.starts_with(b"glTF") {
                "fuzz.glb"
            } else {
                "fuzz.gltf"
            };
            single(Format::Gltf, name, &mut outcome)?
        }
        Target::Obj => single(Format::Obj, "fuzz.obj", &mut outcome)?,
    }
    Ok(outcome)
}

fn archive(data: &[u8], options: &LoadOptions, outcome: &mut Outcome) -> Result<(), String> {
    let name = Path::new("fuzz.zip");
    let Ok(zip) = Archive::from_bytes(data.to_vec(), name) else {
        outcome.rejected += 1;
        return Ok(());
    };
    // Listing must agree with itself: every folder's children exist as what they say.
    for (child, kind) in zip.children("") {
        if zip.kind(&child) != Some(kind) {
            return Err(format!("archive root lists {child:?} as {kind:?}"));
        }
    }
    let models = zip.files().into_iter().filter_map(|e| {
        let format = super::format_for_path(Path::new(&e.path))?;
        Some((e.path.clone(), format))
    });
    for (path, format) in models.take(MAX_ARCHIVE_MODELS) {
        let bytes = match zip.read(name, &path) {
            Ok(b) => b,
            Err(e) if e.to_string().contains(&path) => {
                outcome.rejected += 1;
                continue;
            }
            Err(e) => return Err(format!("reading {path}: error does not name it: {e}")),
        };
        let file = path.rsplit('/').next().unwrap_or(&path).to_string();
        let result = if format == Format::Pet && pet::Kind::from_name(&file) != pet::Kind::Pet {
            pet::assemble::assemble((&file, &bytes), &[])
        } else {
            parse(format, &bytes, &file, options)
        };
        record(result, &file, outcome)?;
    }
    Ok(())
}

fn record(
    result: Result<Model, LoadError>,
    name: &str,
    outcome: &mut Outcome,
) -> Result<(), String> {
    match result {
        Ok(model) => {
            check_model(&model, name)?;
            outcome.loaded += 1;
        }
        Err(e) => {
            let message = e.to_string();
            if !message.starts_with(name) {
                return Err(format!("error does not name the file {name}: {message}"));
            }
            outcome.rejected += 1;
        }
    }
    Ok(())
}

/// Most clips posed per model by [`check_model`] (each at its start and middle).
const MAX_CLIPS_POSED: usize = 8;

/// Checks a loaded model: it validates, every clip poses to finite world matrices, and
/// its `info --json` (with world matrices; at rest with vertices, and posed in the middle
/// of the first clip) serialises with one entry per node and mesh.
pub(crate) fn check_model(model: &Model, name: &str) -> Result<(), String> {
    model
        .validate()
        .map_err(|e| format!("{name}: invalid model: {e}"))?;
    let path = Path::new(name);
    let mut poses = vec![None];
    for (i, c) in model.clips.iter().enumerate().take(MAX_CLIPS_POSED) {
        poses.push(Some((i, 0.0)));
        poses.push(Some((i, c.duration() * 0.5)));
    }
    for (k, at) in poses.into_iter().enumerate() {
        let pose = match at {
            Some((clip, t)) => Pose::sample(model, Some(clip), t, 0),
            None => Pose::rest(model),
        };
        if let Some(i) = pose.world.iter().position(|m| !m.is_finite()) {
            return Err(format!(
                "{name}: node {i} has a non-finite world matrix at {at:?}"
            ));
        }
        // `info --json` of the rest pose and of the first clip's middle: the JSON round
        // trip dominated a fuzz run on big skeletons (84 % of a PET input's time when
        // every pose was serialised), and the other poses take the same code path.
        if k != 0 && k != 2 {
            continue;
        }
        let options = JsonOptions {
            world: true,
            vertices: at.is_none(),
            at,
        };
        let json = model_json(model, path, &options);
        // Written as `info --json` writes it (a `Value` always reads back: parsing the
        // text again only doubled the cost).
        serde_json::to_writer(std::io::sink(), &json).map_err(|e| format!("{name}: json: {e}"))?;
        let count = |key: &str| json[key].as_array().map_or(usize::MAX, Vec::len);
        if count("nodes") != model.nodes.len() || count("meshes") != model.meshes.len() {
            return Err(format!("{name}: info --json lost nodes or meshes"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Joins parts into one [`Target::PetGroup`] input (the inverse of [`split_parts`]);
    /// `kind` is 0 for `.bpet`, 1 for `.mpet`, 2 for `.apet`.
    fn join_parts(parts: &[(u8, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, (kind, bytes)) in parts.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(PART_SEPARATOR);
            }
            out.push(*kind);
            out.extend_from_slice(bytes);
        }
        out
    }

    #[test]
    fn group_inputs_split_into_named_parts_and_join_back() {
        let joined = join_parts(&[(0, b"skel"), (1, b"body"), (2, b"walk")]);
        let parts = split_parts(&joined);
        let names: Vec<&str> = parts.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["fz_0.bpet", "fz_1.mpet", "fz_2.apet"]);
        assert_eq!(parts[1].1, b"body");
    }

    #[test]
    fn rejected_inputs_are_counted_not_findings() {
        for t in Target::ALL {
            let out = run(t, b"not a model").expect("garbage is rejected cleanly");
            assert_eq!(out.loaded, 0, "{t:?}");
        }
    }
}
