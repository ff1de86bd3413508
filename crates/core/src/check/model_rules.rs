//! The per-model rules: the loader's coded diagnostics and source notes become findings,
//! and the rules that need the whole model (geometry, textures, counts) run here.

use super::geometry;
use super::{Element, Finding, element_at};
use crate::formats::LoadError;
use crate::model::{Diagnostic, Format, Location, Model, TextureRef, TextureRole};

/// PIE: the documented points limit.
pub(crate) const PIE_MAX_POINTS: usize = 768;
/// PIE: vertices per level after welding must stay below this (16-bit indices).
pub(crate) const PIE_MAX_WELDED: usize = 65_535;

/// Answers whether a texture reference can be found in the data (the check's look-up).
pub(crate) type TextureProbe<'a> = &'a mut dyn FnMut(&TextureRef) -> bool;

/// The finding for a file the loader refused.
pub(crate) fn load_error_finding(format: Option<Format>, e: &LoadError, file: &str) -> Finding {
    use crate::formats::ErrorKind;
    let rule = match (e.rule, format, e.kind) {
        (Some(r), _, _) => r,
        (None, _, ErrorKind::Io) => "load/unreadable",
        (None, Some(Format::Pmf), k) if k != ErrorKind::BadMagic && k != ErrorKind::EmptyFile => {
            "pmf/not-piece-model"
        }
        _ => "load/refused",
    };
    Finding::new(rule, file, e.location, Element::File, e.message.clone())
}

fn from_diagnostic(model: &Model, d: &Diagnostic, file: &str) -> Finding {
    let rule = d
        .rule
        .filter(|r| super::rule(r).is_some())
        .unwrap_or("load/warning");
    Finding::new(
        rule,
        file,
        d.location,
        element_at(model, d.location),
        d.message.clone(),
    )
}

/// Every finding on `model` (loaded from `file`, shown in messages). `textures` looks
/// texture files up in the data; without it the texture-presence rules are skipped.
pub(crate) fn check_model(
    model: &Model,
    file: &str,
    textures: Option<TextureProbe<'_>>,
) -> Vec<Finding> {
    let mut out: Vec<Finding> = model
        .diagnostics
        .iter()
        .chain(&model.source.notes)
        .map(|d| from_diagnostic(model, d, file))
        .collect();
    match model.format {
        Format::Pie => pie(model, file, textures, &mut out),
        Format::Pmf => pmf(model, file, &mut out),
        Format::Pet => pet(model, file, &mut out),
        Format::Tpm => tpm(model, file, &mut out),
        // Imports: their loaders' warnings above are what there is to say.
        Format::Gltf | Format::Obj => {}
    }
    out.sort_by_key(|f| match f.location {
        Location::File => (0, 0),
        Location::Line(l) => (1, u64::from(l)),
        Location::Offset(o) => (1, o),
    });
    out
}

fn point_location(model: &Model, mesh: usize, point: u32) -> Location {
    model
        .source
        .meshes
        .get(mesh)
        .and_then(|s| s.points.get(point as usize))
        .copied()
        .unwrap_or(Location::File)
}

fn polygon_location(model: &Model, mesh: usize, polygon: u32) -> Location {
    model
        .source
        .meshes
        .get(mesh)
        .and_then(|s| s.polygons.get(polygon as usize))
        .copied()
        .unwrap_or(Location::File)
}

fn mesh_start(model: &Model, mesh: usize) -> Location {
    model
        .source
        .meshes
        .get(mesh)
        .map_or(Location::File, |s| s.start)
}

fn node_of(model: &Model, mesh: usize) -> Element {
    model
        .mesh_node(mesh)
        .map_or(Element::File, |node| Element::Node { node })
}

