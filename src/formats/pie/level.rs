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

/// Polygon flag: textured (UVs follow).
pub const POLY_TEXTURED: u32 = 0x200;
/// Polygon flag: texture animation / legacy team colours (animation block follows).
pub const POLY_ANIMATED: u32 = 0x4000;
/// The game's `MAX_PIE_POLYGONS`.
pub const MAX_POLYGONS: u32 = 8192;
/// Most points one polygon may have (1999 format).
pub const MAX_POLYGON_POINTS: usize = 16;

/// The texture-animation block of a level's +4000 polygons (UV units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TexAnim {
    /// Number of frames.
    pub frames: u32,
    /// Milliseconds per frame ("playback rate").
    pub ms_per_frame: f32,
    /// Frame size in UV units.
    pub size: Vec2,
}

/// One ANIMOBJECT frame line, raw file values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnimFrame {
    /// Position x, y, z as written (model = (x, z, y) / 1000).
    pub position: [f32; 3],
    /// Rotation x, y, z in thousandths of degrees, as written.
    pub rotation: [f32; 3],
    /// Scale x, y, z (x = −1: hidden in this frame).
    pub scale: [f32; 3],
}

/// `ANIMOBJECT time cycles frames` and its frames.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimObject {
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
    pub point_lines: Vec<u32>,
    /// Line of each file polygon.
    pub polygon_lines: Vec<u32>,
    /// For each triangle (after fanning), the file polygon it came from.
    pub triangle_polygon: Vec<u32>,
    /// Facts for `vitrine check` that are not warnings (legacy conventions).
    pub notes: Vec<Diagnostic>,
    /// Three corners per triangle after fanning.
    pub corners: Vec<Corner>,
    /// POLYGONS count as declared (= polygons read).
    pub polygons: u32,
    /// Whether any polygon carries UVs.
    pub textured: bool,
    /// Largest |u| or |v| (to spot PIE 3 files with PIE 2 UVs).
    pub max_uv: f32,
    /// The first +4000 polygon's animation block.
    pub tex_anim: Option<TexAnim>,
    /// CONNECTORS as written (x, y, z with z up).
    pub connectors: Vec<[f32; 3]>,
    /// ANIMOBJECT.
    pub anim: Option<AnimObject>,
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
pub fn parse_level(
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

fn anim_object(
    toks: &mut Tokens<'_>,
    keyword: Token<'_>,
    warnings: &mut Vec<Diagnostic>,
    notes: &mut Vec<Diagnostic>,
) -> Result<AnimObject, LoadError> {
    let time_line = toks.peek().map_or(keyword.line, |t| t.line);
    let time = toks.f32(|| "ANIMOBJECT time".into())?;
    if time <= 0.0 {
        return Err(error(
            ErrorKind::Invalid,
            time_line,
            format!("ANIMOBJECT time {time}: must be above 0 ms"),
        ));
    }
    let cycles = toks.uint(|| "ANIMOBJECT cycles".into())?;
    let n = toks.uint(|| "ANIMOBJECT frame count".into())?;
    let cap = toks.check_count(u64::from(n), 10, "ANIMOBJECT frames", keyword.line)?;
    let mut frames = Vec::with_capacity(cap);
    let mut numbering_warned = false;
    for f in 0..n {
        // A word where a frame should start: the header declares more frames than
        // follow. The game reads the word as a broken frame line; keep what was read.
        if toks.peek().is_none_or(|t| t.is_word()) {
            warnings.push(Diagnostic::coded(
                "pie/animobject-frames",
                Location::Line(keyword.line),
                format!("ANIMOBJECT declares {n} frames, but {f} frame lines follow"),
            ));
            break;
        }
        let index = toks.int(|| format!("ANIMOBJECT frame {f} number (frames declared {n})"))?;
        let line = toks.line();
        if index != i64::from(f) && !numbering_warned {
            numbering_warned = true;
            warnings.push(Diagnostic::coded(
                "pie/animobject-frames",
                Location::Line(line),
                format!("ANIMOBJECT frame {f} is numbered {index}"),
            ));
        }
        let mut v = [0.0f32; 9];
        for (k, x) in v.iter_mut().enumerate() {
            *x = toks.f32(|| format!("ANIMOBJECT frame {f} value {}", k + 1))?;
        }
        frames.push(AnimFrame {
            position: [v[0], v[1], v[2]],
            rotation: [v[3], v[4], v[5]],
            scale: [v[6], v[7], v[8]],
        });
    }
    // Frame-like lines after the declared count: more records than the header says.
    let mut extra = 0;
    let mut first_extra = 0;
    while let Some(t) = toks.peek()
        && !t.is_word()
        && extra < u32::MAX
    {
        if extra == 0 {
            first_extra = t.line;
        }
        toks.skip_line(t.line);
        extra += 1;
    }
    if extra > 0 {
        warnings.push(Diagnostic::coded(
            "pie/animobject-frames",
            Location::Line(first_extra),
            format!(
                "ANIMOBJECT declares {n} frames, but {extra} more frame line(s) follow; \
                 the game stops reading the level there"
            ),
        ));
    }
    let negative = frames
        .iter()
        .filter(|f| f.scale.iter().any(|s| *s < 0.0))
        .count();
    if negative > 0 {
        notes.push(Diagnostic::coded(
            "pie/negative-scale",
            Location::Line(keyword.line),
            format!(
                "ANIMOBJECT: {negative} of {} frames have a negative scale (legacy keyframe \
                 sequence: the level is hidden in those frames)",
                frames.len()
            ),
        ));
    }
    Ok(AnimObject {
        time,
        cycles,
        frames,
    })
}

fn shadow_polygons(
    toks: &mut Tokens<'_>,
    keyword: Token<'_>,
    level: &mut Level,
) -> Result<(), LoadError> {
    let Some(shadow) = level.shadow.as_mut().filter(|s| s.triangles.is_empty()) else {
        return Err(error(
            ErrorKind::Invalid,
            keyword.line,
            "SHADOWPOLYGONS must follow a non-empty SHADOWPOINTS",
        )
        .with_rule("pie/shadow-order"));
    };
    let (n, cap) = count(toks, keyword, 5)?;
    if n == 0 {
        return Err(error(
            ErrorKind::Invalid,
            keyword.line,
            "SHADOWPOLYGONS 0: must be at least 1",
        ));
    }
    shadow.triangles.reserve(cap);
    let np_total = shadow.points.len();
    for i in 0..n {
        let flags =
            toks.hex(|| format!("shadow polygon {i} flags (SHADOWPOLYGONS declared {n})"))?;
        let line = toks.line();
        if flags != 0 {
            return Err(error(
                ErrorKind::Invalid,
                line,
                format!("shadow polygon {i} has flags {flags:x}; shadow polygons must have 0"),
            )
            .with_rule("pie/shadow-flags"));
        }
        let np = toks.uint(|| format!("shadow polygon {i} point count"))? as usize;
        if !(3..=MAX_POLYGON_POINTS).contains(&np) {
            return Err(error(
                ErrorKind::Invalid,
                line,
                format!(
                    "shadow polygon {i} has {np} points; 3 to {MAX_POLYGON_POINTS} are supported"
                ),
            ));
        }
        let mut idx = [0u32; MAX_POLYGON_POINTS];
        for (j, slot) in idx.iter_mut().take(np).enumerate() {
            let p = toks.uint(|| format!("shadow polygon {i} point {j}"))?;
            let line = toks.line();
            if p as usize >= np_total {
                return Err(error(
                    ErrorKind::IndexOutOfRange,
                    line,
                    format!(
                        "shadow polygon {i} uses point {p}, but SHADOWPOINTS declared {np_total}"
                    ),
                ));
            }
            *slot = p;
        }
        for k in 1..np - 1 {
            shadow.triangles.push([idx[0], idx[k], idx[k + 1]]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `body` as level 1 (the text after `LEVEL 1`) of a file of `version`.
    fn level(version: u32, body: &str) -> Result<(Level, Vec<Diagnostic>), LoadError> {
        let mut w = Vec::new();
        let mut t = Tokens::new(body.as_bytes());
        parse_level(&mut t, version, 1, 1, true, &mut w).map(|(l, _)| (l, w))
    }

    const SQUARE: &str = "POINTS 4\n0 0 0\n10 0 0\n10 10 0\n0 10 0\n";

    #[test]
    fn points_are_read_in_file_order() {
        let (l, _) = level(3, "POINTS 2\n\t-4.0 4.0 8.0\n\t1 2 3\nPOLYGONS 0").unwrap();
        assert_eq!(
            l.points,
            vec![Vec3::new(-4.0, 4.0, 8.0), Vec3::new(1.0, 2.0, 3.0)]
        );
        // Several points on one line (legacy token stream).
        let (l, _) = level(2, "POINTS 2 -4 4 8 1 2 3 POLYGONS 0").unwrap();
        assert_eq!(l.points.len(), 2);
    }

    #[test]
    fn polygons_table() {
        // (version, polygon lines, corners as (point, u, v), animated)
        type Case = (u32, &'static str, &'static [(u32, f32, f32)], bool);
        let cases: &[Case] = &[
            (
                3,
                "200 3 0 1 2 0.5 0.25 1 0 0 1",
                &[(0, 0.5, 0.25), (1, 1.0, 0.0), (2, 0.0, 1.0)],
                false,
            ),
            (
                2,
                "200 3 0 1 2 128 64 256 0 0 256",
                &[(0, 0.5, 0.25), (1, 1.0, 0.0), (2, 0.0, 1.0)],
                false,
            ),
            // A quad is fanned around its first point, UVs with it.
            (
                2,
                "200 4 0 1 2 3 0 0 256 0 256 256 0 256",
                &[
                    (0, 0.0, 0.0),
                    (1, 1.0, 0.0),
                    (2, 1.0, 1.0),
                    (0, 0.0, 0.0),
                    (2, 1.0, 1.0),
                    (3, 0.0, 1.0),
                ],
                false,
            ),
            // Untextured: no UVs follow.
            (
                3,
                "0 3 2 1 0",
                &[(2, 0.0, 0.0), (1, 0.0, 0.0), (0, 0.0, 0.0)],
                false,
            ),
            // Degenerate triangles are kept.
            (
                3,
                "200 3 1 1 2 0 0 0 0 0 0",
                &[(1, 0.0, 0.0), (1, 0.0, 0.0), (2, 0.0, 0.0)],
                false,
            ),
            // +4000: frames, rate, width, height, then UVs.
            (
                3,
                "4200 3 0 1 2 4 300 0.5 0.5 0 0 0.5 0 0 0.5",
                &[(0, 0.0, 0.0), (1, 0.5, 0.0), (2, 0.0, 0.5)],
                true,
            ),
        ];
        for (version, poly, want, animated) in cases {
            let src = format!("{SQUARE}POLYGONS 1\n\t{poly}\n");
            let (l, _) = level(*version, &src).unwrap_or_else(|e| panic!("{poly}: {e}"));
            let got: Vec<_> = l
                .corners
                .iter()
                .map(|c| (c.point, c.uv[0].x, c.uv[0].y))
                .collect();
            assert_eq!(&got, want, "{poly}");
            assert!(l.corners.iter().all(|c| c.animated == *animated), "{poly}");
        }
    }

    #[test]
    fn animation_blocks_pie2_sizes_are_texels() {
        let src = format!("{SQUARE}POLYGONS 1\n4200 3 0 1 2 8 100 32 16 0 0 0 0 0 0\n");
        let (l, _) = level(2, &src).unwrap();
        let a = l.tex_anim.unwrap();
        assert_eq!((a.frames, a.ms_per_frame), (8, 100.0));
        assert_eq!(a.size, Vec2::new(0.125, 0.0625));
    }

    #[test]
    fn polygon_errors() {
        let cases: &[(&str, ErrorKind, u32, &str)] = &[
            (
                "200 3 0 1 52 0 0 0 0 0 0",
                ErrorKind::IndexOutOfRange,
                7,
                "polygon 0 uses point 52, but POINTS declared 4",
            ),
            (
                "200 2 0 1 0 0 0 0",
                ErrorKind::Invalid,
                7,
                "polygon 0 has 2 points",
            ),
            (
                "200 17 0 1 2",
                ErrorKind::Invalid,
                7,
                "polygon 0 has 17 points",
            ),
            ("zz 3 0 1 2", ErrorKind::BadValue, 7, "polygon 0 flags"),
            (
                "200 3 0 1 2 0 0 0 0 0",
                ErrorKind::Truncated,
                7,
                "polygon 0 v2",
            ),
            (
                "200 3 0 1 2 0 0 0 0 0 nan",
                ErrorKind::BadValue,
                7,
                "polygon 0 v2",
            ),
        ];
        for (poly, kind, line, msg) in cases {
            let src = format!("{SQUARE}POLYGONS 1\n{poly}");
            let e = level(3, &src).unwrap_err();
            assert_eq!(e.kind, *kind, "{poly}: {e}");
            assert_eq!(e.location, Location::Line(*line), "{poly}: {e}");
            assert!(e.message.contains(msg), "{poly}: {}", e.message);
        }
        // Past the game's 8192 polygons: read on (the checker reports it), or refused
        // when the data cannot hold them.
        let e = level(3, &format!("{SQUARE}POLYGONS 8193\n")).unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge);
        let many = "200 3 0 1 2 0 0 0 0 0 0\n".repeat(8193);
        let (l, w) = level(3, &format!("{SQUARE}POLYGONS 8193\n{many}")).unwrap();
        assert_eq!(l.polygons, 8193);
        assert_eq!(w[0].rule, Some("pie/polygon-limit"));
        assert_eq!(w[0].location, Location::Line(6));
        let e = level(3, "POINTS 99999999\n0 0 0\nPOLYGONS 0").unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge);
        let e = level(3, "POLYGONS 0").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Missing);
    }

    #[test]
    fn normals_match_polygons_or_are_dropped() {
        let n = "NORMALS 1\n0 0 1 0 0 1 0 1 0\n";
        let src = format!("{SQUARE}{n}POLYGONS 1\n200 3 0 1 2 0 0 0 0 0 0\n");
        let (l, w) = level(3, &src).unwrap();
        assert!(w.is_empty());
        assert_eq!(l.corners[2].normal, Some(Vec3::Y));
        let src =
            format!("{SQUARE}{n}POLYGONS 2\n200 3 0 1 2 0 0 0 0 0 0\n200 3 0 2 3 0 0 0 0 0 0\n");
        let (l, w) = level(3, &src).unwrap();
        assert!(l.corners.iter().all(|c| c.normal.is_none()));
        assert_eq!(w[0].location, Location::Line(6));
        assert!(
            w[0].message.contains("NORMALS 1 does not match POLYGONS 2"),
            "{w:?}"
        );
    }

    #[test]
    fn blocks_after_polygons() {
        let src = format!(
            "{SQUARE}POLYGONS 0\nCONNECTORS 2\n1 2 3\n-4 5.5 6\n\
             ANIMOBJECT 150 2 2\n0 0 0 0 0 0 0 1 1 1\n1 1000 0 0 0 0 0 -1 -1 -1\n\
             SHADOWPOINTS 3\n0 0 0\n1 0 0\n0 1 0\nSHADOWPOLYGONS 1\n0 3 0 1 2\n\
             BSP 2\n-1 -1 -1 1\n2 0 -1 -1 -1\n"
        );
        let (l, w) = level(3, &src).unwrap();
        assert_eq!(l.connectors, vec![[1.0, 2.0, 3.0], [-4.0, 5.5, 6.0]]);
        let a = l.anim.unwrap();
        assert_eq!((a.time, a.cycles, a.frames.len()), (150.0, 2, 2));
        assert_eq!(a.frames[1].position, [1000.0, 0.0, 0.0]);
        assert_eq!(a.frames[1].scale, [-1.0; 3]);
        let s = l.shadow.unwrap();
        assert_eq!((s.points.len(), s.triangles), (3, vec![[0, 1, 2]]));
        assert!(
            w.iter()
                .any(|d| d.message.contains("BSP block (10 numbers) skipped")),
            "{w:?}"
        );
    }

    #[test]
    fn block_errors_and_junk() {
        let cases: &[(&str, ErrorKind)] = &[
            ("ANIMOBJECT 0 0 1\n0 0 0 0 0 0 0 1 1 1", ErrorKind::Invalid),
            (
                "ANIMOBJECT 100 0 2\n0 0 0 0 0 0 0 1 1 1",
                ErrorKind::CountTooLarge,
            ),
            (
                "ANIMOBJECT 100 0 2\n0 0 0 0 0 0 0 1 1 1\n1 0 0 0                            \n",
                ErrorKind::Truncated,
            ),
            ("SHADOWPOLYGONS 1\n0 3 0 1 2", ErrorKind::Invalid),
            (
                "SHADOWPOINTS 3\n0 0 0\n1 0 0\n0 1 0\nSHADOWPOLYGONS 1\n200 3 0 1 2",
                ErrorKind::Invalid,
            ),
            (
                "SHADOWPOINTS 3\n0 0 0\n1 0 0\n0 1 0\nSHADOWPOLYGONS 1\n0 3 0 1 3",
                ErrorKind::IndexOutOfRange,
            ),
            ("SHADOWPOINTS 0", ErrorKind::Invalid),
            ("CONNECTORS 1\n1 2    ", ErrorKind::Truncated),
        ];
        for (tail, kind) in cases {
            let src = format!("{SQUARE}POLYGONS 0\n{tail}");
            let e = level(3, &src).unwrap_err();
            assert_eq!(e.kind, *kind, "{tail}: {e}");
        }
        // Shadow points without polygons are dropped with a warning.
        let (l, w) = level(3, &format!("{SQUARE}POLYGONS 0\nSHADOWPOINTS 1\n0 0 0\n")).unwrap();
        assert!(l.shadow.is_none());
        assert!(w[0].message.contains("shadow mesh dropped"));
        // After the last level an unknown word ends the file with a warning ...
        let (_, w) = level(3, &format!("{SQUARE}POLYGONS 0\nJUNK 1 2 3")).unwrap();
        assert!(w[0].message.contains("rest of the file is ignored"));
        // ... but before another level it is an error.
        let mut t = Tokens::new(b"POINTS 0 POLYGONS 0 JUNK");
        let e = parse_level(&mut t, 3, 1, 1, false, &mut Vec::new()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert!(e.message.contains("LEVEL 2"), "{e}");
    }

    #[test]
    fn pie4_overrides_before_points() {
        let src = "TYPE 10200\nINTERPOLATE 0\nTEXTURE 0 b.png 0 0\nTCMASK 0 m.png\n\
                   MATERIALS 1 1 1 1 1 1 1 1 1 20\nPOINTS 0\nPOLYGONS 0";
        let (l, w) = level(4, src).unwrap();
        assert_eq!(l.settings.type_flags, Some(0x10200));
        assert_eq!(l.settings.interpolate, Some(false));
        assert_eq!(
            l.settings.textures.tcmask[0].as_ref().unwrap().name,
            "m.png"
        );
        assert_eq!(w.len(), 1, "only MATERIALS warns in PIE 4: {w:?}");
        let (_, w) = level(3, "TYPE 200\nPOINTS 0\nPOLYGONS 0").unwrap();
        assert!(w[0].message.contains("PIE 4 feature"));
    }
}
