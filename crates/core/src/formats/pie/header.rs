//! The PIE header (`PIE`, `TYPE`, `INTERPOLATE`, texture lines, `EVENT`, `LEVELS`) and
//! the settings a PIE 4 level may override (`TYPE`, `INTERPOLATE`, texture lines).
//!
//! Rules (from the game's loader, `lib/ivis_opengl/imdload.cpp` of Warzone 2100): the
//! first token is `PIE`, the version 2, 3 or 4; `TYPE` is required; texture lines may
//! come in any order and name a tileset slot 0–2; `MATERIALS`/`SHADERS` are read and
//! ignored with a warning.
//! Not enforced: the PIE 2/3 order of the optional lines (the game does not check it
//! either). `TCMASK` and level overrides in a PIE 2/3 file are applied with a warning
//! (the game accepts them only in PIE 4).

use super::tokens::{Token, Tokens, error, parse_f32};
use crate::formats::{ErrorKind, LoadError};
use crate::model::{Diagnostic, Location};

/// TYPE bit: no additive blending.
pub(crate) const TYPE_NO_ADDITIVE: u32 = 0x1;
/// TYPE bit: additive blending.
pub(crate) const TYPE_ADDITIVE: u32 = 0x2;
/// TYPE bit: premultiplied alpha (implies additive).
pub(crate) const TYPE_PREMULTIPLIED: u32 = 0x4;
/// TYPE bit: roll to face the camera.
pub(crate) const TYPE_ROLL: u32 = 0x10;
/// TYPE bit: pitch (and roll) to face the camera.
pub(crate) const TYPE_PITCH: u32 = 0x20;
/// TYPE bit: legacy "textured", always set.
pub(crate) const TYPE_TEXTURED: u32 = 0x200;
/// TYPE bit: do not stretch to the terrain.
pub(crate) const TYPE_NO_STRETCH: u32 = 0x1000;
/// TYPE bit: use a team-colour mask.
pub(crate) const TYPE_TCMASK: u32 = 0x10000;

const TYPE_NAMES: &[(u32, &str)] = &[
    (TYPE_NO_ADDITIVE, "no additive blending"),
    (TYPE_ADDITIVE, "additive"),
    (TYPE_PREMULTIPLIED, "premultiplied alpha"),
    (TYPE_ROLL, "roll to camera"),
    (TYPE_PITCH, "pitch to camera"),
    (TYPE_TEXTURED, "textured"),
    (TYPE_NO_STRETCH, "no terrain stretch"),
    (TYPE_TCMASK, "team-colour mask"),
];

/// `0x10200 (textured, team-colour mask)`: TYPE flags by name; unknown bits in hex.
pub(crate) fn describe_type(flags: u32) -> String {
    use std::fmt::Write;
    let mut s = format!("0x{flags:x}");
    let mut sep = " (";
    for (bit, name) in TYPE_NAMES {
        if flags & bit != 0 {
            s.push_str(sep);
            s.push_str(name);
            sep = ", ";
        }
    }
    let known: u32 = TYPE_NAMES.iter().map(|(b, _)| b).sum();
    if flags & !known != 0 {
        let _ = write!(s, "{sep}unknown 0x{:x}", flags & !known);
        sep = ", ";
    }
    if sep == ", " {
        s.push(')');
    }
    s
}

/// Tileset slot names, by index.
pub(crate) const TILESETS: [&str; 3] = ["arizona", "urban", "rockies"];

/// A file named by a texture-like directive, and the line that named it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TexName {
    /// The name as written (legacy names with a space joined by one space).
    pub name: String,
    /// Line of the directive.
    pub line: u32,
}

/// The pages a model or a level names, per tileset slot (0 arizona, 1 urban, 2 rockies).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TextureSet {
    /// `TEXTURE`.
    pub base: [Option<TexName>; 3],
    /// `TCMASK`.
    pub tcmask: [Option<TexName>; 3],
    /// `NORMALMAP`.
    pub normal: [Option<TexName>; 3],
    /// `SPECULARMAP`.
    pub specular: [Option<TexName>; 3],
    /// `NOTEXTURE` was given (legacy: the model is drawn untextured, white).
    pub notexture: bool,
}