fn pie(model: &Model, file: &str, textures: Option<TextureProbe<'_>>, out: &mut Vec<Finding>) {
    if model.version == "2" {
        out.push(Finding::new(
            "pie/pie2",
            file,
            Location::File,
            Element::File,
            "PIE 2 (integer texel UVs); PIE 3 is the format for new models",
        ));
    }
    for (m, mesh) in model.meshes.iter().enumerate() {
        let name = &mesh.name;
        let welded = geometry::welded_vertices(mesh);
        if welded >= PIE_MAX_WELDED {
            out.push(Finding::new(
                "pie/welded-vertices",
                file,
                mesh_start(model, m),
                node_of(model, m),
                format!("{name}: {welded} vertices after welding; the game's limit is below {PIE_MAX_WELDED}"),
            ));
        }
        if mesh.points.len() > PIE_MAX_POINTS {
            let p = PIE_MAX_POINTS as u32;
            out.push(Finding::new(
                "pie/points-limit",
                file,
                point_location(model, m, p),
                Element::Point { mesh: m, point: p },
                format!(
                    "{name}: {} points; the documented limit is {PIE_MAX_POINTS} (this is point {p}, the first past it)",
                    mesh.points.len()
                ),
            ));
        }
        let source = model.source.meshes.get(m);
        let mut reported = None;
        for t in 0..mesh.triangle_count() {
            let polygon = source
                .and_then(|s| s.triangle_polygon.get(t))
                .copied()
                .unwrap_or(t as u32);
            if reported == Some(polygon) || !geometry::degenerate(mesh, t) {
                continue;
            }
            reported = Some(polygon);
            out.push(Finding::new(
                "pie/degenerate",
                file,
                polygon_location(model, m, polygon),
                Element::Polygon { mesh: m, polygon },
                format!("{name}: polygon {polygon} is degenerate (a repeated point or zero area)"),
            ));
        }
        let unused = geometry::unused_points(mesh);
        if let Some(&first) = unused.first() {
            out.push(Finding::new(
                "pie/unused-point",
                file,
                point_location(model, m, first),
                Element::Point {
                    mesh: m,
                    point: first,
                },
                format!(
                    "{name}: {} point(s) no polygon uses (first: point {first})",
                    unused.len()
                ),
            ));
        }
        let dups = geometry::duplicate_points(mesh);
        if let Some(&(first, of)) = dups.first() {
            out.push(Finding::new(
                "pie/duplicate-point",
                file,
                point_location(model, m, first),
                Element::Point { mesh: m, point: first },
                format!(
                    "{name}: {} point(s) repeat an earlier position (first: point {first} = point {of})",
                    dups.len()
                ),
            ));
        }
    }
    pie_textures(model, file, textures, out);
}

