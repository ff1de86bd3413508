//! One `LEVEL` block: PIE 4 overrides, `POINTS`, `NORMALS`, `POLYGONS`, then any of
//! `CONNECTORS`, `ANIMOBJECT`, `SHADOWPOINTS`/`SHADOWPOLYGONS` and legacy `BSP` blocks.
//!
//! Polygons: `flags n i0 … i(n-1) [frames rate w h] [u0 v0 …]` with hex flags; 0x4000 adds
//! the texture-animation block, 0x200 the UVs. PIE 2 UVs and frame sizes are texel units
//! of a 256-pixel page and are divided by 256. The current game reads only triangles;
//! 2.x-era files have n-gons, which are fanned around their first point, (0,1,2),
//! (0,2,3), …, UVs with them; up to 16 points (the 1999 format's limit). Degenerate
//! triangles are kept. At most 8192 polygons per level (`MAX_PIE_POLYGONS`).
//!
//! Not supported: BSP trees are skipped (no engine since 2.x reads them; a z-buffer makes
//! them moot).

use super::header::{self, Settings};
use super::tokens::{Token, Tokens, error};
use crate::formats::{ErrorKind, LoadError};
use crate::model::{Corner, Diagnostic, Location};
use glam::{Vec2, Vec3};

mod blocks;
use blocks::{anim_object, shadow_polygons};

/// Polygon flag: textured (UVs follow).
pub(crate) const POLY_TEXTURED: u32 = 0x200;
/// Polygon flag: texture animation / legacy team colours (animation block follows).
pub(crate) const POLY_ANIMATED: u32 = 0x4000;
/// The game's `MAX_PIE_POLYGONS`.
pub(crate) const MAX_POLYGONS: u32 = 8192;
/// Most points one polygon may have (1999 format).
pub(crate) const MAX_POLYGON_POINTS: usize = 16;

/// The texture-animation block of a level's +4000 polygons (UV units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TexAnim {
    /// Number of frames.
    pub frames: u32,
    /// Milliseconds per frame ("playback rate").
    pub ms_per_frame: f32,
    /// Frame size in UV units.
    pub size: Vec2,
}

/// One ANIMOBJECT frame line, raw file values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AnimFrame {
    /// Position x, y, z as written (model = (x, z, y) / 1000).
    pub position: [f32; 3],
    /// Rotation x, y, z in thousandths of degrees, as written.
    pub rotation: [f32; 3],
    /// Scale x, y, z (x = −1: hidden in this frame).
    pub scale: [f32; 3],
}

/// `ANIMOBJECT time cycles frames` and its frames.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AnimObject {
    /// Milliseconds per frame, as the game draws it.
    pub time: f32,
    /// Repeats; 0 = forever.
    pub cycles: u32,
    /// Frame lines in file order.
    pub frames: Vec<AnimFrame>,
}

/// A shadow mesh (`SHADOWPOINTS` + `SHADOWPOLYGONS`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shadow {
    /// Points (y up, as POINTS).
    pub points: Vec<Vec3>,
    /// Triangles over `points`.
    pub triangles: Vec<[u32; 3]>,
}

/// Everything one level holds, still in file terms except for the corner list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Level {
    /// Its number (1-based).
    pub number: u32,
    /// Line of `LEVEL`.
    pub line: u32,
    /// PIE 4 overrides.
    pub settings: Settings,
    /// POINTS in file order.
    pub points: Vec<Vec3>,
    /// Line of each point.
    pub(crate) point_lines: Vec<u32>,
    /// Line of each file polygon.
    pub(crate) polygon_lines: Vec<u32>,
    /// For each triangle (after fanning), the file polygon it came from.
    pub(crate) triangle_polygon: Vec<u32>,
    /// Facts for `vitrine check` that are not warnings (legacy conventions).
    pub notes: Vec<Diagnostic>,
    /// Three corners per triangle after fanning.
    pub corners: Vec<Corner>,
    /// POLYGONS count as declared (= polygons read).
    pub polygons: u32,
    /// Whether any polygon carries UVs.
    pub textured: bool,
    /// Largest |u| or |v| (to spot PIE 3 files with PIE 2 UVs).
    pub(crate) max_uv: f32,
    /// The first +4000 polygon's animation block.
    pub(crate) tex_anim: Option<TexAnim>,
    /// CONNECTORS as written (x, y, z with z up).
    pub connectors: Vec<[f32; 3]>,
    /// ANIMOBJECT.
    pub(crate) anim: Option<AnimObject>,
    /// Shadow mesh.
    pub shadow: Option<Shadow>,
}

/// How a level block ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// At the next `LEVEL` or the end of the file.
    Normal,
    /// At junk after the last level, which was ignored (the game ignores it too).
    JunkIgnored,
}