/// A level's effective texture lines: its own, else the header's (borrowed).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Effective<'a> {
    /// `TEXTURE` per slot.
    pub base: [Option<&'a TexName>; 3],
    /// `TCMASK` per slot.
    pub tcmask: [Option<&'a TexName>; 3],
    /// `NORMALMAP` per slot.
    pub normal: [Option<&'a TexName>; 3],
    /// `SPECULARMAP` per slot.
    pub specular: [Option<&'a TexName>; 3],
    /// `NOTEXTURE` is in force.
    pub notexture: bool,
}

impl TextureSet {
    /// This level's set with every slot it leaves empty taken from `global`.
    pub fn over<'a>(&'a self, global: &'a TextureSet) -> Effective<'a> {
        fn pick<'a>(
            own: &'a [Option<TexName>; 3],
            g: &'a [Option<TexName>; 3],
        ) -> [Option<&'a TexName>; 3] {
            std::array::from_fn(|i| own[i].as_ref().or(g[i].as_ref()))
        }
        let notexture =
            self.notexture || (global.notexture && self.base.iter().all(Option::is_none));
        Effective {
            base: if self.notexture {
                [None; 3]
            } else {
                pick(&self.base, &global.base)
            },
            tcmask: pick(&self.tcmask, &global.tcmask),
            normal: pick(&self.normal, &global.normal),
            specular: pick(&self.specular, &global.specular),
            notexture,
        }
    }

    /// Whether no directive set anything.
    pub fn is_empty(&self) -> bool {
        *self == TextureSet::default()
    }
}

/// Directives shared by the header and (PIE 4) the top of a level.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// `TYPE` flags.
    pub type_flags: Option<u32>,
    /// `INTERPOLATE` (n > 0 = on).
    pub interpolate: Option<bool>,
    /// Line of `INTERPOLATE` (0 when absent).
    pub(crate) interpolate_line: u32,
    /// Texture lines.
    pub(crate) textures: TextureSet,
}

/// An `EVENT type file` line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EventLine {
    /// 1 active, 2 firing, 3 dying.
    pub kind: u32,
    /// Model file name.
    pub file: String,
}

/// The global part of a PIE file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Header {
    /// 2, 3 or 4.
    pub version: u32,
    /// TYPE flags (required).
    pub type_flags: u32,
    /// Everything else the header set.
    pub settings: Settings,
    /// `EVENT` lines in order.
    pub events: Vec<EventLine>,
    /// `LEVELS n`.
    pub levels: u32,
    /// Line of `LEVELS`.
    pub(crate) levels_line: u32,
}

fn warn(warnings: &mut Vec<Diagnostic>, line: u32, message: impl Into<String>) {
    warnings.push(Diagnostic::warning(Location::Line(line), message));
}

