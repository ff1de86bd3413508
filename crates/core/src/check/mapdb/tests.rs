//! Each rule of the map database on a package that passes every rule and on one changed
//! so that the rule fires (and only it, where the database's rules allow).

use super::*;
use crate::map::package_info::{
    Author, Balance, Hq, MapSize, MinMax, PackageInfo, PerPlayer, Scavengers, StartEquality,
};

fn one() -> MinMax {
    MinMax { min: 1, max: 1 }
}

/// A 4-player map the database takes without a word.
fn clean() -> PackageInfo {
    let even = StartEquality {
        units: true,
        structures: true,
        resource_extractors: true,
        power_generators: true,
        factories: true,
        reg_factories: true,
        vtol_factories: true,
        cyborg_factories: true,
        research_centers: true,
        defense_structures: true,
    };
    PackageInfo {
        name: "Clean_Map-4".into(),
        kind: "skirmish".into(),
        players: 4,
        tileset: "rockies".into(),
        author: Some(Author { name: "Ann".into() }),
        additional_authors: Vec::new(),
        license: Some("CC0-1.0".into()),
        created: Some("2024-05-06".into()),
        generator: None,
        mapsize: MapSize { w: 64, h: 64 },
        scavenger: Scavengers {
            units: 0,
            structures: 0,
            factories: 0,
            resource_extractors: 0,
        },
        oil_wells: 12,
        player: PerPlayer {
            units: one(),
            structures: one(),
            resource_extractors: one(),
            power_generators: one(),
            reg_factories: one(),
            vtol_factories: MinMax::default(),
            cyborg_factories: MinMax::default(),
            research_centers: one(),
            defense_structures: MinMax::default(),
        },
        balance: Balance {
            start_equality: even,
        },
        hq: vec![
            Hq {
                x: Some(5),
                y: Some(5)
            };
            4
        ],
        map_mod: false,
        mod_types: Vec::new(),
        level_format: "json",
        map_format: "jsonv2",
        flat_map_package: true,
    }
}

fn today() -> Date {
    Date::new(2026, 6, 1).unwrap()
}

/// The rule ids `info` draws, in order.
fn rules_of(info: &PackageInfo) -> Vec<&'static str> {
    validate(info, "level.json", Some(today()))
        .iter()
        .map(|f| f.rule)
        .collect()
}

/// `change` makes exactly `rules` fire.
fn fires(rules: &[&str], change: impl FnOnce(&mut PackageInfo)) {
    let mut info = clean();
    change(&mut info);
    assert_eq!(rules_of(&info), rules, "{info:#?}");
}

#[test]
fn a_clean_package_has_no_finding() {
    assert_eq!(rules_of(&clean()), Vec::<&str>::new());
    // Every id the checks give is in the registry, at the database's level.
    for r in RULES {
        assert!(r.id.starts_with("mapdb/"));
        assert!(r.summary.starts_with("database "), "{}", r.id);
        let fatal = r.summary.starts_with("database error");
        assert_eq!(r.level == super::super::Level::Error, fatal, "{}", r.id);
    }
}

#[test]
fn the_name() {
    fires(&["mapdb/name-short"], |i| i.name = "Tiny".into());
    fires(&[], |i| i.name = "Small6".into());
    fires(&["mapdb/name-long"], |i| i.name = "A".repeat(31));
    fires(&[], |i| i.name = "A".repeat(30));
    fires(&["mapdb/name-too-long"], |i| i.name = "A".repeat(61));
    fires(&["mapdb/name-characters"], |i| i.name = "Two Words".into());
    fires(&["mapdb/name-characters"], |i| i.name = "Küste_Map".into());
    fires(&[], |i| i.name = "Ok-Name_9".into());
    // The database skips every name check on an empty name.
    fires(&[], |i| i.name = String::new());
}

#[test]
fn type_players_tileset() {
    fires(&["mapdb/type"], |i| i.kind = "campaign".into());
    fires(&["mapdb/players"], |i| {
        i.players = 11;
        i.hq = vec![i.hq[0]; 11];
    });
    fires(&["mapdb/players"], |i| {
        i.players = 1;
        i.hq.truncate(1);
    });
    fires(&[], |i| {
        i.players = 10;
        i.hq = vec![i.hq[0]; 10];
    });
    fires(&["mapdb/tileset"], |i| i.tileset = "Urban".into());
    fires(&[], |i| i.tileset = "urban".into());
}

