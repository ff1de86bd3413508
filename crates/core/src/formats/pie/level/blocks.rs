//! The optional blocks of a level after `POLYGONS` that are more than a list:
//! `ANIMOBJECT` (the level's own keyframes, as the game's `drawShape` plays them) and
//! `SHADOWPOINTS`/`SHADOWPOLYGONS` (the simplified mesh the game casts shadows from).

use super::*;

pub(super) fn anim_object(
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

pub(super) fn shadow_polygons(
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