/// Reads the header up to and including `LEVELS n`.
pub(crate) fn parse_header(
    toks: &mut Tokens<'_>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Header, LoadError> {
    let Some(first) = toks.next_token() else {
        return Err(error(
            ErrorKind::EmptyFile,
            1,
            "the file holds only blanks or comments",
        ));
    };
    if !first.is("PIE") {
        return Err(error(
            ErrorKind::BadMagic,
            first.line,
            format!("not a PIE file: it starts with {}, not PIE", first.show()),
        ));
    }
    let version_line = toks.peek().map_or(first.line, |t| t.line);
    let version = toks.uint(|| "the PIE version".into())?;
    if !(2..=4).contains(&version) {
        return Err(error(
            ErrorKind::UnsupportedVersion,
            version_line,
            format!("PIE version {version} is not supported (only 2, 3 and 4)"),
        )
        .with_rule("pie/version"));
    }
    let mut settings = Settings::default();
    let mut events = Vec::new();
    loop {
        let t = toks.next_token().ok_or_else(|| {
            error(
                ErrorKind::Missing,
                toks.line(),
                "file ends in the header: LEVELS is missing",
            )
        })?;
        if setting(toks, t, version, false, &mut settings, warnings)? {
            continue;
        }
        if t.is("EVENT") {
            let kind = toks.uint(|| "EVENT type".into())?;
            let file = toks.expect(|| "EVENT file name".into())?;
            if !(1..=3).contains(&kind) {
                warnings.push(Diagnostic {
                    rule: (kind >= 4).then_some("pie/event-type"),
                    ..Diagnostic::warning(
                        Location::Line(t.line),
                        format!("EVENT type {kind} is unknown (1 active, 2 firing, 3 dying)"),
                    )
                });
            }
            if events.len() < 64 {
                events.push(EventLine {
                    kind,
                    file: String::from_utf8_lossy(file.text).into_owned(),
                });
            }
        } else if t.is("LEVELS") {
            let levels = toks.uint(|| "LEVELS count".into())?;
            let Some(type_flags) = settings.type_flags else {
                return Err(error(
                    ErrorKind::Missing,
                    t.line,
                    "TYPE is missing (it must come before LEVELS)",
                ));
            };
            if levels == 0 {
                warn(warnings, t.line, "LEVELS 0: the model has no meshes");
            }
            return Ok(Header {
                version,
                type_flags,
                settings,
                events,
                levels,
                levels_line: t.line,
            });
        } else if ignored(toks, t, warnings) {
            // The 4.3.3 loader expects LEVELS here and gives the model up.
            if let Some(w) = warnings.last_mut() {
                w.rule = Some("pie/header-directive");
                w.message = format!(
                    "{} before LEVELS: the 4.3.3 loader gives the model up (newer ones skip it)",
                    t.show()
                );
            }
            continue;
        } else {
            return Err(error(
                ErrorKind::Syntax,
                t.line,
                format!(
                    "unexpected {} in the header (expected TYPE, INTERPOLATE, TEXTURE, \
                     TCMASK, NORMALMAP, SPECULARMAP, EVENT or LEVELS)",
                    t.show()
                ),
            ));
        }
    }
}

/// `MATERIALS` (10 numbers) and `SHADERS` (rest of the line): skipped with a warning.
/// Returns whether `t` was one of them.
pub fn ignored(toks: &mut Tokens<'_>, t: Token<'_>, warnings: &mut Vec<Diagnostic>) -> bool {
    if t.is("MATERIALS") {
        let mut n = 0;
        while n < 10 && toks.peek().is_some_and(|x| parse_f32(x.text).is_some()) {
            toks.next_token();
            n += 1;
        }
        warnings.push(Diagnostic::coded(
            "pie/ignored-directive",
            Location::Line(t.line),
            "MATERIALS ignored (the game ignores it too)",
        ));
        true
    } else if t.is("SHADERS") {
        toks.skip_line(t.line);
        warnings.push(Diagnostic::coded(
            "pie/ignored-directive",
            Location::Line(t.line),
            "SHADERS ignored (the game ignores it too)",
        ));
        true
    } else {
        false
    }
}

/// If `t` is TYPE, INTERPOLATE or a texture line, reads it into `settings` and returns
/// `true`. `in_level` marks a PIE 4 per-level override.
pub fn setting(
    toks: &mut Tokens<'_>,
    t: Token<'_>,
    version: u32,
    in_level: bool,
    settings: &mut Settings,
    warnings: &mut Vec<Diagnostic>,
) -> Result<bool, LoadError> {
    let pie4_only = |what: &str, warnings: &mut Vec<Diagnostic>| {
        if version < 4 {
            warnings.push(Diagnostic::coded(
                "pie/pie4-feature",
                Location::Line(t.line),
                format!("{what} is a PIE 4 feature; this file says PIE {version} (applied anyway)"),
            ));
        }
    };
    if t.is("TYPE") {
        settings.type_flags = Some(toks.hex(|| "TYPE flags".into())?);
        if in_level {
            pie4_only("TYPE inside a level", warnings);
        }
    } else if t.is("INTERPOLATE") {
        settings.interpolate = Some(toks.int(|| "INTERPOLATE value".into())? > 0);
        settings.interpolate_line = t.line;
        if in_level {
            pie4_only("INTERPOLATE inside a level", warnings);
        }
    } else if t.is("TEXTURE") || t.is("NOTEXTURE") {
        texture_line(toks, t, version, &mut settings.textures, warnings)?;
        if in_level {
            pie4_only("TEXTURE inside a level", warnings);
        }
    } else if t.is("TCMASK") || t.is("NORMALMAP") || t.is("SPECULARMAP") {
        let slot = tileset(toks, t, version, warnings)?;
        let name = file_name(toks, t)?;
        check_png(&name, t, version, warnings);
        let set = &mut settings.textures;
        let target = if t.is("TCMASK") {
            pie4_only("TCMASK", warnings);
            &mut set.tcmask
        } else if t.is("NORMALMAP") {
            &mut set.normal
        } else {
            &mut set.specular
        };
        target[slot] = Some(TexName { name, line: t.line });
        if in_level && !t.is("TCMASK") {
            pie4_only("a texture line inside a level", warnings);
        }
    } else {
        return Ok(false);
    }
    Ok(true)
}

