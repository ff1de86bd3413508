//! Writes the demo model the viewer opens when started without a file:
//! `assets/demo/tank.pie` (PIE 3, two levels: hull with a bobbing ANIMOBJECT and a
//! turret that turns, connectors, team-colour flag) and its texture page and
//! team-colour mask under `assets/demo/texpages/`.
//!
//! Run: `cargo run --example make_demo`. Everything it writes is the project's own work.

use image::{Rgba, RgbaImage};
use std::fmt::Write;

/// Texture page size in pixels (UVs are written in 0..1, PIE 3).
const PAGE: u32 = 256;

/// A rectangle of the texture page in pixels: x, y, w, h.
type Rect = (u32, u32, u32, u32);

const HULL: Rect = (0, 0, 128, 128);
const TRACK: Rect = (128, 0, 128, 64);
const TURRET: Rect = (128, 64, 128, 64);
const BARREL: Rect = (0, 128, 128, 32);
const STRIPE: Rect = (0, 160, 256, 96);

struct Level {
    points: Vec<[f32; 3]>,
    polys: Vec<String>,
}

impl Level {
    fn new() -> Self {
        Level {
            points: Vec::new(),
            polys: Vec::new(),
        }
    }

    /// Adds a box from `lo` to `hi` (PIE units, Y up). `top` and `side` are texture
    /// rects; `taper` shrinks the top face in x and z by that much on each side.
    fn add_box(&mut self, lo: [f32; 3], hi: [f32; 3], top: Rect, side: Rect, taper: f32) {
        let b = self.points.len();
        let (x0, y0, z0) = (lo[0], lo[1], lo[2]);
        let (x1, y1, z1) = (hi[0], hi[1], hi[2]);
        // 0..3 bottom (y0), 4..7 top (y1), each in order (x0,z0) (x1,z0) (x1,z1) (x0,z1).
        for (y, t) in [(y0, 0.0), (y1, taper)] {
            self.points.push([x0 + t, y, z0 + t]);
            self.points.push([x1 - t, y, z0 + t]);
            self.points.push([x1 - t, y, z1 - t]);
            self.points.push([x0 + t, y, z1 - t]);
        }
        // Faces as quads, counter-clockwise seen from outside.
        let faces: [([usize; 4], Rect); 6] = [
            ([4, 7, 6, 5], top),  // top (+Y)
            ([0, 1, 2, 3], side), // bottom (−Y)
            ([3, 2, 6, 7], side), // +Z
            ([1, 0, 4, 5], side), // −Z
            ([2, 1, 5, 6], side), // +X
            ([0, 3, 7, 4], side), // −X
        ];
        for (q, r) in faces {
            let uv = rect_uv(r);
            // Two triangles: (0,1,2) and (0,2,3) of the quad. Flags 200 (textured): the
            // team colour is the model's TYPE 0x10000; on a polygon 0x10000 is the 1999
            // tools' BSP marker, which the game ignores (`pie/polygon-flags`).
            for tri in [[0, 1, 2], [0, 2, 3]] {
                let mut line = format!(
                    "\t200 3 {} {} {}",
                    b + q[tri[0]],
                    b + q[tri[1]],
                    b + q[tri[2]]
                );
                for &i in &tri {
                    let _ = write!(line, " {:.4} {:.4}", uv[i][0], uv[i][1]);
                }
                self.polys.push(line);
            }
        }
    }
}

/// UVs of a rect's corners in quad order: bottom-left, bottom-right, top-right, top-left.
fn rect_uv((x, y, w, h): Rect) -> [[f32; 2]; 4] {
    let p = PAGE as f32;
    let (u0, v0, u1, v1) = (
        x as f32 / p,
        y as f32 / p,
        (x + w) as f32 / p,
        (y + h) as f32 / p,
    );
    let inset = 1.0 / p;
    let (u0, v0, u1, v1) = (u0 + inset, v0 + inset, u1 - inset, v1 - inset);
    [[u0, v1], [u1, v1], [u1, v0], [u0, v0]]
}

fn level_text(out: &mut String, n: usize, level: &Level) {
    let _ = writeln!(out, "LEVEL {n}");
    let _ = writeln!(out, "POINTS {}", level.points.len());
    for p in &level.points {
        let _ = writeln!(out, "\t{} {} {}", p[0], p[1], p[2]);
    }
    let _ = writeln!(out, "POLYGONS {}", level.polys.len());
    for l in &level.polys {
        let _ = writeln!(out, "{l}");
    }
}

