//! Decal tiles and what is drawn under them.
//!
//! In 4.x the tile images of `tertilesc{1,2,3}hw-128` listed in the tileset's
//! `tileset/*decals.txt` are decals: cut-outs (cliff edges, roads, craters) drawn over the
//! blended ground textures (`SetDecals`, `drawDecals`); elsewhere their pixels are
//! transparent. The blended ground comes from KTX2 pages Vitrine does not decode yet, so
//! under each decal tile the scene draws the classic image of a tile made only of the
//! ground the decal's corners mostly stand on (else the plain tile with most of that
//! ground; else the next ground; else what is under the decal with most of that ground)
//! (`tileset/*ground.txt`, the table
//! `determineGroundType` reads): the nearest the tile images alone come to the ground the
//! game shows there.

use super::super::Tileset;
use crate::files::{FileRef, Files, Lookup};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Largest table read (tile numbers are 9 bits).
const MAX_TILES: usize = 512;

/// The tileset's decal tiles, each with the tile drawn under it (if one is found).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Decals {
    /// Decal tile number → the plain tile of its ground, or `None`.
    pub under: BTreeMap<u16, Option<u16>>,
}

impl Decals {
    /// Whether tile `n` is a decal.
    pub fn is_decal(&self, n: u16) -> bool {
        self.under.contains_key(&n)
    }

    /// Whether tile `n` is a decal with a tile to draw under it (one without is drawn
    /// opaque: its transparent pixels' colour, rather than a hole).
    pub fn is_blended(&self, n: u16) -> bool {
        matches!(self.under.get(&n), Some(Some(_)))
    }
}

/// The file names of a tileset's tables (`arizona`, `urban`, `rockie`).
pub(crate) fn stem(tileset: Tileset) -> &'static str {
    match tileset {
        Tileset::Arizona => "arizona",
        Tileset::Urban => "urban",
        Tileset::Rockies => "rockie",
    }
}

/// Reads `tileset/{stem}decals.txt` and `{stem}ground.txt` from the first root that has
/// them; `None` where either is missing. Lines that are not what the game writes are
/// skipped: a table is advice for drawing, never a reason to refuse a map.
pub(crate) fn read(
    files: &Files,
    lookup: &mut Lookup,
    roots: &[FileRef],
    tileset: Tileset,
) -> Option<Decals> {
    let mut text = |name: String| {
        let f = roots
            .iter()
            .find_map(|r| lookup.walk(r, &["tileset", &name]))?;
        let bytes = files.read(&f).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    };
    // Both asked for before either is used: from a remote archive they come in one fetch.
    let (decals, ground) = (
        text(format!("{}decals.txt", stem(tileset))),
        text(format!("{}ground.txt", stem(tileset))),
    );
    Some(parse(&decals?, &ground?))
}

/// Builds [`Decals`] from the two tables' text.
pub fn parse(decals: &str, ground: &str) -> Decals {
    // The first line of each is `name,count`.
    let listed: HashSet<u16> = decals
        .lines()
        .skip(1)
        .filter_map(|l| l.trim().parse::<u16>().ok())
        .filter(|&n| usize::from(n) < MAX_TILES)
        .collect();
    let table: Vec<Vec<&str>> = ground
        .lines()
        .skip(1)
        .take(MAX_TILES)
        .map(|l| l.split(',').map(str::trim).collect())
        .collect();
    // For each ground, the plain tile with the most corners of it (ties: the lowest
    // number): all four where the tileset has such a tile.
    let mut plain: HashMap<&str, (usize, u16)> = HashMap::new();
    for (n, corners) in table.iter().enumerate() {
        let n = n as u16;
        if listed.contains(&n) || corners.len() != 4 {
            continue;
        }
        for g in corners {
            let count = corners.iter().filter(|c| *c == g).count();
            let best = plain.entry(g).or_insert((count, n));
            if count > best.0 {
                *best = (count, n);
            }
        }
    }
    let plain: HashMap<&str, u16> = plain.into_iter().map(|(g, (_, n))| (g, n)).collect();
    let corners_of = |n: u16| table.get(usize::from(n)).cloned().unwrap_or_default();
    let mut under: BTreeMap<u16, Option<u16>> = listed
        .iter()
        .map(|&n| {
            (
                n,
                by_votes(&corners_of(n)).find_map(|g| plain.get(g).copied()),
            )
        })
        .collect();
    // A decal all of whose grounds only decals have (a cliff between snow-cliffs): the
    // tile under the decal with the most corners of the same ground that has one.
    let resolved: Vec<(u16, u16)> = under
        .iter()
        .filter_map(|(&n, u)| u.map(|u| (n, u)))
        .collect();
    for (&n, u) in under.iter_mut().filter(|(_, u)| u.is_none()) {
        *u = by_votes(&corners_of(n)).find_map(|g| {
            let count = |d: u16| corners_of(d).iter().filter(|c| **c == g).count();
            let best = resolved
                .iter()
                .filter(|(d, _)| count(*d) > 0)
                .max_by_key(|(d, _)| (count(*d), std::cmp::Reverse(*d)));
            best.map(|&(_, u)| u)
        });
    }
    Decals { under }
}

/// The corners' grounds, the most frequent first (ties: the first named).
fn by_votes<'a>(corners: &[&'a str]) -> impl Iterator<Item = &'a str> {
    let mut votes: Vec<(&str, usize, usize)> = Vec::new();
    for (i, c) in corners.iter().enumerate() {
        match votes.iter_mut().find(|v| v.0 == *c) {
            Some(v) => v.1 += 1,
            None => votes.push((c, 1, i)),
        }
    }
    votes.sort_by_key(|&(_, n, first)| (std::cmp::Reverse(n), first));
    votes.into_iter().map(|(g, _, _)| g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decal_stands_on_the_plain_tile_of_its_main_ground() {
        let decals = "x_decals,2\n02\n03\n900\nnot a number\n";
        let ground = "x_ground,5\n\
            grass,grass,grass,grass\n\
            rock,rock,rock,rock\n\
            rock,grass,rock,rock\n\
            snow,snow,grass,snow\n\
            short,line\n";
        let d = parse(decals, ground);
        assert!(d.is_decal(2) && d.is_decal(3) && !d.is_decal(0));
        // Three rock corners: the plain rock tile 1.
        assert_eq!(d.under[&2], Some(1));
        // Snow has no plain tile: the next ground by votes, grass (tile 0).
        assert_eq!(d.under[&3], Some(0));
        assert_eq!(d.under.len(), 2);
        assert!(d.is_blended(2) && !d.is_blended(0));
        // A ground only some corners of a plain tile have: that tile.
        let d = parse(
            "x,1\n01\n",
            "x,2\nsand,mud,mud,mud\ncliff,cliff,sand,cliff\n",
        );
        assert_eq!(d.under[&1], Some(0));
        // Only decals have cliff: the tile under the decal with the most cliff corners.
        let d = parse(
            "x,3\n00\n01\n02\n",
            "x,4\ncliff,cliff,cliff,cliff\ncliff,cliff,cliff,sand\ncliff,sand,sand,sand\nsand,sand,sand,sand\n",
        );
        assert_eq!((d.under[&1], d.under[&2]), (Some(3), Some(3)));
        assert_eq!(d.under[&0], Some(3));
        // Nothing plain at all: no tile under it, drawn opaque.
        let d = parse("x,1\n00\n", "x,1\ncliff,cliff,cliff,cliff\n");
        assert_eq!(d.under[&0], None);
        assert!(d.is_decal(0) && !d.is_blended(0));
        assert_eq!(parse("", ""), Decals::default());
    }
}