fn tileset(
    toks: &mut Tokens<'_>,
    t: Token<'_>,
    version: u32,
    warnings: &mut Vec<Diagnostic>,
) -> Result<usize, LoadError> {
    let line = toks.peek().map_or(t.line, |x| x.line);
    let what = String::from_utf8_lossy(t.text).into_owned();
    let slot = toks.uint(|| format!("{what} tileset"))?;
    if slot > 2 && version < 4 {
        // PIE 2/3 loaders ignore the number.
        warnings.push(Diagnostic::coded(
            "pie/tileset-ignored",
            Location::Line(line),
            format!("{what} tileset {slot}: PIE {version} ignores it (tileset 0 used)"),
        ));
        return Ok(0);
    }
    if slot > 2 {
        return Err(error(
            ErrorKind::Invalid,
            line,
            format!("{what} tileset {slot}: must be 0 (arizona), 1 (urban) or 2 (rockies)"),
        )
        .with_rule("pie/tileset"));
    }
    Ok(slot as usize)
}

/// The file name after a texture directive. Legacy names may contain spaces (the old
/// loader copied up to the `.`): while the name has no `.`, following words on the same
/// line that are not numbers are joined to it with one space.
fn file_name(toks: &mut Tokens<'_>, t: Token<'_>) -> Result<String, LoadError> {
    let what = String::from_utf8_lossy(t.text).into_owned();
    let first = toks.expect(|| format!("{what} file name"))?;
    let mut name = String::from_utf8_lossy(first.text).into_owned();
    while !name.contains('.')
        && name.len() < 256
        && let Some(next) = toks.peek()
        && next.line == first.line
        && parse_f32(next.text).is_none()
    {
        toks.next_token();
        name.push(' ');
        name.push_str(&String::from_utf8_lossy(next.text));
    }
    Ok(name)
}

fn check_png(name: &str, t: Token<'_>, version: u32, warnings: &mut Vec<Diagnostic>) {
    let lower = name.to_ascii_lowercase();
    if !lower.ends_with(".png") {
        let rule = if version >= 3 {
            "pie/texture-extension"
        } else {
            "pie/legacy-texture-extension"
        };
        warnings.push(Diagnostic::coded(
            rule,
            Location::Line(t.line),
            format!(
                "{} {name} does not end in .png (the current game refuses it; old engines \
                 loaded .pcx pages)",
                t.show()
            ),
        ));
    }
}

/// `TEXTURE t name [w h]` or the legacy `NOTEXTURE t NOTEXTURE [w h]`.
fn texture_line(
    toks: &mut Tokens<'_>,
    t: Token<'_>,
    version: u32,
    set: &mut TextureSet,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), LoadError> {
    let slot = tileset(toks, t, version, warnings)?;
    let name = file_name(toks, t)?;
    // Optional page width and height, ignored by the game.
    for _ in 0..2 {
        if toks.peek().is_some_and(|x| parse_f32(x.text).is_some()) {
            toks.next_token();
        }
    }
    if t.is("NOTEXTURE") {
        set.notexture = true;
        set.base = Default::default();
    } else {
        check_png(&name, t, version, warnings);
        set.notexture = false;
        set.base[slot] = Some(TexName { name, line: t.line });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
