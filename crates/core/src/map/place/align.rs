//! `alignStructure` and what it needs: flattening under buildings, the height of
//! defences from their model's box, removals that free tiles.

use super::{Occupant, Removal, Removed, State};
use crate::files::{FileRef, Files, Lookup};
use std::collections::HashMap;

/// Structure types the game pulls onto the terrain instead of flattening it
/// (`isPulledToTerrain`).
fn pulled_to_terrain(kind: &str) -> bool {
    matches!(
        kind,
        "DEFENSE" | "WALL" | "CORNER WALL" | "GATE" | "REARM PAD"
    )
}

impl State<'_> {
    /// The top-left tile and size of placed object `slot`'s footprint
    /// (`getStructureBounds`).
    fn footprint(&self, slot: usize) -> (i32, i32, i32, i32) {
        let p = &self.placed[slot];
        let mx = super::map_coord(p.object.x) - p.size.0 / 2;
        let my = super::map_coord(p.object.y) - p.size.1 / 2;
        (mx, my, p.size.0, p.size.1)
    }

    /// `alignStructure`.
    pub(super) fn align(&mut self, slot: usize) {
        let kind = self.structure_kind(slot);
        let (mx, my, sx, sy) = self.footprint(slot);
        if pulled_to_terrain(&kind) {
            self.placed[slot].z = self.pulled_height(slot);
            return;
        }
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for y in my..=my + sy {
            for x in mx..=mx + sx {
                let h = self.terrain.corner(x, y);
                lo = lo.min(h);
                hi = hi.max(h);
            }
        }
        let h = (lo + hi) / 2;
        for y in my..=my + sy {
            for x in mx..=mx + sx {
                self.terrain.set_corner(x, y, h);
                // Features on the flattened tiles are raised with them.
                if let Some(Occupant::Feature(f)) = self.tiles[self.clamped_tile(x, y)] {
                    self.placed[f].z = h;
                }
            }
        }
        self.placed[slot].z = h;
        for y in my - 1..=my + sy {
            for x in mx - 1..=mx + sx {
                if let Some(Occupant::Structure(s)) = self.tiles[self.clamped_tile(x, y)]
                    && s != slot
                    && pulled_to_terrain(&self.structure_kind(s))
                {
                    self.placed[s].z = self.pulled_height(s);
                }
            }
        }
    }

    /// A defence's z: the highest `map_Height` under the four corners of its model's box
    /// (x and z of the first level's points), turned with it; at least 0.
    fn pulled_height(&mut self, slot: usize) -> i32 {
        let p = &self.placed[slot];
        let half = |n: i32| n * super::TILE_UNITS / 2;
        let model = self.models[slot].clone();
        let [min_x, max_x, min_z, max_z] = model.and_then(|m| self.bounds.get(&m)).unwrap_or([
            -half(p.size.0),
            half(p.size.0),
            -half(p.size.1),
            half(p.size.1),
        ]);
        // iSinCosR(direction, 1) for a direction rounded to 90°.
        let (sin, cos) = match p.object.direction {
            0x4000 => (1, 0),
            0x8000 => (0, -1),
            0xC000 => (-1, 0),
            _ => (0, 1),
        };
        let p1 = (max_x * cos - max_z * sin, max_x * sin + max_z * cos);
        let p2 = (min_x * cos - min_z * sin, min_x * sin + min_z * cos);
        let (x, y) = (p.object.x, p.object.y);
        let t = &self.terrain;
        [
            t.height_at(x + p1.0, y + p2.1),
            t.height_at(x + p1.0, y + p1.1),
            t.height_at(x + p2.0, y + p1.1),
            t.height_at(x + p2.0, y + p2.1),
        ]
        .into_iter()
        .fold(0, i32::max)
    }

    /// A droid's z: `map_Height`, and for a ground droid at least the mean of the heights
    /// 20 units either side of it along x, and along y (`updateDroidOrientation`). People,
    /// cyborgs, transporters and lift propulsion are not raised; a transporter hovers
    /// `TRANSPORTER_HOVER_HEIGHT` (10) units over the ground (the judge: Scrappy_Mountain's
    /// two Super Transports at 350 over ground at 340).
    pub(super) fn droid_height(&self, o: &super::MapObject) -> i32 {
        const D: i32 = 20;
        const TRANSPORTER_HOVER_HEIGHT: i32 = 10;
        let (x, y) = (o.x, o.y);
        let t = &self.terrain;
        let z = t.height_at(x, y);
        if self.transporter(&o.stats_id) {
            return z + TRANSPORTER_HOVER_HEIGHT;
        }
        if !self.ground_droid(&o.stats_id) {
            return z;
        }
        let along_x = (t.height_at(x + D, y) + t.height_at(x - D, y)) / 2;
        let along_y = (t.height_at(x, y - D) + t.height_at(x, y + D)) / 2;
        z.max(along_x).max(along_y)
    }

    /// Whether the template is a transporter (`TRANSPORTER`, `SUPERTRANSPORTER`).
    fn transporter(&self, template: &str) -> bool {
        self.stats.templates.get(template).is_some_and(|t| {
            t.kind
                .as_deref()
                .is_some_and(|k| k.to_ascii_uppercase().contains("TRANSPORTER"))
        })
    }

    /// Whether the template is a droid the game tilts to the ground (not a person, a
    /// cyborg, a transporter or a lift propulsion); unknown templates count as ground.
    fn ground_droid(&self, template: &str) -> bool {
        let Some(t) = self.stats.templates.get(template) else {
            return true;
        };
        let kind = t.kind.as_deref().unwrap_or("").to_ascii_uppercase();
        let lift = self
            .stats
            .propulsion
            .get(&t.propulsion)
            .is_some_and(|p| p.is_lift());
        !(kind == "PERSON" || kind.starts_with("CYBORG") || kind.contains("TRANSPORTER") || lift)
    }

    /// Removes the oil resource on tile (x, y), if any (a derrick is built on it).
    pub(super) fn remove_oil(&mut self, x: i32, y: i32) {
        let Some(Occupant::Feature(f)) = self.tile(x, y).and_then(|t| self.tiles[t]) else {
            return;
        };
        let id = &self.placed[f].object.stats_id;
        let is_oil = self
            .stats
            .features
            .get(id)
            .and_then(|s| s.kind.as_deref())
            .map_or(id == "OilResource", |k| {
                k.eq_ignore_ascii_case("OIL RESOURCE")
            });
        if is_oil {
            self.remove_placed(f, Removal::UnderDerrick);
        }
    }

    /// Takes placed object `slot` off the map.
    /// Its footprint's tiles are freed where it still holds them: the work of one
    /// removal is its footprint's, not the map's (a file of features stacked on one
    /// tile removes each in turn).
    pub(super) fn remove_placed(&mut self, slot: usize, why: Removal) {
        self.gone[slot] = true;
        self.removed.push(Removed {
            index: self.placed[slot].index,
            why,
        });
        let (mx, my, sx, sy) = self.footprint(slot);
        for y in my..my + sy {
            for x in mx..mx + sx {
                self.work += 1;
                let Some(t) = self.tile(x, y) else { continue };
                if matches!(self.tiles[t], Some(Occupant::Feature(s) | Occupant::Structure(s)) if s == slot)
                {
                    self.tiles[t] = None;
                }
            }
        }
    }
}