#[test]
fn the_licence() {
    fires(&["mapdb/license-missing"], |i| i.license = None);
    fires(&["mapdb/license"], |i| i.license = Some("MIT".into()));
    fires(&["mapdb/license"], |i| i.license = Some("CC0 1.0".into()));
    fires(&[], |i| {
        i.license = Some("GPL-2.0-or-later OR CC-BY-SA-3.0".into())
    });
}

#[test]
fn the_author() {
    // A valid licence makes a missing author a non-fatal error; without one, an error.
    fires(&["mapdb/author-missing"], |i| i.author = None);
    fires(&["mapdb/license-missing", "mapdb/author"], |i| {
        i.author = None;
        i.license = None;
    });
    fires(&["mapdb/author"], |i| {
        i.author = None;
        i.additional_authors = vec![Author { name: "Bo".into() }];
    });
    fires(&["mapdb/author"], |i| {
        i.author = Some(Author {
            name: "x".repeat(61),
        })
    });
    fires(&["mapdb/author-empty"], |i| {
        i.author = Some(Author {
            name: String::new(),
        })
    });
    fires(&[], |i| {
        i.author = Some(Author {
            name: "x".repeat(60),
        })
    });
}

#[test]
fn the_created_date() {
    fires(&["mapdb/created-missing"], |i| i.created = None);
    let date = |d: &str| {
        let d = d.to_string();
        move |i: &mut PackageInfo| i.created = Some(d)
    };
    fires(&["mapdb/created"], date("06/05/2024"));
    fires(&["mapdb/created"], date("2024-13-01"));
    fires(&["mapdb/created"], date("2023-02-29"));
    fires(&["mapdb/created"], date("1998-12-31"));
    // Tomorrow is allowed; the day after is the future.
    fires(&[], date("2026-06-02"));
    fires(&["mapdb/created"], date("2026-06-03"));
    fires(&[], date("2024-02-29 13:45:00"));
    fires(&[], date("2013-08-11 20:31:02"));
    // Without a clock, the future is not judged.
    let mut info = clean();
    info.created = Some("2999-01-01".into());
    assert!(validate(&info, "level.json", None).is_empty());
}

#[test]
fn the_map_size() {
    fires(&["mapdb/map-size"], |i| i.mapsize.w = 257);
    fires(&["mapdb/map-size"], |i| i.mapsize.h = 0);
    fires(&[], |i| i.mapsize = MapSize { w: 256, h: 1 });
}

#[test]
fn oil_hq_and_bases() {
    fires(&["mapdb/oil"], |i| {
        i.oil_wells = 0;
        i.player.resource_extractors = MinMax::default();
    });
    fires(&[], |i| i.oil_wells = 0);
    // Players 0 and 1 are never checked; 2 and 3 are.
    fires(&["mapdb/hq"], |i| i.hq[3] = Hq { x: None, y: None });
    fires(&[], |i| {
        i.hq[0] = Hq { x: None, y: None };
        i.hq[1] = Hq { x: None, y: None };
    });
    fires(&["mapdb/power-generator"], |i| {
        i.player.power_generators.min = 0
    });
    fires(&["mapdb/research"], |i| i.player.research_centers.min = 0);
    fires(&["mapdb/factory"], |i| i.player.reg_factories.min = 0);
    fires(&[], |i| {
        i.player.reg_factories.min = 0;
        i.player.cyborg_factories.min = 1;
    });
}

#[test]
fn map_mods() {
    let with = |types: &'static [&'static str]| {
        move |i: &mut PackageInfo| {
            i.map_mod = true;
            i.mod_types = types.to_vec();
        }
    };
    fires(&["mapdb/map-mod-types"], with(&[]));
    fires(&["mapdb/map-mod-strip"], with(&["stats"]));
    fires(
        &["mapdb/map-mod-textures", "mapdb/map-mod-strip"],
        with(&["stats", "textures"]),
    );
    fires(&["mapdb/map-mod"], with(&["gamemodels", "datasets"]));
    fires(&[], |i| i.mod_types = vec!["stats"]);
}

#[test]
fn formats() {
    fires(&["mapdb/level-format"], |i| i.level_format = "lev");
    fires(&["mapdb/map-format"], |i| i.map_format = "binary");
    fires(&["mapdb/map-format"], |i| i.map_format = "mixed");
    fires(&[], |i| i.map_format = "script");
    fires(&["mapdb/flat-package"], |i| i.flat_map_package = false);
}