/// Reads a count and checks it against the rest of the file.
fn count(
    toks: &mut Tokens<'_>,
    keyword: Token<'_>,
    tokens_per_record: u64,
) -> Result<(u32, usize), LoadError> {
    let name = String::from_utf8_lossy(keyword.text).into_owned();
    let n = toks.uint(|| format!("{name} count"))?;
    let cap = toks.check_count(u64::from(n), tokens_per_record, &name, keyword.line)?;
    Ok((n, cap))
}

fn points(
    toks: &mut Tokens<'_>,
    keyword: Token<'_>,
    what: &str,
    lines: Option<&mut Vec<u32>>,
) -> Result<Vec<Vec3>, LoadError> {
    let (n, cap) = count(toks, keyword, 3)?;
    let mut out = Vec::with_capacity(cap);
    let mut lines = lines;
    if let Some(l) = lines.as_deref_mut() {
        l.reserve(cap);
    }
    for i in 0..n {
        if let Some(l) = lines.as_deref_mut() {
            l.push(toks.peek().map_or(toks.line(), |t| t.line));
        }
        let mut p = [0.0; 3];
        for (axis, v) in p.iter_mut().enumerate() {
            *v =
                toks.f32(|| format!("{what} {i} {} (POINTS declared {n})", ["x", "y", "z"][axis]))?;
        }
        out.push(Vec3::from_array(p));
    }
    Ok(out)
}

/// Reads level `number` after its `LEVEL` keyword (at `line`). `last` marks the final
/// level, after which unknown words are ignored with a warning.
pub(crate) fn parse_level(
    toks: &mut Tokens<'_>,
    version: u32,
    number: u32,
    line: u32,
    last: bool,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Level, End), LoadError> {
    let mut level = Level {
        number,
        line,
        ..Level::default()
    };
    // PIE 4 overrides, MATERIALS, SHADERS.
    let keyword = loop {
        let t = toks.expect(|| format!("level {number}: POINTS"))?;
        if header::setting(toks, t, version, true, &mut level.settings, warnings)?
            || header::ignored(toks, t, warnings)
        {
            continue;
        }
        break t;
    };
    if !keyword.is("POINTS") {
        return Err(error(
            ErrorKind::Missing,
            keyword.line,
            format!("level {number}: expected POINTS, found {}", keyword.show()),
        ));
    }
    let mut point_lines = Vec::new();
    level.points = points(toks, keyword, "point", Some(&mut point_lines))?;
    level.point_lines = point_lines;

    let mut normals: Option<(Vec<[Vec3; 3]>, u32)> = None;
    let mut keyword = toks.expect(|| format!("level {number}: POLYGONS"))?;
    if keyword.is("NORMALS") {
        let (n, cap) = count(toks, keyword, 9)?;
        let mut list = Vec::with_capacity(cap);
        for i in 0..n {
            let mut v = [0.0f32; 9];
            for (k, x) in v.iter_mut().enumerate() {
                *x = toks.f32(|| format!("normal line {i} value {k} (NORMALS declared {n})"))?;
            }
            list.push([
                Vec3::new(v[0], v[1], v[2]),
                Vec3::new(v[3], v[4], v[5]),
                Vec3::new(v[6], v[7], v[8]),
            ]);
        }
        normals = Some((list, keyword.line));
        keyword = toks.expect(|| format!("level {number}: POLYGONS"))?;
    }
    if !keyword.is("POLYGONS") {
        return Err(error(
            ErrorKind::Missing,
            keyword.line,
            format!(
                "level {number}: expected POLYGONS, found {}",
                keyword.show()
            ),
        ));
    }
    polygons(toks, keyword, version, &mut level, normals, warnings)?;
    let end = tail(toks, &mut level, last, warnings)?;
    finish(&mut level, warnings);
    Ok((level, end))
}

