//! Multi-file characters and the file-system edge of the PET loader.
//!
//! Opening a `.bpet`, `.mpet` or `.apet` loads every file of those three kinds in the
//! same folder whose name has the same prefix (the part before the first `_`,
//! case-insensitively) and builds one model: the `.bpet` skeleton first, then each
//! `.mpet` as a skinned part (its bones matched to the skeleton by name), then each
//! `.apet` as one clip. Without a `.bpet` the first `.mpet`'s bones are the skeleton;
//! an `.apet` alone has no rest matrices and says so.
//!
//! A broken sibling is skipped with a warning; a broken opened file is an error.
//! This module and [`crate::formats::resolve`] are the only parts of the PET loader
//! that ask [`crate::files`] for files (a character may also sit inside an archive).

use super::build::Builder;
use super::details;
use super::sections::{self, PetFile};
use super::textures;
use super::{Kind, parse};
use crate::files::{EntryKind, FileRef, Files};
use crate::formats::resolve::Resolver;
use crate::formats::{LoadError, LoadOptions, read_file};
use crate::model::Details;
use crate::model::details::PetCharacterDetails;
use crate::model::{AlphaSource, BlendMode, Diagnostic, Location, Model, TextureRef, TextureRole};
use std::path::Path;

/// Most sibling files one character may have (a folder of thousands is not a character).
pub(crate) const MAX_PARTS: usize = 64;

/// Whether `file` is a part of a multi-file character (`.bpet`, `.mpet`, `.apet`).
pub fn is_part(file: &FileRef) -> bool {
    Kind::from_name(&file.file_name()) != Kind::Pet
}

