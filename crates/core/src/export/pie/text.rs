//! The PIE text: directive order of `doc/PIE.md` and the game's loader, one record a
//! line, records indented with one tab, `\n` line ends.
//!
//! Numbers: points, UVs, connectors and scales as the shortest decimal that reads back
//! as the same `f32` (so a PIE written again has its file's numbers; no exponent, which
//! the game's `%f` would read but editors show badly); normals with at most six
//! decimals; ANIMOBJECT positions and rotations as integers, as the game reads them.

use super::PieVersion;
use super::header::{Header, Settings, Textures};
use super::levels::Level;
use glam::Vec3;
use std::fmt::Write;

/// The shortest decimal that reads back as `v` (`-0` written `0`).
pub fn num(v: f32) -> String {
    if v == 0.0 {
        "0".to_string()
    } else {
        format!("{v}")
    }
}

/// `v` with at most six decimals, trailing zeros dropped.
pub fn num6(v: f32) -> String {
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" || s.is_empty() {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Three numbers as written on a point line.
pub fn vec3(v: Vec3) -> String {
    format!("{} {} {}", num(v.x), num(v.y), num(v.z))
}

fn texture_lines(out: &mut String, t: &Textures, version: PieVersion) {
    for (slot, name) in t.base.iter().enumerate() {
        if let Some(n) = name {
            let _ = writeln!(out, "TEXTURE {slot} {n} 0 0");
        }
    }
    if version == PieVersion::V4 {
        for (slot, name) in t.tcmask.iter().enumerate() {
            if let Some(n) = name {
                let _ = writeln!(out, "TCMASK {slot} {n}");
            }
        }
    }
    for (slot, name) in t.normal.iter().enumerate() {
        if let Some(n) = name {
            let _ = writeln!(out, "NORMALMAP {slot} {n}");
        }
    }
    for (slot, name) in t.specular.iter().enumerate() {
        if let Some(n) = name {
            let _ = writeln!(out, "SPECULARMAP {slot} {n}");
        }
    }
}

/// A level's PIE 4 overrides: what differs from the header.
fn overrides(out: &mut String, own: &Settings, global: &Settings) {
    if own.type_flags != global.type_flags {
        let _ = writeln!(out, "TYPE {:x}", own.type_flags);
    }
    if own.interpolate != global.interpolate {
        let _ = writeln!(out, "INTERPOLATE {}", u8::from(own.interpolate));
    }
    let pick = |a: &[Option<String>; 3], b: &[Option<String>; 3]| -> [Option<String>; 3] {
        std::array::from_fn(|i| a[i].clone().filter(|n| b[i].as_ref() != Some(n)))
    };
    let t = &own.textures;
    let g = &global.textures;
    let diff = Textures {
        base: pick(&t.base, &g.base),
        tcmask: pick(&t.tcmask, &g.tcmask),
        normal: pick(&t.normal, &g.normal),
        specular: pick(&t.specular, &g.specular),
    };
    texture_lines(out, &diff, PieVersion::V4);
}

/// The whole file.
pub fn write(header: &Header, levels: &[Level], version: PieVersion) -> String {
    let points: usize = levels.iter().map(|l| l.points.len()).sum();
    let polygons: usize = levels.iter().map(|l| l.polygons.len()).sum();
    let mut out = String::with_capacity(64 * (points + 3 * polygons) + 256);
    let _ = writeln!(out, "PIE {}", version.number());
    let s = &header.settings;
    let _ = writeln!(out, "TYPE {:x}", s.type_flags);
    if version == PieVersion::V4
        && let Some(c) = &header.comment
    {
        for line in c.lines() {
            let _ = writeln!(out, "# {line}");
        }
    }
    if !s.interpolate {
        out.push_str("INTERPOLATE 0\n");
    } else if header.interpolate_line {
        out.push_str("INTERPOLATE 1\n");
    }
    texture_lines(&mut out, &s.textures, version);
    for (kind, file) in &header.events {
        let _ = writeln!(out, "EVENT {kind} {file}");
    }
    let _ = writeln!(out, "LEVELS {}", levels.len());
    for (i, level) in levels.iter().enumerate() {
        let _ = writeln!(out, "LEVEL {}", i + 1);
        if let Some(own) = header.overrides.get(i).and_then(Option::as_ref) {
            overrides(&mut out, own, s);
        }
        level_body(&mut out, level);
    }
    out
}

fn level_body(out: &mut String, level: &Level) {
    let _ = writeln!(out, "POINTS {}", level.points.len());
    for p in &level.points {
        let _ = writeln!(out, "\t{}", vec3(*p));
    }
    let _ = writeln!(out, "NORMALS {}", level.polygons.len());
    for p in &level.polygons {
        out.push('\t');
        for (k, n) in p.normals.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{} {} {}", num6(n.x), num6(n.y), num6(n.z));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "POLYGONS {}", level.polygons.len());
    for p in &level.polygons {
        let [a, b, c] = p.points;
        match (p.animated, level.tex_anim) {
            (true, Some(t)) => {
                let _ = write!(
                    out,
                    "\t4200 3 {a} {b} {c} {} {} {} {}",
                    t.frames,
                    num(t.ms_per_frame),
                    num(t.size.x),
                    num(t.size.y)
                );
            }
            _ => {
                let _ = write!(out, "\t200 3 {a} {b} {c}");
            }
        }
        for uv in p.uvs {
            let _ = write!(out, " {} {}", num(uv.x), num(uv.y));
        }
        out.push('\n');
    }
    if !level.connectors.is_empty() {
        let _ = writeln!(out, "CONNECTORS {}", level.connectors.len());
        for c in &level.connectors {
            let _ = writeln!(out, "\t{}", vec3(Vec3::from_array(*c)));
        }
    }
    if let Some(a) = &level.anim {
        let _ = writeln!(
            out,
            "ANIMOBJECT {} {} {}",
            num(a.ms_per_frame.round().max(1.0)),
            a.cycles,
            a.frames.len()
        );
        for (i, f) in a.frames.iter().enumerate() {
            let [px, py, pz] = f.position;
            let [rx, ry, rz] = f.rotation;
            let [sx, sy, sz] = f.scale.map(num6);
            let _ = writeln!(out, "\t{i} {px} {py} {pz} {rx} {ry} {rz} {sx} {sy} {sz}");
        }
    }
    if let Some(s) = &level.shadow
        && !s.points.is_empty()
        && !s.triangles.is_empty()
    {
        let _ = writeln!(out, "SHADOWPOINTS {}", s.points.len());
        for p in &s.points {
            let _ = writeln!(out, "\t{}", vec3(*p));
        }
        let _ = writeln!(out, "SHADOWPOLYGONS {}", s.triangles.len());
        for [a, b, c] in &s.triangles {
            let _ = writeln!(out, "\t0 3 {a} {b} {c}");
        }
    }
}
