//! TYPE flags, INTERPOLATE, texture lines and events: per level from the materials and
//! the animation, then the header (level 1's, or the PIE file's own TYPE), with PIE 4
//! per-level overrides where a level differs (warnings in PIE 3, which has none).

use super::levels::Level;
use super::{PLACEHOLDER_PAGE, PieOptions, PieVersion};
use crate::formats::pie::build::derived_tcmask;
use crate::formats::pie::header::{
    TYPE_ADDITIVE, TYPE_PITCH, TYPE_PREMULTIPLIED, TYPE_ROLL, TYPE_TCMASK, TYPE_TEXTURED,
};
use crate::model::{Billboard, BlendMode, Format, Material, Model, TextureRole};

/// Texture lines per tileset slot.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Textures {
    /// `TEXTURE`.
    pub base: [Option<String>; 3],
    /// `TCMASK` (PIE 4).
    pub tcmask: [Option<String>; 3],
    /// `NORMALMAP`.
    pub normal: [Option<String>; 3],
    /// `SPECULARMAP`.
    pub specular: [Option<String>; 3],
}

/// What the header sets and a PIE 4 level may override.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// TYPE.
    pub type_flags: u32,
    /// INTERPOLATE (written only when off).
    pub interpolate: bool,
    /// Texture lines.
    pub textures: Textures,
}

/// The global part and the levels' overrides.
#[derive(Debug, Clone)]
pub struct Header {
    /// Global settings.
    pub settings: Settings,
    /// `EVENT` lines.
    pub events: Vec<(u32, String)>,
    /// Per level: its settings when they differ from the header's (PIE 4 only).
    pub overrides: Vec<Option<Settings>>,
    /// Whether `INTERPOLATE 1` is written: the PIE the model came from said it (the
    /// default, so only to keep the file's facts).
    pub interpolate_line: bool,
    /// A `#` comment (PIE 4).
    pub comment: Option<String>,
    /// Model texture index → the page name the game loads for it from this file.
    pub pages: Vec<(usize, String)>,
}

const BLEND_BITS: u32 = TYPE_ADDITIVE | TYPE_PREMULTIPLIED;
const FACING_BITS: u32 = TYPE_ROLL | TYPE_PITCH;

/// The TYPE bits a material says (blending, camera facing, team colour).
fn material_bits(m: &Material) -> u32 {
    let blend = match m.blend {
        BlendMode::Premultiplied => TYPE_PREMULTIPLIED,
        BlendMode::Additive => TYPE_ADDITIVE,
        _ => 0,
    };
    let facing = match m.billboard {
        Billboard::RollPitch | Billboard::Screen => TYPE_PITCH,
        Billboard::Roll => TYPE_ROLL,
        Billboard::None => 0,
    };
    blend | facing | if m.tcmask.is_some() { TYPE_TCMASK } else { 0 }
}

/// The blend and facing the loader makes of `flags` (0x4 wins over 0x2, 0x20 over 0x10).
fn class(flags: u32) -> (u32, u32) {
    let blend = if flags & TYPE_PREMULTIPLIED != 0 {
        TYPE_PREMULTIPLIED
    } else {
        flags & TYPE_ADDITIVE
    };
    let facing = if flags & TYPE_PITCH != 0 {
        TYPE_PITCH
    } else {
        flags & TYPE_ROLL
    };
    (blend, facing)
}

/// A level's TYPE: for a PIE model its file's flags, changed only where the level's
/// material draws otherwise; else the material's bits and 0x200.
fn type_flags(global: Option<u32>, material: Option<&Material>) -> u32 {
    let bits = material.map_or(0, material_bits);
    match global {
        Some(g) if class(g) == class(bits) => g,
        Some(g) => (g & !(BLEND_BITS | FACING_BITS)) | (bits & (BLEND_BITS | FACING_BITS)),
        None => TYPE_TEXTURED | bits,
    }
}

/// A page name the game accepts, made from another format's texture name: the file
/// name's stem, characters outside `[A-Za-z0-9._-]` as `_`, ending `.png`.
pub fn page_name(name: &str) -> String {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{}.png", if clean.is_empty() { "texture" } else { &clean })
}