/// The lower-case prefix of a file name before the first `_` (the whole stem if none).
pub fn prefix(file_name: &str) -> String {
    let stem = Path::new(file_name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    stem.split('_').next().unwrap_or("").to_lowercase()
}

/// The `.bpet`/`.mpet`/`.apet` files next to `file` with its prefix, `file` included,
/// sorted by name.
pub fn siblings(files: &Files, file: &FileRef) -> Vec<FileRef> {
    let want = prefix(&file.file_name());
    let listing = file
        .parent()
        .and_then(|dir| files.list(&dir).ok())
        .unwrap_or_default();
    let mut out: Vec<FileRef> = listing
        .into_iter()
        .filter(|(n, _, k)| {
            *k == EntryKind::File && Kind::from_name(n) != Kind::Pet && prefix(n) == want
        })
        .map(|(_, r, _)| r)
        .collect();
    if !out.iter().any(|p| p.file_name() == file.file_name()) {
        out.insert(0, file.clone());
    }
    out
}

/// A file name without its extension.
fn stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Loads the model `file`: a `.pet` on its own, any other kind with its siblings;
/// then adds `<stem>_mask.jpg` alpha companions that exist.
pub fn load(files: &Files, file: &FileRef, options: &LoadOptions) -> Result<Model, LoadError> {
    let name = file.file_name();
    let mut model = if is_part(file) {
        load_group(files, file)?
    } else {
        let bytes = read_file(files, file).map_err(|e| e.in_file(&name))?;
        parse(&bytes, &name).map_err(|e| e.in_file(&name))?
    };
    add_masks(files, &mut model, file, options);
    super::apply_rotations(&mut model, options.pet_rotations);
    Ok(model)
}

/// For each material whose base texture has a `<stem>_mask.jpg` companion, uses the
/// companion's red channel as alpha (alpha test, double-sided); a `[`-prefixed `.dds`
/// uses its own alpha instead ([`textures::own_alpha`]).
pub(crate) fn add_masks(files: &Files, model: &mut Model, file: &FileRef, options: &LoadOptions) {
    let mut resolver = Resolver::new(files);
    for m in 0..model.materials.len() {
        let Some(base) = model.materials[m].base else {
            continue;
        };
        let base_name = model.textures[base].name.clone();
        if base_name.to_lowercase().ends_with("_mask.jpg") {
            continue;
        }
        if textures::own_alpha(&model.materials[m].name) {
            // `[name.dds`: the DDS's own alpha channel cuts out (base alpha is always used).
            let mat = &mut model.materials[m];
            mat.blend = BlendMode::AlphaTest;
            mat.double_sided = true;
            continue;
        }
        let mask = textures::mask_name(&base_name);
        if resolver
            .texture(&mask, file, &options.data_roots, false)
            .is_none()
        {
            continue;
        }
        let tex = match model.textures.iter().position(|t| t.name == mask) {
            Some(t) => t,
            None => {
                model
                    .textures
                    .push(TextureRef::new(TextureRole::Opacity, mask));
                model.textures.len() - 1
            }
        };
        let mat = &mut model.materials[m];
        mat.opacity = Some(tex);
        mat.opacity_source = AlphaSource::Red;
        mat.blend = BlendMode::AlphaTest;
        mat.double_sided = true;
    }
}

struct Part {
    name: String,
    file: PetFile,
}

/// Parses one file of a character (errors name the file).
fn parse_part(name: &str, bytes: &[u8]) -> Result<Part, LoadError> {
    let file = sections::parse_file(bytes, Kind::from_name(name)).map_err(|e| e.in_file(name))?;
    Ok(Part {
        name: name.to_string(),
        file,
    })
}

/// A sibling's notes, restated so the message names the file and the offset in it
/// (a location alone would be read as one in the opened file).
fn from_sibling(notes: &[Diagnostic], file: &str) -> Vec<Diagnostic> {
    notes
        .iter()
        .map(|d| Diagnostic::warning(Location::File, d.display_with(file)))
        .collect()
}

/// Loads the character `path` belongs to: reads the opened file and its siblings (from
/// `files`), then [`assemble_with`].
fn load_group(files: &Files, path: &FileRef) -> Result<Model, LoadError> {
    let name = path.file_name();
    let bytes = read_file(files, path).map_err(|e| e.in_file(&name))?;
    let mut warnings = Vec::new();
    let mut others = siblings(files, path);
    if others.len() > MAX_PARTS {
        warnings.push(Diagnostic::warning(
            Location::File,
            format!(
                "{} files share the prefix {:?}; only the first {MAX_PARTS} are used",
                others.len(),
                prefix(&name)
            ),
        ));
        others.truncate(MAX_PARTS);
    }
    let mut read = Vec::new();
    for p in others {
        if p.file_name() == path.file_name() {
            continue;
        }
        let sibling = p.file_name();
        match read_file(files, &p) {
            Ok(b) => read.push((sibling, b)),
            Err(e) => warnings.push(Diagnostic::warning(
                Location::File,
                format!("sibling {sibling} skipped: {}", e.in_file(&sibling)),
            )),
        }
    }
    let parts: Vec<(&str, &[u8])> = read.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    assemble_with((&name, &bytes), &parts, warnings)
}

/// Builds one character from the opened file and its siblings, given as (file name,
/// bytes) — no file system. The file names decide each part's kind (`.bpet`, `.mpet`,
/// `.apet`) and name the meshes and clips. A broken sibling is skipped with a warning;
/// a broken opened file is an error.
pub fn assemble(opened: (&str, &[u8]), siblings: &[(&str, &[u8])]) -> Result<Model, LoadError> {
    assemble_with(opened, siblings, Vec::new())
}

fn assemble_with(
    opened: (&str, &[u8]),
    siblings: &[(&str, &[u8])],
    mut warnings: Vec<Diagnostic>,
) -> Result<Model, LoadError> {
    let opened = parse_part(opened.0, opened.1)?;
    let mut parts = Vec::new();
    for &(name, bytes) in siblings {
        if name == opened.name {
            continue;
        }
        match parse_part(name, bytes) {
            Ok(part) => parts.push(part),
            Err(e) => warnings.push(Diagnostic::warning(
                Location::File,
                format!("sibling {name} skipped: {e}"),
            )),
        }
    }
    let version = opened.file.version_string();
    let opened_name = opened.name.clone();
    let opened_sections: Vec<String> = opened.file.sections.iter().map(|s| s.tag.clone()).collect();
    parts.push(opened);
    let rank = |k: Kind| match k {
        Kind::Bpet => 0,
        Kind::Mpet => 1,
        Kind::Apet => 2,
        Kind::Pet => 3,
    };
    parts.sort_by(|a, b| (rank(a.file.kind), &a.name).cmp(&(rank(b.file.kind), &b.name)));

    let mut b = Builder::new(version.clone());
    b.notes(&warnings);
    // The skeleton: the first file with bones, by kind rank (.bpet, .mpet, .apet).
    let skeleton = parts.iter().position(|p| p.file.bones.is_some());
    let mut skeleton_bones = Vec::new();
    if let Some(s) = skeleton {
        let p = &parts[s];
        if p.file.kind == Kind::Apet {
            b.model().warn(
                Location::File,
                format!(
                    "no .bpet or .mpet with prefix {:?} next to {}: the bones come from the \
                     .apet, which has no rest matrices, so they rest at identity",
                    prefix(&p.name),
                    p.name
                ),
            );
        }
        skeleton_bones = details::file_details(&p.file, &p.name).bones;
    }
    let mut details_parts = Vec::new();
    let (mut motions, mut fram, mut colls, mut submeshes) = (vec![], vec![], vec![], vec![]);
    let mut uv_sets = 0u8;
    let mut summary = [0usize; 3];
    for (i, p) in parts.iter().enumerate() {
        if p.name == opened_name {
            b.notes(&p.file.notes);
        } else {
            b.notes(&from_sibling(&p.file.notes, &p.name));
        }
        let node_of = match &p.file.bones {
            Some(bones) if Some(i) == skeleton => b.add_skeleton(bones, &p.name),
            Some(bones) => b.merge_bones(bones, &p.name),
            None => Vec::new(),
        };
        if p.file.kind == Kind::Bpet && Some(i) != skeleton {
            b.model().warn(
                Location::File,
                format!(
                    "{}: a second skeleton; its bones were matched by name",
                    p.name
                ),
            );
        }
        let first_material = b.add_textures(&p.file);
        if let Some(mesh) = &p.file.mesh {
            let added = b.add_mesh(&p.file, mesh, &stem(&p.name), &node_of, first_material);
            match added {
                Ok(_) => {}
                // A sibling's mesh that cannot be built is left out; the opened file's
                // is an error (add_mesh checks before it adds anything).
                Err(e) if p.name != opened_name => b.model().warn(
                    Location::File,
                    format!("mesh of sibling {} skipped: {}", p.name, e.in_file(&p.name)),
                ),
                Err(e) => return Err(e.in_file(&p.name)),
            }
        }
        if p.file.anim.is_some() || !p.file.motions.is_empty() || !p.file.frames.is_empty() {
            b.add_clip(&p.file, &stem(&p.name), &node_of);
        }
        b.add_collision(&p.file, &node_of, &p.name);
        details::file_properties(b.model(), &p.file, &p.name);
        let d = details::file_details(&p.file, &p.name);
        motions.extend(d.motions.iter().cloned());
        fram.extend(d.fram.iter().cloned());
        colls.extend(d.collision_boxes.iter().cloned());
        if let Some(m) = &d.mesh {
            submeshes.extend(m.submeshes.iter().copied());
            uv_sets = uv_sets.max(m.uv_sets);
        }
        match p.file.kind {
            Kind::Bpet => summary[0] += 1,
            Kind::Mpet => summary[1] += 1,
            _ => summary[2] += 1,
        }
        details_parts.push(d);
    }
    let group = prefix(&opened_name);
    let mut model = b.finish();
    model.property(
        "Character",
        format!(
            "prefix {group}: {} skeleton, {} mesh parts, {} animations",
            summary[0], summary[1], summary[2]
        ),
    );
    model.details = Details::PetCharacter(PetCharacterDetails {
        kind: "assembled",
        file: opened_name,
        prefix: group,
        version,
        sections: opened_sections,
        axes: model.axes.name,
        bones: skeleton_bones,
        uv_sets,
        motions,
        fram,
        collision_boxes: colls,
        submeshes,
        parts: details_parts,
    });
    Ok(model)
}
