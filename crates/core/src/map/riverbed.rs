//! The riverbed the game digs under water when it loads a map (`generateRiverbed` in
//! `src/map.cpp`): every *water corner* (the four tiles around it of terrain type water) is
//! lowered by 500 units less a share of 401 that grows towards the shore, the shares
//! smoothed by up to 20 passes of a 4-neighbour average and jittered by a Mersenne
//! Twister seeded with 12345 — the same on every load, so the same here.
//!
//! The game saves water tiles at their stored height, so only objects standing in water
//! show the lowered ground (a feature's z is its footprint's top-left corner).

use super::terrain::Terrain;

/// Terrain type of water (`TER_WATER`).
const WATER: u16 = 7;
/// How far a water corner is lowered at most, and the share taken off towards the shore
/// (`WATER_MIN_DEPTH`, `WATER_MAX_DEPTH`).
const MIN_DEPTH: i32 = 500;
const MAX_DEPTH: i32 = MIN_DEPTH + 400;

/// Whether corner (x, y) is a water corner (`isWaterVertex`).
pub(crate) fn is_water_corner(t: &Terrain, types: &[u16], x: i32, y: i32) -> bool {
    let (w, h) = (t.width as i32, t.height as i32);
    if x < 1 || y < 1 || x > w - 1 || y > h - 1 {
        return false;
    }
    let water = |tx: i32, ty: i32| {
        let tx = tx.clamp(0, w - 1);
        let ty = ty.clamp(0, h - 1);
        let tile = t.textures[tx as usize + ty as usize * w as usize] & super::bits::NUMBER;
        types.get(usize::from(tile)) == Some(&WATER)
    };
    water(x, y) && water(x - 1, y) && water(x, y - 1) && water(x - 1, y - 1)
}

/// The corner heights after the riverbed pass (the same as `t`'s where no corner is
/// water), at `x + y · width`.
pub(crate) fn riverbed(t: &Terrain, types: &[u16]) -> Vec<i32> {
    let (w, h) = (t.width as usize, t.height as usize);
    let mut heights = t.heights.clone();
    let water: Vec<bool> = (0..w * h)
        .map(|i| is_water_corner(t, types, (i % w) as i32, (i / w) as i32))
        .collect();
    if !water.contains(&true) {
        return heights;
    }
    // idx[x][y], stored at x + y · w: 100 under water, 0 on land.
    let mut idx: Vec<i32> = water.iter().map(|&b| if b { 100 } else { 0 }).collect();
    let at = |x: usize, y: usize| x + y * w;
    let mut max_idx;
    let mut passes = 0;
    loop {
        max_idx = 1;
        for x in 1..w.saturating_sub(2) {
            for y in 1..h.saturating_sub(2) {
                if idx[at(x, y)] > 0 {
                    let v = (idx[at(x - 1, y)]
                        + idx[at(x, y - 1)]
                        + idx[at(x, y + 1)]
                        + idx[at(x + 1, y)])
                        / 4;
                    idx[at(x, y)] = v;
                    max_idx = max_idx.max(v);
                }
            }
        }
        passes += 1;
        if !(max_idx > 90 && passes < 20) {
            break;
        }
    }
    // `std::mt19937` seeded with 12345, as the game seeds it here.
    let mut mt = super::GameRng::new(12345);
    for x in 0..w {
        for y in 0..h {
            let i = at(x, y);
            let v = idx[i].min(max_idx).max(1);
            if water[i] {
                let r = mt.next_u32() % (max_idx as u32 / 6 + 1);
                // The game mixes int and uint32 here: wrapping arithmetic gives its bits.
                let l =
                    (MAX_DEPTH + 1 - MIN_DEPTH).wrapping_mul((max_idx - v).wrapping_sub(r as i32));
                heights[i] -= MIN_DEPTH - l / max_idx;
            }
        }
    }
    heights
}
