//! Parsed header and levels → [`Model`].
//!
//! Mapping: level `i` becomes node `i` (`"level N"`, [`NodeKind::Level`], a root),
//! mesh `i` and material `i`.
//!
//! Axes: PIE is Y-up but **left-handed** (text on texture pages — factory labels,
//! ground numbers — reads mirrored when the numbers are drawn unchanged right-handed),
//! so the model mirrors X: points and normals (−x, y, z), each triangle's last two
//! corners swapped so front faces stay counter-clockwise, connectors (−x, z, y), and
//! ANIMOBJECT transforms conjugated (`anim.rs`). Models keep facing −Z (barrels point
//! that way). `info --json` converts back to the file's numbers. Materials: base = the tileset-0 `TEXTURE` (other tilesets are listed as
//! extra texture references with their slot); team-colour mask = `TCMASK`, else, when
//! TYPE has 0x10000, the derived `page-NN_tcmask.png`; normal and specular maps alike;
//! blend from TYPE (0x4 premultiplied, 0x2 additive, else opaque); billboard from 0x20
//! (roll + pitch) or 0x10 (roll). Connectors keep the file's numbers in `raw` (x, y, z,
//! z up); `position` is (−x, z, y) with fractions dropped, as the game stores them.

use super::anim::{self, LevelContext};
use super::header::{self, Header, Settings, TILESETS, TYPE_PITCH, TYPE_PREMULTIPLIED, TYPE_ROLL};
use super::level::Level;
use super::tileset::{self, Tileset};
use crate::model::details::{
    Details, PieAnimation, PieDetails, PieEvent, PieLevel, PieTextureAnimation,
};
use crate::model::{
    Billboard, BlendMode, Connector, Diagnostic, Format, Location, Material, Mesh, MeshSource,
    Model, ModelEvent, Node, NodeKind, ShadowMesh, Submesh, TextureLine, TextureRef, TextureRole,
};
use glam::Vec3;
use std::fmt::Write;

/// The team-colour mask the game derives from a page name when TYPE has 0x10000:
/// `page-` plus the page number plus `_tcmask.png`; a name not starting with `page-`
/// derives itself (a quirk of the game's code, kept).
pub(crate) fn derived_tcmask(page: &str) -> String {
    let Some(rest) = page
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("page-"))
        .and_then(|_| page.get(5..))
    else {
        return page.to_string();
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    format!("{}{}_tcmask.png", &page[..5], &rest[..digits])
}

/// The names of a directive's three tileset lines.
fn names(list: [Option<&header::TexName>; 3]) -> [Option<&str>; 3] {
    list.map(|t| t.map(|t| t.name.as_str()))
}

fn add_texture(list: &mut Vec<TextureRef>, role: TextureRole, name: &str, tileset: usize) -> usize {
    let slot = Some(tileset as u8);
    if let Some(i) = list
        .iter()
        .position(|t| t.role == role && t.tileset == slot && t.name == name)
    {
        return i;
    }
    list.push(TextureRef {
        role,
        name: name.to_string(),
        resolved: None,
        tileset: slot,
    });
    list.len() - 1
}

/// How a TYPE 0x20 level faces the camera, as the game draws such sprites: one lying in
/// XZ (thinner in Y than in Z) turns its +Y axis to the camera, as the projectile code
/// does with the flag (`renderProjectile`, `src/display3d.cpp`); one standing in XY
/// turns to the screen, as the effect code turns its sprites by the camera's yaw and
/// pitch (`src/effects.cpp`).
fn pitch_billboard(points: &[Vec3]) -> Billboard {
    let extent = |f: fn(&Vec3) -> f32| {
        let (lo, hi) = points
            .iter()
            .map(f)
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        (hi - lo).max(0.0)
    };
    if extent(|p| p.y) <= extent(|p| p.z) {
        Billboard::RollPitch
    } else {
        Billboard::Screen
    }
}