/// The header and the overrides of `levels`.
pub fn header(
    model: &Model,
    levels: &[Level],
    options: &PieOptions,
    warnings: &mut Vec<String>,
) -> Header {
    let pie = model.units_format() == Format::Pie;
    // A PIE's own TYPE, or the one a glTF export of a PIE carries back.
    let global_type = model
        .details
        .pie()
        .and_then(|d| u32::from_str_radix(d.type_flags.trim_start_matches("0x"), 16).ok());
    let name = |i: Option<usize>| {
        i.and_then(|i| model.textures.get(i))
            .map(|t| t.name.clone())
    };
    let mut renamed: Vec<(String, String)> = Vec::new();
    let mut placeholder = false;
    let mut pages: Vec<(usize, String)> = Vec::new();
    let mut page = |i: Option<usize>, name: &str| {
        if let Some(i) = i
            && !pages.iter().any(|(j, _)| *j == i)
        {
            pages.push((i, name.to_string()));
        }
    };
    let per_level: Vec<Settings> = levels
        .iter()
        .map(|level| {
            let material = level.material.and_then(|m| model.materials.get(m));
            // A PIE 4 level's own TYPE, as its file (or a glTF export of it) says.
            let own = source_level(model, level.node);
            let flags = own
                .and_then(|l| l.type_flags.as_deref())
                .and_then(|f| u32::from_str_radix(f.trim_start_matches("0x"), 16).ok())
                .unwrap_or_else(|| type_flags(global_type, material));
            let mut t = Textures::default();
            let original = material.and_then(|m| name(m.base));
            let mut base = original.clone();
            if !pie && let Some(b) = &base {
                let page = page_name(b);
                if page != *b
                    && options.texture.is_none()
                    && !renamed.iter().any(|(from, _)| from == b)
                {
                    renamed.push((b.clone(), page.clone()));
                }
                base = Some(page);
            }
            if let Some(page) = &options.texture {
                base = Some(page.clone());
            }
            let base = base.unwrap_or_else(|| {
                placeholder = true;
                PLACEHOLDER_PAGE.to_string()
            });
            let mask = material.and_then(|m| name(m.tcmask)).map(|mask| {
                // A mask derived from the old page name follows a renamed page.
                match &original {
                    Some(o) if derived_tcmask(o) == mask || !pie => derived_tcmask(&base),
                    _ => mask,
                }
            });
            if let Some(m) = material {
                if original.is_some() {
                    page(m.base, &base);
                }
                // PIE 3 names no mask: the game loads the one derived from the page.
                let loaded = match options.version {
                    PieVersion::V3 => Some(derived_tcmask(&base)),
                    PieVersion::V4 => mask.clone(),
                };
                if let Some(l) = loaded.filter(|l| *l != base) {
                    page(m.tcmask, &l);
                }
            }
            t.tcmask[0] = mask;
            t.base[0] = Some(base);
            let other = |i: Option<usize>| name(i).map(|n| if pie { n } else { page_name(&n) });
            t.normal[0] = material.and_then(|m| other(m.normal));
            t.specular[0] = material.and_then(|m| other(m.specular));
            for (i, n) in [
                (material.and_then(|m| m.normal), &t.normal[0]),
                (material.and_then(|m| m.specular), &t.specular[0]),
            ] {
                if let Some(n) = n {
                    page(i, n);
                }
            }
            if pie {
                tileset_lines(model, &mut t);
            }
            Settings {
                type_flags: flags,
                // A static level interpolates unless its file said INTERPOLATE 0.
                interpolate: match &level.anim {
                    None => own.and_then(|l| l.interpolate).unwrap_or(true),
                    Some(_) => level.interpolate,
                },
                textures: t,
            }
        })
        .collect();
    for (from, to) in renamed {
        warnings.push(format!(
            "texture {from:?} is named {to} (the game reads PNG pages named [A-Za-z0-9._-]); \
             put the image there as a PNG under texpages/"
        ));
    }
    if placeholder {
        warnings.push(format!(
            "no texture: TEXTURE names {PLACEHOLDER_PAGE}; name the real page with --texture"
        ));
    }
    let first_animated = levels.iter().position(|l| l.anim.is_some()).unwrap_or(0);
    let mut settings = per_level[0].clone();
    settings.interpolate = per_level[first_animated].interpolate;
    if let Some(g) = global_type {
        settings.type_flags = g;
    }
    if options.version == PieVersion::V3 {
        v3_masks(&mut settings, warnings);
        for (i, s) in per_level.iter().enumerate() {
            let animated = levels[i].anim.is_some();
            let differs = s.type_flags != settings.type_flags
                || (animated && s.interpolate != settings.interpolate)
                || s.textures.base != settings.textures.base
                || s.textures.normal != settings.textures.normal
                || s.textures.specular != settings.textures.specular;
            if differs {
                warnings.push(format!(
                    "level {}: its TYPE, INTERPOLATE or texture differs from the header's; \
                     PIE 3 has no per-level settings, so the header's apply (write --pie 4 \
                     to keep them)",
                    i + 1
                ));
            }
        }
        let dropped = settings.textures.base[1..].iter().any(Option::is_some);
        if dropped {
            warnings.push("tileset TEXTURE lines 1 and 2 dropped: PIE 3 has one page".into());
        }
        for list in [
            &mut settings.textures.base,
            &mut settings.textures.normal,
            &mut settings.textures.specular,
        ] {
            list[1] = None;
            list[2] = None;
        }
        return Header {
            interpolate_line: interpolate_line(model, &settings),
            settings,
            events: events(model),
            overrides: vec![None; levels.len()],
            comment: None,
            pages,
        };
    }
    let overrides = per_level
        .into_iter()
        .zip(levels)
        .map(|(mut s, level)| {
            let stated = source_level(model, level.node).is_some_and(|l| l.interpolate.is_some());
            if level.anim.is_none() && !stated {
                s.interpolate = settings.interpolate;
            }
            (s != settings).then_some(s)
        })
        .collect();
    Header {
        interpolate_line: interpolate_line(model, &settings),
        settings,
        events: events(model),
        overrides,
        comment: options.comment.clone(),
        pages,
    }
}