/// Structure models' boxes (`[min x, max x, min z, max z]` of the first level's points,
/// in the PIE's own units), read once each from `structs/` of the data roots.
pub(super) struct BoundsCache<'a> {
    lookup: Lookup,
    roots: &'a [FileRef],
    known: HashMap<String, Option<[i32; 4]>>,
}

impl<'a> BoundsCache<'a> {
    pub(super) fn new(files: &Files, roots: &'a [FileRef]) -> Self {
        BoundsCache {
            lookup: Lookup::new(files),
            roots,
            known: HashMap::new(),
        }
    }

    pub(super) fn get(&mut self, model: &str) -> Option<[i32; 4]> {
        if let Some(b) = self.known.get(model) {
            return *b;
        }
        let file = self
            .roots
            .iter()
            .find_map(|r| self.lookup.walk(r, &["structs", model]));
        let b = file
            .and_then(|f| self.lookup.files().read(&f).ok())
            .and_then(|bytes| pie_box(&String::from_utf8_lossy(&bytes)));
        self.known.insert(model.to_string(), b);
        b
    }
}

/// The x/z box of a PIE's first level's points (`imdload`'s min and max).
pub(crate) fn pie_box(text: &str) -> Option<[i32; 4]> {
    let mut lines = text.lines().map(str::trim);
    lines.find(|l| l.starts_with("LEVEL"))?;
    let count: usize = lines
        .find_map(|l| l.strip_prefix("POINTS"))?
        .trim()
        .parse()
        .ok()?;
    let mut b = [i32::MAX, i32::MIN, i32::MAX, i32::MIN];
    for line in lines.take(count.min(1 << 16)) {
        let v: Vec<f64> = line
            .split_whitespace()
            .take(3)
            .filter_map(|w| w.parse().ok())
            .collect();
        let [x, _, z] = v[..] else { return None };
        let (x, z) = (x as i32, z as i32);
        b = [b[0].min(x), b[1].max(x), b[2].min(z), b[3].max(z)];
    }
    (b[0] <= b[1]).then_some(b)
}