/// Fills the model.
pub(crate) fn build(
    header: Header,
    mut levels: Vec<Level>,
    warnings: Vec<Diagnostic>,
    tileset: Tileset,
) -> Model {
    let mut model = Model::new(Format::Pie, header.version.to_string());
    model.axes = crate::model::FileAxes::y_up_left_handed();
    model.grid_unit = Some(super::TILE);
    model.diagnostics = warnings;
    let global = &header.settings.textures;
    // Moved out so the levels' geometry can be moved into the meshes below.
    let settings: Vec<Settings> = levels
        .iter_mut()
        .map(|l| std::mem::take(&mut l.settings))
        .collect();
    let textures: Vec<_> = settings.iter().map(|s| s.textures.over(global)).collect();
    let ctx: Vec<LevelContext<'_>> = settings
        .iter()
        .zip(&textures)
        .map(|(l, t)| LevelContext {
            type_flags: l.type_flags.unwrap_or(header.type_flags),
            interpolate: l
                .interpolate
                .or(header.settings.interpolate)
                .unwrap_or(true),
            base_page: t.base[0].map(|n| n.name.as_str()),
        })
        .collect();
    if let Some(clip) = anim::clip(&levels, &ctx) {
        model.clips.push(clip);
    }
    model.events = header
        .events
        .iter()
        .map(|e| ModelEvent {
            kind: e.kind,
            file: e.file.clone(),
            resolved: None,
        })
        .collect();
    model.details = details(&header, &levels, &settings, &ctx);
    properties(&mut model, &header, &levels, &settings, &ctx);
    source_facts(&mut model, &header, &levels, &settings, &ctx);

    for (i, (level, tex)) in levels.iter_mut().zip(&textures).enumerate() {
        let type_flags = ctx[i].type_flags;
        let name = format!("level {}", level.number);
        let mut material = Material::new(name.clone(), [1.0; 4]);
        let mut texture = |role, slot: usize, name: Option<&str>| {
            name.map(|n| add_texture(&mut model.textures, role, n, slot))
        };
        // Every line the file writes, in its slot.
        let mut masks: [Option<String>; 3] = Default::default();
        for (slot, mask) in masks.iter_mut().enumerate() {
            texture(
                TextureRole::Base,
                slot,
                tex.base[slot].map(|t| t.name.as_str()),
            );
            *mask = match (tex.tcmask[slot], tex.base[slot]) {
                (Some(t), _) => Some(t.name.clone()),
                (None, Some(page)) if type_flags & header::TYPE_TCMASK != 0 => {
                    Some(derived_tcmask(&page.name))
                }
                _ => None,
            };
            texture(TextureRole::Tcmask, slot, mask.as_deref());
            texture(
                TextureRole::Normal,
                slot,
                tex.normal[slot].map(|t| t.name.as_str()),
            );
            texture(
                TextureRole::Specular,
                slot,
                tex.specular[slot].map(|t| t.name.as_str()),
            );
        }
        // What each tileset draws (its own line, else slot 0's, then the rules script's
        // page swap, listed under the tileset it is for); the material takes `tileset`'s.
        for ts in Tileset::ALL {
            let mut pick = |role, names: [Option<&str>; 3]| {
                tileset::pick(ts, role, names).map(|(name, slot)| {
                    let slot = if names[slot].is_some_and(|n| n != name) {
                        ts.slot()
                    } else {
                        slot
                    };
                    add_texture(&mut model.textures, role, &name, slot)
                })
            };
            let base = pick(TextureRole::Base, names(tex.base));
            let tcmask = pick(TextureRole::Tcmask, [0, 1, 2].map(|i| masks[i].as_deref()));
            let normal = pick(TextureRole::Normal, names(tex.normal));
            let specular = pick(TextureRole::Specular, names(tex.specular));
            if ts == tileset {
                material.base = base;
                material.tcmask = tcmask;
                material.normal = normal;
                material.specular = specular;
            }
        }
        material.blend = if type_flags & TYPE_PREMULTIPLIED != 0 {
            BlendMode::Premultiplied
        } else if type_flags & header::TYPE_ADDITIVE != 0 {
            BlendMode::Additive
        } else {
            // The game alpha-blends every model that is not additive or premultiplied:
            // trees, cacti and decals have cut-out texels on ordinary TYPE 200 pages and
            // helicopter rotor blurs are translucent (black cards otherwise).
            BlendMode::AlphaBlend
        };
        material.billboard = if type_flags & TYPE_PITCH != 0 {
            pitch_billboard(&level.points)
        } else if type_flags & TYPE_ROLL != 0 {
            Billboard::Roll
        } else {
            Billboard::None
        };
        model.materials.push(material);

        if header.version >= 3 && level.max_uv > 4.0 {
            model.diagnostics.push(Diagnostic::coded(
                "pie/uv-range",
                Location::Line(level.line),
                format!(
                    "level {}: UVs up to {}: PIE 2 texel units in a PIE {} file? (the game \
                     draws them wrong too)",
                    level.number, level.max_uv, header.version
                ),
            ));
        }
        model.source.meshes.push(MeshSource {
            start: Location::Line(level.line),
            points: level
                .point_lines
                .iter()
                .map(|&l| Location::Line(l))
                .collect(),
            polygons: level
                .polygon_lines
                .iter()
                .map(|&l| Location::Line(l))
                .collect(),
            triangle_polygon: std::mem::take(&mut level.triangle_polygon),
        });
        model.source.notes.append(&mut level.notes);
        let triangles = (level.corners.len() / 3) as u32;
        let mut points = std::mem::take(&mut level.points);
        for p in &mut points {
            p.x = -p.x;
        }
        let mut corners = std::mem::take(&mut level.corners);
        for tri in corners.chunks_exact_mut(3) {
            tri.swap(1, 2);
        }
        for c in &mut corners {
            if let Some(n) = &mut c.normal {
                n.x = -n.x;
            }
        }
        model.meshes.push(Mesh {
            name: name.clone(),
            points,
            corners,
            submeshes: if triangles > 0 {
                vec![Submesh {
                    first_triangle: 0,
                    triangle_count: triangles,
                    material: i,
                }]
            } else {
                Vec::new()
            },
            uv_sets: u8::from(level.textured),
            ..Mesh::default()
        });
        let mut node = Node::new(name, None, NodeKind::Level);
        node.mesh = Some(i);
        model.nodes.push(node);

        for raw in &level.connectors {
            let [x, y, z] = raw.map(f32::trunc);
            model.connectors.push(Connector {
                node: i,
                raw: *raw,
                position: Vec3::new(-x, z, y),
            });
        }
        if let Some(s) = level.shadow.take() {
            model.shadow_meshes.push(ShadowMesh {
                node: i,
                points: s.points.iter().map(|p| Vec3::new(-p.x, p.y, p.z)).collect(),
                triangles: s.triangles.iter().map(|&[a, b, c]| [a, c, b]).collect(),
            });
        }
    }
    model
}