/// The blocks after POLYGONS, up to the next `LEVEL` or the end of the file.
fn tail(
    toks: &mut Tokens<'_>,
    level: &mut Level,
    last: bool,
    warnings: &mut Vec<Diagnostic>,
) -> Result<End, LoadError> {
    let number = level.number;
    loop {
        let Some(t) = toks.peek() else {
            return Ok(End::Normal);
        };
        if t.is("LEVEL") {
            return Ok(End::Normal);
        }
        if t.is("CONNECTORS") {
            toks.next_token();
            let (n, cap) = count(toks, t, 3)?;
            level.connectors.reserve(cap);
            for i in 0..n {
                let mut c = [0.0; 3];
                for (axis, v) in c.iter_mut().enumerate() {
                    *v = toks.f32(|| {
                        format!(
                            "connector {i} {} (CONNECTORS declared {n})",
                            ["x", "y", "z"][axis]
                        )
                    })?;
                }
                level.connectors.push(c);
            }
        } else if t.is("ANIMOBJECT") {
            toks.next_token();
            level.anim = Some(anim_object(toks, t, warnings, &mut level.notes)?);
        } else if t.is("SHADOWPOINTS") {
            toks.next_token();
            let pts = points(toks, t, "shadow point", None)?;
            if pts.is_empty() {
                return Err(error(
                    ErrorKind::Invalid,
                    t.line,
                    "SHADOWPOINTS 0: must be at least 1",
                )
                .with_rule("pie/shadow-order"));
            }
            finish(level, warnings);
            level.shadow = Some(Shadow {
                points: pts,
                triangles: Vec::new(),
            });
        } else if t.is("SHADOWPOLYGONS") {
            toks.next_token();
            shadow_polygons(toks, t, level)?;
        } else if t.is("BSP") {
            toks.next_token();
            let n = toks.skip_integers();
            warnings.push(Diagnostic::coded(
                "pie/bsp",
                Location::Line(t.line),
                format!("legacy BSP block ({n} numbers) skipped"),
            ));
        } else if last {
            warnings.push(Diagnostic::coded(
                "pie/trailing-junk",
                Location::Line(t.line),
                format!(
                    "{} after the last level: the rest of the file is ignored",
                    t.show()
                ),
            ));
            return Ok(End::JunkIgnored);
        } else {
            let hint = if t.is_word() {
                ""
            } else {
                " (more polygons than POLYGONS declared?)"
            };
            return Err(error(
                ErrorKind::Syntax,
                t.line,
                format!(
                    "level {number}: unexpected {}{hint}; expected CONNECTORS, ANIMOBJECT, \
                     SHADOWPOINTS, SHADOWPOLYGONS or LEVEL {}",
                    t.show(),
                    number + 1
                ),
            ));
        }
    }
}

/// Drops a shadow mesh that has points but no polygons (the game logs an error and
/// falls back to the render mesh).
pub fn finish(level: &mut Level, warnings: &mut Vec<Diagnostic>) {
    if level
        .shadow
        .as_ref()
        .is_some_and(|s| s.triangles.is_empty())
    {
        warnings.push(Diagnostic::coded(
            "pie/shadow-dropped",
            Location::Line(level.line),
            format!(
                "level {}: SHADOWPOINTS without SHADOWPOLYGONS; shadow mesh dropped",
                level.number
            ),
        ));
        level.shadow = None;
    }
}

