//! Where each player starts. The game sets a player's start position from the objects a
//! map gives it (through `scriptSetStartPos`, src/game.cpp): first from its droids, the
//! first construction droid of the player's that it loads while the player's position is
//! still unset ((0, 0)) placing it (`loadWzMapDroidInit`); then from its structures, each
//! HQ of the player's it loads setting it over what a truck set (`REF_HQ`). The lobby's
//! start positions, the camera at the start and the rules' `startPositions` all read it
//! (4.3.3's rules read player 0's at the HQ's tile on Sk-Rush, Sk-UrbanDuel and
//! Sk-Mountain, where the first trucks stand elsewhere); a player with neither a truck
//! nor an HQ on the map has none.

use super::{ObjectKind, Owner, Placed, Placement};
use crate::wz::Stats;
use crate::wz::assemble::is_construct_template;
use serde::Serialize;
use std::collections::BTreeMap;

/// One player's start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StartPosition {
    /// The player (the map's slot).
    pub player: u32,
    /// World x (east) of the truck or HQ that set it.
    pub x: i32,
    /// World y (south).
    pub y: i32,
    /// Its index in [`super::Map::objects`].
    pub index: usize,
}

impl StartPosition {
    /// `player`'s start set by the placed object `p`.
    fn at(player: u32, p: &Placed) -> StartPosition {
        StartPosition {
            player,
            x: p.object.x,
            y: p.object.y,
            index: p.index,
        }
    }
}

/// The start position of each player that has one, by player, as the game sets them
/// from `placement`'s droids, then its structures (each in load order), with the
/// templates and structure types of `stats`. Without them no droid is known to be a
/// truck and no structure an HQ, and there are none.
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
            at.insert(player, StartPosition::at(player, p));
        }
    }
    // Trucks at (0, 0) set nothing; then every HQ sets its player's, the last one loaded
    // winning.
    at.retain(|_, s| (s.x, s.y) != (0, 0));
    for p in &placement.objects {
        let o = &p.object;
        if let (ObjectKind::Structure, Owner::Player(player)) = (o.kind, o.owner)
            && is_hq(stats, &o.stats_id)
        {
            at.insert(player, StartPosition::at(player, p));
        }
    }
    at.into_values().collect()
}

/// Whether the structure `id` of `stats` is an HQ (its stats type `HQ`).
fn is_hq(stats: &Stats, id: &str) -> bool {
    stats
        .structures
        .get(id)
        .and_then(|s| s.kind.as_deref())
        .is_some_and(|k| k.eq_ignore_ascii_case("HQ"))
}

/// The object the game's camera starts a level over, by its index in
/// [`super::Map::objects`]: the one that set player 0's start position (`starts`, from
/// [`start_positions`]): its last HQ, else its first truck; `None` where player 0 has
/// neither. On Sk-Rush 4.3.3's camera starts over the HQ's tile (17, 18), not over the
/// truck 6 tiles east.
pub fn camera_start(starts: &[StartPosition]) -> Option<usize> {
    starts.iter().find(|s| s.player == 0).map(|s| s.index)
}