/// Texture directive lines, `TCMASK` without the team-colour flag, and an `INTERPOLATE`
/// that nothing uses, for `vitrine check`.
fn source_facts(
    model: &mut Model,
    header: &Header,
    levels: &[Level],
    settings: &[Settings],
    ctx: &[LevelContext<'_>],
) {
    let sets = std::iter::once((&header.settings.textures, header.type_flags)).chain(
        settings
            .iter()
            .zip(ctx)
            .map(|(s, c)| (&s.textures, c.type_flags)),
    );
    for (set, type_flags) in sets {
        for list in [&set.base, &set.tcmask, &set.normal, &set.specular] {
            for t in list.iter().flatten() {
                model.source.textures.push(TextureLine {
                    name: t.name.clone(),
                    location: Location::Line(t.line),
                });
            }
        }
        for t in set.tcmask.iter().flatten() {
            if type_flags & header::TYPE_TCMASK == 0 {
                model.diagnostics.push(Diagnostic::coded(
                    "pie/tcmask-flag",
                    Location::Line(t.line),
                    format!(
                        "TCMASK {} is given, but TYPE 0x{type_flags:x} lacks 0x10000: the game \
                         draws no team colour",
                        t.name
                    ),
                ));
            }
        }
    }
    let interpolate_line = std::iter::once(&header.settings)
        .chain(settings)
        .find(|s| s.interpolate.is_some())
        .map(|s| s.interpolate_line);
    let animated = levels.iter().any(|l| l.anim.is_some());
    if let Some(line) = interpolate_line
        && !animated
    {
        model.source.notes.push(Diagnostic::coded(
            "pie/interpolate-unused",
            Location::Line(line),
            "INTERPOLATE is set, but no level has an ANIMOBJECT for it to act on",
        ));
    }
}

/// The `"pie"` object of `info --json`; also what the glTF export carries for the way
/// back to PIE (TYPE flags, INTERPOLATE, per-level flags, ANIMOBJECT timing, texture
/// animation).
fn details(
    header: &Header,
    levels: &[Level],
    settings: &[Settings],
    ctx: &[LevelContext<'_>],
) -> Details {
    let levels = levels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let shadow = l.shadow.as_ref();
            let own = settings.get(i);
            PieLevel {
                points: l.points.len(),
                triangles: l.corners.len() / 3,
                connectors: l.connectors.len(),
                animation: l.anim.as_ref().map(|a| PieAnimation {
                    frames: a.frames.len(),
                    ms_per_frame: a.time.into(),
                    cycles: a.cycles,
                }),
                shadow_points: shadow.map_or(0, |s| s.points.len()),
                shadow_triangles: shadow.map_or(0, |s| s.triangles.len()),
                type_flags: own.and_then(|s| s.type_flags).map(|t| format!("0x{t:x}")),
                interpolate: own.and_then(|s| s.interpolate),
                texture_animation: l.tex_anim.as_ref().map(|t| PieTextureAnimation {
                    frames: t.frames,
                    ms_per_frame: t.ms_per_frame.into(),
                    width: t.size.x.into(),
                    height: t.size.y.into(),
                    team_colour: ctx
                        .get(i)
                        .is_some_and(|c| anim::is_team_colour(t.frames, c)),
                }),
            }
        })
        .collect();
    let events = header
        .events
        .iter()
        .map(|e| PieEvent {
            kind: e.kind,
            file: e.file.clone(),
        })
        .collect();
    Details::Pie(PieDetails {
        type_flags: format!("0x{:x}", header.type_flags),
        interpolate: header.settings.interpolate,
        events,
        levels,
    })
}