/// The PIE facts of the level node `node` became (a PIE's, or a glTF export's of one;
/// `None` when the nodes are not the PIE's levels one for one).
fn source_level(model: &Model, node: usize) -> Option<&crate::model::details::PieLevel> {
    model
        .details
        .pie()
        .filter(|d| d.levels.len() == model.nodes.len())
        .and_then(|d| d.levels.get(node))
}

/// Whether the source PIE wrote `INTERPOLATE 1` and the header still interpolates.
fn interpolate_line(model: &Model, settings: &Settings) -> bool {
    settings.interpolate
        && model
            .details
            .pie()
            .is_some_and(|d| d.interpolate == Some(true))
}

/// PIE 3 names no mask: the game derives `page-NN_tcmask.png` from the page when TYPE
/// has 0x10000.
fn v3_masks(settings: &mut Settings, warnings: &mut Vec<String>) {
    let Some(mask) = settings.textures.tcmask[0].take() else {
        return;
    };
    let base = settings.textures.base[0].clone().unwrap_or_default();
    if settings.type_flags & TYPE_TCMASK == 0 {
        warnings.push(format!(
            "team-colour mask {mask} dropped: the model's TYPE has no 0x10000 (PIE 3 cannot \
             name a mask)"
        ));
    } else if derived_tcmask(&base) != mask {
        warnings.push(format!(
            "team-colour mask {mask}: PIE 3 cannot name a mask; the game loads {} (derived \
             from {base}); write --pie 4 for a TCMASK line",
            derived_tcmask(&base)
        ));
    }
}

/// A PIE file's own tileset 1 / 2 lines (names its texture directives wrote).
fn tileset_lines(model: &Model, t: &mut Textures) {
    for tex in &model.textures {
        let Some(slot @ 1..=2) = tex.tileset.map(usize::from) else {
            continue;
        };
        if !model.source.textures.iter().any(|l| l.name == tex.name) {
            continue;
        }
        let list = match tex.role {
            TextureRole::Base => &mut t.base,
            TextureRole::Tcmask => &mut t.tcmask,
            TextureRole::Normal => &mut t.normal,
            TextureRole::Specular => &mut t.specular,
            _ => continue,
        };
        list[slot].get_or_insert_with(|| tex.name.clone());
    }
}

fn events(model: &Model) -> Vec<(u32, String)> {
    model
        .events
        .iter()
        .map(|e| {
            let file = if model.units_format() == Format::Pie {
                e.file.clone()
            } else {
                page_name(&e.file).replace(".png", ".pie")
            };
            (e.kind, file)
        })
        .collect()
}
