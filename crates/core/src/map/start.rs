//! Where each player starts. The game sets a player's start position from the droids a
//! map gives it: the first construction droid of the player's that it loads, while the
//! player's position is still unset ((0, 0)), places it (`loadWzMapDroidInit` in
//! src/game.cpp, through `scriptSetStartPos`). The lobby's start positions, the camera at
//! the start and the rules' `startPositions` all read it; a player with no truck on the
//! map has none.

use super::{ObjectKind, Owner, Placement};
use crate::wz::Stats;
use crate::wz::assemble::is_construct_template;
use serde::Serialize;
use std::collections::BTreeMap;

/// One player's start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StartPosition {
    /// The player (the map's slot).
    pub player: u32,
    /// World x (east) of the truck that set it.
    pub x: i32,
    /// World y (south).
    pub y: i32,
    /// Its index in [`super::Map::objects`].
    pub index: usize,
}

/// The start position of each player that has one, by player, as the game sets them
/// from `placement`'s droids (in load order) with the templates of `stats`. Without
/// templates in the stats no droid is known to be a truck, and there are none.
pub fn start_positions(placement: &Placement, stats: &Stats) -> Vec<StartPosition> {
    let mut at: BTreeMap<u32, StartPosition> = BTreeMap::new();
    for p in &placement.objects {
        let o = &p.object;
        let (ObjectKind::Droid, Owner::Player(player)) = (o.kind, o.owner) else {
            continue;
        };
        // The game's "unset" is (0, 0): a truck there leaves the next one to set it.
        if at.get(&player).is_some_and(|s| (s.x, s.y) != (0, 0)) {
            continue;
        }
        if is_construct_template(stats, &o.stats_id) == Some(true) {
            let s = StartPosition {
                player,
                x: o.x,
                y: o.y,
                index: p.index,
            };
            at.insert(player, s);
        }
    }
    at.into_values().filter(|s| (s.x, s.y) != (0, 0)).collect()
}

/// The object the game's camera starts a level over, by its index in
/// [`super::Map::objects`]: player 0's HQ (the last one loaded, a structure whose stats
/// type is `HQ`), else the truck of player 0's start position (`starts`); `None` where
/// player 0 has neither. The game's structure loading sets a player's start position to
/// each HQ of theirs it loads, over what a truck set (`scriptSetStartPos` for `REF_HQ`):
/// on Sk-Rush 4.3.3's rules read player 0's `startPositions` at the HQ's tile (17, 18),
/// and its camera starts there, not at the truck ([`start_positions`]) 6 tiles east.
pub fn camera_start(
    placement: &Placement,
    stats: &Stats,
    starts: &[StartPosition],
) -> Option<usize> {
    let is_hq = |id: &str| {
        stats
            .structures
            .get(id)
            .and_then(|s| s.kind.as_deref())
            .is_some_and(|k| k.eq_ignore_ascii_case("HQ"))
    };
    let hq = placement
        .objects
        .iter()
        .rev()
        .find(|p| {
            let o = &p.object;
            o.kind == ObjectKind::Structure && o.owner == Owner::Player(0) && is_hq(&o.stats_id)
        })
        .map(|p| p.index);
    hq.or_else(|| starts.iter().find(|s| s.player == 0).map(|s| s.index))
}