fn texture_properties(model: &mut Model, prefix: &str, set: &header::TextureSet, type_flags: u32) {
    if set.notexture {
        model.property(format!("{prefix}Texture"), "none (NOTEXTURE: drawn white)");
    }
    const KEYS: [[&str; 3]; 4] = [
        ["Texture (arizona)", "Texture (urban)", "Texture (rockies)"],
        [
            "Team-colour mask (arizona)",
            "Team-colour mask (urban)",
            "Team-colour mask (rockies)",
        ],
        [
            "Normal map (arizona)",
            "Normal map (urban)",
            "Normal map (rockies)",
        ],
        [
            "Specular map (arizona)",
            "Specular map (urban)",
            "Specular map (rockies)",
        ],
    ];
    let key = |kind: usize, slot: usize| {
        if prefix.is_empty() {
            KEYS[kind][slot].to_string()
        } else {
            format!("{prefix}{}", KEYS[kind][slot])
        }
    };
    for slot in 0..TILESETS.len() {
        if let Some(t) = &set.base[slot] {
            model.property(key(0, slot), t.name.clone());
        }
        if let Some(t) = &set.tcmask[slot] {
            model.property(key(1, slot), format!("{} (TCMASK)", t.name));
        } else if type_flags & header::TYPE_TCMASK != 0
            && let Some(t) = &set.base[slot]
        {
            model.property(
                key(1, slot),
                format!("{} (derived: TYPE has 0x10000)", derived_tcmask(&t.name)),
            );
        }
        if let Some(t) = &set.normal[slot] {
            model.property(key(2, slot), t.name.clone());
        }
        if let Some(t) = &set.specular[slot] {
            model.property(key(3, slot), t.name.clone());
        }
    }
}

