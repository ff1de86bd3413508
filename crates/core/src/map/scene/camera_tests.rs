//! Where the game's camera starts: player 0's HQ over its truck ([`crate::map::camera_start`],
//! [`MapDetails::game_start_target`]).

use super::tests::map;
use super::*;
use crate::files::MemorySource;
use crate::map::{MapObject, Owner, place};
use crate::model::Details;
use crate::wz::Stats;

fn object(kind: ObjectKind, id: &str, player: u32, x: i32, y: i32) -> MapObject {
    MapObject {
        kind,
        stats_id: id.into(),
        owner: Owner::Player(player),
        x,
        y,
        direction: 0,
        id: None,
        modules: 0,
        key: format!("{id} {x}"),
        refused: None,
        logged: Vec::new(),
    }
}

fn stats() -> (Stats, Files, Vec<FileRef>) {
    let source = MemorySource::new()
        .with(
            "d/stats/templates.json",
            r#"{"Truck": {"type": "DROID", "body": "Body1", "propulsion": "wheeled01",
                          "construct": "Spade1Mk1"}}"#,
        )
        .with(
            "d/stats/structure.json",
            r#"{"A0CommandCentre": {"type": "HQ", "width": 2, "breadth": 2}}"#,
        );
    let (files, roots) = (Files::new(source), vec![FileRef::Disk("d".into())]);
    let (stats, _) = Stats::load(&files, &roots);
    (stats, files, roots)
}

/// The camera's object and the model point it looks at, for `objects` (all placed).
fn camera(objects: Vec<MapObject>) -> (Option<(i32, i32)>, glam::Vec3) {
    let (stats, files, roots) = stats();
    let m = map(objects, &[]);
    let p = place(&m, &stats, &files, &roots);
    let s = scene(&m, &p, &stats, &files, &roots, &SceneOptions::default());
    let Details::Map(d) = &s.details else {
        panic!("a map's details")
    };
    assert_eq!(d.objects.len(), m.objects.len(), "every object placed");
    let at = d.camera_start().map(|i| (m.objects[i].x, m.objects[i].y));
    (at, d.game_start_target())
}

#[test]
fn the_camera_starts_over_player_0s_hq_else_its_truck_else_the_centre() {
    use ObjectKind::{Droid, Structure};
    // Player 0's HQ wins over its truck (loaded first) and over player 1's HQ.
    let (at, target) = camera(vec![
        object(Droid, "Truck", 0, 700, 500),
        object(Structure, "A0CommandCentre", 1, 640, 384),
        object(Structure, "A0CommandCentre", 0, 384, 384),
    ]);
    assert_eq!(at, Some((384, 384)));
    assert_eq!((target.x, target.z), (-384.0, -384.0));
    // Without an HQ: the truck of player 0's start position, at its height.
    let (at, target) = camera(vec![
        object(Structure, "A0CommandCentre", 1, 640, 384),
        object(Droid, "Truck", 0, 700, 500),
    ]);
    assert_eq!(at, Some((700, 500)));
    assert_eq!((target.x, target.z), (-700.0, -500.0));
    assert!(target.y > 0.0, "at the truck's height");
    // Player 0 with neither: the map's centre on the ground.
    let (at, target) = camera(vec![object(Droid, "Truck", 1, 700, 500)]);
    assert_eq!(at, None);
    let (w, h) = (tests::W as f32 * 128.0, tests::H as f32 * 128.0);
    assert_eq!(target, glam::Vec3::new(-w / 2.0, 0.0, -h / 2.0));
}

/// The start positions follow the game's order: trucks first, then every HQ over them;
/// a player with an HQ and no truck has one (no `map/start-position-missing` for it).
#[test]
fn an_hq_sets_its_players_start_over_the_truck() {
    use ObjectKind::{Droid, Structure};
    let (stats, files, roots) = stats();
    let m = map(
        vec![
            object(Droid, "Truck", 0, 700, 500),
            object(Structure, "A0CommandCentre", 0, 384, 384),
            object(Structure, "A0CommandCentre", 1, 640, 384),
        ],
        &[],
    );
    let p = place(&m, &stats, &files, &roots);
    let starts = crate::map::start_positions(&p, &stats);
    let at: Vec<(u32, i32, i32, usize)> = starts
        .iter()
        .map(|s| (s.player, s.x, s.y, s.index))
        .collect();
    assert_eq!(at, vec![(0, 384, 384, 1), (1, 640, 384, 2)]);
    assert_eq!(crate::map::camera_start(&starts), Some(1));
}