/// The demo PIE text (also read by `tests/cli/check.rs`, which holds `assets/demo` to it).
pub fn pie() -> String {
    // Level 1: hull and two tracks. The tank faces −Z, as Warzone 2100 models do.
    let mut hull = Level::new();
    hull.add_box([-22.0, 8.0, -34.0], [22.0, 22.0, 30.0], STRIPE, HULL, 4.0);
    hull.add_box([-30.0, 0.0, -36.0], [-20.0, 14.0, 34.0], TRACK, TRACK, 0.0);
    hull.add_box([20.0, 0.0, -36.0], [30.0, 14.0, 34.0], TRACK, TRACK, 0.0);
    // Level 2: turret and barrel, modelled around the vertical axis so it turns in place.
    let mut turret = Level::new();
    turret.add_box(
        [-14.0, 22.0, -14.0],
        [14.0, 33.0, 16.0],
        STRIPE,
        TURRET,
        3.0,
    );
    turret.add_box([-2.5, 25.0, -52.0], [2.5, 30.0, -14.0], BARREL, BARREL, 0.0);

    let mut s = String::new();
    s.push_str("PIE 3\nTYPE 10200\nTEXTURE 0 page-90-demo-tank.png 256 256\nLEVELS 2\n");
    level_text(&mut s, 1, &hull);
    // Connector 1: turret mount on top of the hull; file order x y z with z up.
    s.push_str("CONNECTORS 2\n\t0 0 22\n\t0 -34 14\n");
    // Hull bobs: 8 frames of 100 ms; file position y/z swapped, in 1/1000 units.
    s.push_str("ANIMOBJECT 100 0 8\n");
    for f in 0..8 {
        let bob = ((f as f32 / 8.0) * std::f32::consts::TAU).sin() * 600.0;
        let _ = writeln!(s, "\t{f} 0 0 {} 0 0 0 1 1 1", bob.round() as i32);
    }
    level_text(&mut s, 2, &turret);
    // Connector on the muzzle: model (0, 27.5, −52) → file (0, −52, 27.5).
    s.push_str("CONNECTORS 1\n\t0 -52 27\n");
    // Turret turns a full circle: 24 frames of 125 ms, yaw = −rotZ/1000 degrees.
    s.push_str("ANIMOBJECT 125 0 24\n");
    for f in 0..24 {
        let _ = writeln!(s, "\t{f} 0 0 0 0 0 {} 1 1 1", -(f * 15_000));
    }
    s
}

fn fill(img: &mut RgbaImage, (x, y, w, h): Rect, f: impl Fn(u32, u32) -> [u8; 4]) {
    for j in 0..h {
        for i in 0..w {
            img.put_pixel(x + i, y + j, Rgba(f(i, j)));
        }
    }
}

/// The texture page and its team-colour mask.
pub fn textures() -> (RgbaImage, RgbaImage) {
    let mut page = RgbaImage::new(PAGE, PAGE);
    let mut mask = RgbaImage::new(PAGE, PAGE);
    // Hull plates: olive steel with panel seams and rivets.
    fill(&mut page, HULL, |i, j| {
        let seam = i % 32 == 0 || j % 42 == 0;
        let rivet = (i % 32 == 4 || i % 32 == 28) && j % 14 == 7;
        let n = ((i * 7 + j * 13) % 9) as u8;
        if seam {
            [52, 58, 40, 255]
        } else if rivet {
            [150, 156, 128, 255]
        } else {
            [98 + n, 108 + n, 76 + n, 255]
        }
    });
    // Tracks: dark treads.
    fill(&mut page, TRACK, |i, _| {
        if i % 10 < 3 {
            [30, 30, 32, 255]
        } else {
            [64, 62, 60, 255]
        }
    });
    // Turret: lighter steel with a hatch outline.
    fill(&mut page, TURRET, |i, j| {
        let hatch = (i as i32 - 64).abs() + (j as i32 - 32).abs() == 20;
        if hatch {
            [60, 66, 50, 255]
        } else {
            [118, 126, 96, 255]
        }
    });
    // Barrel: gunmetal with a gradient.
    fill(&mut page, BARREL, |_, j| {
        let g = 70 + (j * 3) as u8;
        [g, g, g + 6, 255]
    });
    // Team-colour area: neutral grey; the mask's alpha lets the team colour through.
    fill(&mut page, STRIPE, |i, j| {
        let edge = !(4..=91).contains(&j);
        if edge {
            [60, 60, 60, 255]
        } else {
            let n = ((i + j) % 5) as u8;
            [136 + n, 136 + n, 136 + n, 255]
        }
    });
    fill(&mut mask, STRIPE, |_, j| {
        let a = if (4..=91).contains(&j) { 255 } else { 0 };
        [255, 255, 255, a]
    });
    (page, mask)
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    std::fs::create_dir_all(root.join("texpages")).expect("create assets/demo/texpages");
    std::fs::write(root.join("tank.pie"), pie()).expect("write tank.pie");
    let (page, mask) = textures();
    page.save(root.join("texpages/page-90-demo-tank.png"))
        .expect("write texture page");
    mask.save(root.join("texpages/page-90_tcmask.png"))
        .expect("write tcmask");
    println!("wrote {}", root.display());
}