/// Panel lines.
fn properties(
    model: &mut Model,
    header: &Header,
    levels: &[Level],
    settings: &[Settings],
    ctx: &[LevelContext<'_>],
) {
    model.property("Type flags", header::describe_type(header.type_flags));
    // INTERPOLATE only matters to ANIMOBJECT; a static model lists it only if written.
    let animated = levels.iter().any(|l| l.anim.is_some());
    if animated || header.settings.interpolate.is_some() {
        model.property(
            "Interpolate",
            match header.settings.interpolate {
                Some(true) => "on: translation and rotation blend between frames",
                Some(false) => "off: each frame is held",
                None => "on (default): translation and rotation blend between frames",
            },
        );
    }
    texture_properties(model, "", &header.settings.textures, header.type_flags);
    for e in &header.events {
        let kind = ModelEvent {
            kind: e.kind,
            file: String::new(),
            resolved: None,
        }
        .kind_name();
        model.property(format!("Event {} ({kind})", e.kind), e.file.clone());
    }
    for ((l, c), own) in levels.iter().zip(ctx).zip(settings) {
        let n = l.number;
        let mut s = format!(
            "{} points, {} triangles from {} polygons",
            l.points.len(),
            l.corners.len() / 3,
            l.polygons
        );
        if !l.connectors.is_empty() {
            let _ = write!(s, ", {} connectors", l.connectors.len());
        }
        if l.corners.iter().any(|c| c.normal.is_some()) {
            s += ", authored normals";
        }
        if let Some(t) = &l.tex_anim {
            let _ = write!(
                s,
                ", texture animation {} frames × {} ms ({} × {} UV){}",
                t.frames,
                t.ms_per_frame,
                t.size.x,
                t.size.y,
                if anim::is_team_colour(t.frames, c) {
                    ", legacy team colours"
                } else {
                    ""
                }
            );
        }
        if let Some(a) = &l.anim {
            let hidden = a.frames.iter().filter(|f| anim::hidden(f)).count();
            let _ = write!(
                s,
                ", ANIMOBJECT {} frames × {} ms, {}",
                a.frames.len(),
                a.time,
                if a.cycles == 0 {
                    "loops".to_string()
                } else {
                    format!("{} cycles", a.cycles)
                }
            );
            if hidden > 0 {
                let _ = write!(s, " ({hidden} hidden frames)");
            }
        }
        if let Some(sh) = &l.shadow {
            let _ = write!(
                s,
                ", shadow mesh {} points / {} triangles",
                sh.points.len(),
                sh.triangles.len()
            );
        }
        model.property(format!("Level {n}"), s);
        if let Some(t) = own.type_flags {
            model.property(format!("Level {n} type flags"), header::describe_type(t));
        }
        if let Some(i) = own.interpolate {
            model.property(
                format!("Level {n} interpolate"),
                if i { "on" } else { "off" },
            );
        }
        if !own.textures.is_empty() {
            texture_properties(model, &format!("Level {n} "), &own.textures, c.type_flags);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcmask_names_are_derived_like_the_game() {
        let cases = [
            ("page-17-droid-weapons.png", "page-17_tcmask.png"),
            ("page-12.png", "page-12_tcmask.png"),
            ("Page-7-barbarians.png", "Page-7_tcmask.png"),
            ("helirotor.png", "helirotor.png"),
            ("pag", "pag"),
            ("", ""),
        ];
        for (page, want) in cases {
            assert_eq!(derived_tcmask(page), want, "{page}");
        }
    }

    #[test]
    fn numbers_print_as_integers_when_whole() {
        let json = |v: f32| serde_json::to_string(&crate::model::details::PieNumber::from(v));
        assert_eq!(json(80.0).ok().as_deref(), Some("80"));
        assert_eq!(json(62.5).ok().as_deref(), Some("62.5"));
    }

    #[test]
    fn pie_models_are_laid_out_on_the_map_tile_grid() {
        let pie = "PIE 3\nTYPE 200\nTEXTURE 0 page-7.png 256 256\nLEVELS 1\nLEVEL 1\n\
                   POINTS 3\n 0 0 0\n 10 0 0\n 0 10 0\n\
                   POLYGONS 1\n 200 3 0 1 2 0 0 0 0 0 0\n";
        let model = super::super::parse(pie.as_bytes()).map_err(|e| e.to_string());
        assert_eq!(model.map(|m| m.grid_unit), Ok(Some(super::super::TILE)));
    }
}