fn polygons(
    toks: &mut Tokens<'_>,
    keyword: Token<'_>,
    version: u32,
    level: &mut Level,
    normals: Option<(Vec<[Vec3; 3]>, u32)>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), LoadError> {
    let count_line = toks.peek().map_or(keyword.line, |t| t.line);
    let n = toks.uint(|| "POLYGONS count".into())?;
    if n > MAX_POLYGONS {
        warnings.push(Diagnostic::coded(
            "pie/polygon-limit",
            Location::Line(count_line),
            format!("POLYGONS {n}: the game allows at most {MAX_POLYGONS} per level"),
        ));
    }
    // Smallest polygon: flags, count, three indices.
    let cap = toks.check_count(u64::from(n), 5, "POLYGONS", keyword.line)?;
    level.polygons = n;
    level.corners.reserve(cap * 3);
    let normals = match normals {
        Some((list, line)) if list.len() != n as usize => {
            warnings.push(Diagnostic::coded(
                "pie/normals-count",
                Location::Line(line),
                format!(
                    "NORMALS {} does not match POLYGONS {n}; normals dropped, face normals used",
                    list.len()
                ),
            ));
            None
        }
        other => other.map(|(list, _)| list),
    };
    let uv_scale = if version == 2 { 1.0 / 256.0 } else { 1.0 };
    let npoints = level.points.len();
    let mut anim_mismatch_warned = false;
    // (first line, count) of polygons that are not triangles, and with unknown flags.
    let mut ngons: Option<(u32, u32, usize)> = None;
    let mut odd_flags: Option<(u32, u32, u32)> = None;
    level.polygon_lines.reserve(cap);
    level.triangle_polygon.reserve(cap);
    for i in 0..n {
        let poly_line = toks.peek().map_or(toks.line(), |t| t.line);
        level.polygon_lines.push(poly_line);
        let flags = toks.hex(|| format!("polygon {i} flags (POLYGONS declared {n})"))?;
        if flags & !(POLY_TEXTURED | POLY_ANIMATED) != 0 {
            let e = odd_flags.get_or_insert((poly_line, 0, 0));
            e.1 += 1;
            e.2 |= flags & !(POLY_TEXTURED | POLY_ANIMATED);
        }
        let np = toks.uint(|| format!("polygon {i} point count"))? as usize;
        let count_line = toks.line();
        if !(3..=MAX_POLYGON_POINTS).contains(&np) {
            return Err(error(
                ErrorKind::Invalid,
                count_line,
                format!("polygon {i} has {np} points; 3 to {MAX_POLYGON_POINTS} are supported"),
            ));
        }
        if np != 3 {
            ngons.get_or_insert((poly_line, 0, np)).1 += 1;
        }
        let mut idx = [0u32; MAX_POLYGON_POINTS];
        for (j, slot) in idx.iter_mut().take(np).enumerate() {
            let p = toks.uint(|| format!("polygon {i} point {j}"))?;
            let line = toks.line();
            if p as usize >= npoints {
                return Err(error(
                    ErrorKind::IndexOutOfRange,
                    line,
                    format!("polygon {i} uses point {p}, but POINTS declared {npoints}"),
                )
                .with_rule("pie/point-index"));
            }
            *slot = p;
        }
        let animated = flags & POLY_ANIMATED != 0;
        if animated {
            let frames = toks.uint(|| format!("polygon {i} animation frames"))?;
            let line = toks.line();
            let ms = toks.f32(|| format!("polygon {i} animation rate"))?;
            let w = toks.f32(|| format!("polygon {i} animation frame width"))? * uv_scale;
            let h = toks.f32(|| format!("polygon {i} animation frame height"))? * uv_scale;
            let block = TexAnim {
                frames,
                ms_per_frame: ms,
                size: Vec2::new(w, h),
            };
            match &level.tex_anim {
                None => {
                    if frames <= 1 || w <= 0.0 {
                        warnings.push(Diagnostic::coded(
                            "pie/texanim-block",
                            Location::Line(line),
                            format!(
                                "polygon {i}: animation block with {frames} frames of width {w}; \
                                 the game expects more than 1 frame and a width above 0"
                            ),
                        ));
                    }
                    level.tex_anim = Some(block);
                }
                Some(first) if *first != block && !anim_mismatch_warned => {
                    anim_mismatch_warned = true;
                    let timing =
                        first.frames != block.frames || first.ms_per_frame != block.ms_per_frame;
                    warnings.push(Diagnostic::coded(
                        if timing {
                            "pie/texanim-mismatch"
                        } else {
                            "pie/texanim-size"
                        },
                        Location::Line(line),
                        format!(
                            "polygon {i}: animation block ({} frames, {} ms, frame {}×{} UV) \
                             differs from the level's first ({} frames, {} ms, frame {}×{} UV); \
                             the level is animated with the first",
                            block.frames,
                            block.ms_per_frame,
                            block.size.x,
                            block.size.y,
                            first.frames,
                            first.ms_per_frame,
                            first.size.x,
                            first.size.y
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        let mut uv = [Vec2::ZERO; MAX_POLYGON_POINTS];
        if flags & POLY_TEXTURED != 0 {
            level.textured = true;
            for (j, slot) in uv.iter_mut().take(np).enumerate() {
                let u = toks.f32(|| format!("polygon {i} u{j}"))?;
                let v = toks.f32(|| format!("polygon {i} v{j}"))?;
                level.max_uv = level.max_uv.max(u.abs()).max(v.abs());
                *slot = Vec2::new(u, v) * uv_scale;
            }
        }
        let normal = |j: usize| normals.as_ref().and_then(|l| l[i as usize].get(j).copied());
        for k in 1..np - 1 {
            level.triangle_polygon.push(i);
            for j in [0, k, k + 1] {
                level.corners.push(Corner {
                    point: idx[j],
                    normal: normal(j),
                    uv: [uv[j], Vec2::ZERO],
                    animated,
                });
            }
        }
    }
    if let Some((line, count, np)) = ngons {
        let (rule, why) = if version >= 3 {
            (
                "pie/not-triangle",
                "the game reads only triangles and refuses the model",
            )
        } else {
            (
                "pie/legacy-ngon",
                "only 2.x engines split them into triangles; the current game refuses them",
            )
        };
        warnings.push(Diagnostic::coded(
            rule,
            Location::Line(line),
            format!(
                "level {}: {count} polygon(s) with other than 3 points (first: {np}); {why}",
                level.number
            ),
        ));
    }
    if let Some((line, count, bits)) = odd_flags {
        level.notes.push(Diagnostic::coded(
            "pie/polygon-flags",
            Location::Line(line),
            format!(
                "level {}: {count} polygon(s) carry flag bits 0x{bits:x} the game ignores \
                 (only 0x200 textured and 0x4000 animated mean something)",
                level.number
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
