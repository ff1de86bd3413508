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
    let cycles = toks.uint(|| "ANIMOBJECT cycles".into())?;
    let n = toks.uint(|| "ANIMOBJECT frame count".into())?;
    // More frames declared than the bytes left can hold: read what is there (the game
    // does, and complains).
    let cap = toks
        .check_count(u64::from(n), 10, "ANIMOBJECT frames", keyword.line)
        .unwrap_or(0);
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
        // One frame a line, as the game reads it: a line that is not ten numbers is
        // logged by the game and its values left at zero; the model is still used.
        let line = toks.peek().map_or(toks.line(), |t| t.line);
        let mut words = Vec::with_capacity(10);
        while let Some(t) = toks.peek()
            && t.line == line
            && words.len() < 11
        {
            toks.next_token();
            words.push(super::super::tokens::parse_f32(t.text));
        }
        toks.skip_line(line);
        let numbers: Option<Vec<f32>> = words.iter().copied().collect();
        let Some(numbers) = numbers.filter(|v| v.len() == 10) else {
            warnings.push(Diagnostic::coded(
                "pie/animobject-frames",
                Location::Line(line),
                format!("ANIMOBJECT frame {f} is not ten numbers; the game reads it as zeros"),
            ));
            frames.push(AnimFrame {
                position: [0.0; 3],
                rotation: [0.0; 3],
                scale: [1.0; 3],
            });
            continue;
        };
        let index = numbers[0] as i64;
        if index != i64::from(f) && !numbering_warned {
            numbering_warned = true;
            warnings.push(Diagnostic::coded(
                "pie/animobject-frames",
                Location::Line(line),
                format!("ANIMOBJECT frame {f} is numbered {index}"),
            ));
        }
        let v = &numbers[1..];
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
    if time <= 0.0 {
        warnings.push(Diagnostic::coded(
            "pie/animobject-time",
            Location::Line(time_line),
            format!("ANIMOBJECT time {time}: frames cannot play; the level is shown still"),
        ));
        frames.clear();
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
    let mut flag_notes = Vec::new();
    let np_total = shadow.points.len();
    for i in 0..n {
        let flags =
            toks.hex(|| format!("shadow polygon {i} flags (SHADOWPOLYGONS declared {n})"))?;
        let line = toks.line();
        if flags != 0 {
            flag_notes.push(Diagnostic::coded(
                "pie/shadow-flags",
                Location::Line(line),
                format!("shadow polygon {i} has flags {flags:x}; shadow polygons must have 0"),
            ));
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
    level.notes.append(&mut flag_notes);
    Ok(())
}