/// Whether a texture name keeps to `[a-zA-Z0-9._-]`.
pub(crate) fn texture_name_ok(name: &str) -> bool {
    name.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Whether a page name starts `page-NN-` (or is `page-NN.png`: the number is what
/// tileset swapping matches).
pub(crate) fn has_page_prefix(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.strip_prefix("page-").is_some_and(|rest| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && matches!(rest.as_bytes().get(digits), Some(b'-' | b'.'))
    })
}

fn pie_textures(
    model: &Model,
    file: &str,
    mut probe: Option<TextureProbe<'_>>,
    out: &mut Vec<Finding>,
) {
    let mut seen = std::collections::HashSet::new();
    for (i, t) in model.textures.iter().enumerate() {
        if !seen.insert((t.role, t.name.to_ascii_lowercase())) {
            continue;
        }
        let mut location = model.source.texture_location(&t.name);
        if location == Location::File && t.role == TextureRole::Tcmask {
            // A derived mask: place it on its page's TEXTURE line.
            location = model
                .textures
                .iter()
                .find(|b| b.role == TextureRole::Base && b.tileset == t.tileset)
                .map_or(Location::File, |b| model.source.texture_location(&b.name));
        }
        let element = Element::Texture { texture: i };
        let name = &t.name;
        if t.role == TextureRole::Base {
            if !texture_name_ok(name) {
                out.push(Finding::new(
                    "pie/texture-name",
                    file,
                    location,
                    element,
                    format!("texture \"{name}\" has characters outside [a-zA-Z0-9._-]"),
                ));
            }
            if !has_page_prefix(name) {
                out.push(Finding::new(
                    "pie/texture-page-prefix",
                    file,
                    location,
                    element,
                    format!("texture \"{name}\" does not start with page-NN- (tileset swapping cannot replace it)"),
                ));
            }
        }
        if let Some(found) = probe.as_mut()
            && !found(t)
        {
            let (rule, what) = if t.role == TextureRole::Tcmask {
                ("pie/tcmask-missing", "team-colour mask")
            } else {
                ("pie/texture-missing", t.role.name())
            };
            out.push(Finding::new(
                rule,
                file,
                location,
                element,
                format!("{what} page \"{name}\" is not found in texpages/ of the data roots"),
            ));
        }
    }
}

fn pmf(model: &Model, file: &str, out: &mut Vec<Finding>) {
    for (m, mesh) in model.meshes.iter().enumerate() {
        if mesh.triangle_count() == 0 {
            out.push(Finding::new(
                "pmf/empty-piece",
                file,
                mesh_start(model, m),
                node_of(model, m),
                format!("piece \"{}\" has no triangles", mesh.name),
            ));
        }
    }
}

/// `(animated bones, FRAM frames)` limits of a PET version.
pub(crate) fn pet_limits(version: &str) -> Option<(usize, usize)> {
    match version {
        "1.0" => Some((127, 256)),
        "1.1" => Some((256, 512)),
        "1.2" => Some((512, 10_000)),
        "1.3" => Some((1024, 20_000)),
        _ => None,
    }
}

/// The per-version limits, checked per file (a character's parts each have their own).
fn pet(model: &Model, file: &str, out: &mut Vec<Finding>) {
    for d in model.details.pet_files() {
        let version = d.version.as_str();
        let Some((max_bones, max_fram)) = pet_limits(version) else {
            continue;
        };
        let tracks = d.anim.as_ref().map_or(0, |a| a.anim_tracks.len());
        if tracks > max_bones {
            out.push(Finding::new(
                "pet/animated-bones-limit",
                file,
                Location::File,
                Element::File,
                format!("{tracks} animated bones; version {version} allows {max_bones}"),
            ));
        }
        let fram = d.fram.len();
        if fram > max_fram {
            out.push(Finding::new(
                "pet/fram-limit",
                file,
                Location::File,
                Element::File,
                format!("{fram} FRAM frames; version {version} allows {max_fram}"),
            ));
        }
    }
}

fn tpm(model: &Model, file: &str, out: &mut Vec<Finding>) {
    // Meshes no instance places are recorded by the loader (with their line).
    let mut used = vec![false; model.materials.len()];
    for s in model.meshes.iter().flat_map(|m| &m.submeshes) {
        if let Some(u) = used.get_mut(s.material) {
            *u = true;
        }
    }
    for (material, u) in used.iter().enumerate() {
        if !u {
            out.push(Finding::new(
                "tpm/material-unused",
                file,
                Location::File,
                Element::Material { material },
                format!(
                    "material \"{}\" is used by no mesh",
                    model.materials[material].name
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Details, Mesh, Node, NodeKind};

    fn pet_details(version: &str) -> crate::model::details::PetDetails {
        crate::model::details::PetDetails {
            file: "a.apet".into(),
            kind: "apet",
            version: version.into(),
            sections: Vec::new(),
            axes: "",
            bones: Vec::new(),
            bone_matrices: false,
            textures: Vec::new(),
            motions: Vec::new(),
            fram: Vec::new(),
            collision_boxes: Vec::new(),
            fanm: Vec::new(),
            mesh: None,
            anim: None,
        }
    }

    #[test]
    fn pet_limits_per_version() {
        let mut m = Model::new(Format::Pet, "1.0");
        let mut d = pet_details("1.0");
        d.anim = Some(crate::model::details::PetAnim {
            anim_layout: "1.0",
            anim_tracks: (0..128).collect(),
            timeline_frames: 1,
        });
        d.fram = vec![
            crate::model::details::PetFrame {
                frame: 0,
                scripts: Default::default(),
                check: None,
            };
            257
        ];
        m.details = Details::Pet(d.clone());
        let f = check_model(&m, "a.apet", None);
        let rules: Vec<_> = f.iter().map(|f| f.rule).collect();
        assert_eq!(rules, ["pet/animated-bones-limit", "pet/fram-limit"]);
        assert!(
            f[0].message
                .contains("128 animated bones; version 1.0 allows 127")
        );
        // The same counts are within 1.3's limits.
        d.version = "1.3".into();
        m.details = Details::Pet(d);
        assert!(check_model(&m, "a.apet", None).is_empty());
        assert_eq!(pet_limits("1.2"), Some((512, 10_000)));
        assert_eq!(pet_limits("9.9"), None);
    }

    #[test]
    fn pmf_pieces_without_triangles() {
        let mut m = Model::new(Format::Pmf, "PMF1");
        m.meshes.push(Mesh {
            name: "pivot".into(),
            ..Mesh::default()
        });
        let mut n = Node::new("pivot", None, NodeKind::Piece);
        n.mesh = Some(0);
        m.nodes.push(n);
        let f = check_model(&m, "x.pmf", None);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].rule, "pmf/empty-piece");
        assert_eq!(f[0].element, Element::Node { node: 0 });
    }

    #[test]
    fn page_prefix_and_name_characters() {
        for (name, ok) in [
            ("page-7-barbarians.png", true),
            ("page-12.png", true),
            ("Page-3-x.png", true),
            ("helirotor.png", false),
            ("page-x.png", false),
            ("page-.png", false),
        ] {
            assert_eq!(has_page_prefix(name), ok, "{name}");
        }
        assert!(texture_name_ok("page-7_a.b-c.png"));
        assert!(!texture_name_ok("page-12-player buildings.png"));
        assert!(!texture_name_ok("page-7-é.png"));
    }
}
