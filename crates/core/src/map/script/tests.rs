//! Map scripts: `setMapData`'s shapes and checks, `gameRand`, and every refusal.

use super::{DEFAULT_SEED, MAX_ELEMENTS, run_script};
use crate::formats::LoadError;
use crate::map::{ObjectKind, Owner};
use crate::model::Location;

fn run(js: &str) -> Result<super::ScriptMap, LoadError> {
    run_script(js.as_bytes(), DEFAULT_SEED, 2)
}

fn refused(js: &str) -> LoadError {
    match run(js) {
        Ok(m) => panic!("ran: {}×{}", m.width, m.height),
        Err(e) => e,
    }
}

#[test]
fn set_map_data_gives_the_terrain_and_the_objects() {
    let m = run(r#"
        var s = [{name: "A0CommandCentre", position: [192, 320], direction: 0x4000, modules: 0, player: 1},
                 {name: "A0LightFactory", position: [448, 448], direction: 0, modules: 2, player: 7},
                 {name: "WallTower01", position: [64, 64], direction: 0, modules: 0, player: -1}];
        var d = [{name: "ConstructionDroid", position: [100, 200], direction: 12345, player: 0}];
        var f = [{name: "OilResource", position: [300, 301], direction: 7}];
        setMapData(3, 2, [1, 2, 3, 0x8000 | 4, 5, 6], [0, 10, 20, 30, 600, 510], s, d, f);
    "#)
    .unwrap();
    assert_eq!((m.width, m.height), (3, 2));
    assert_eq!(m.textures, [1, 2, 3, 0x8004, 5, 6]);
    // 600 is over the game's 510: capped, with a note (the game logs it, not fatal).
    assert_eq!(m.heights, [0, 10, 20, 30, 510, 510]);
    assert!(
        m.notes.iter().any(|n| n.contains("height[4] = 600")),
        "{:?}",
        m.notes
    );
    // Droids, features, structures: the game's load order.
    let kinds: Vec<ObjectKind> = m.objects.iter().map(|o| o.kind).collect();
    use ObjectKind::*;
    assert_eq!(kinds, [Droid, Feature, Structure, Structure, Structure]);
    let d = &m.objects[0];
    assert_eq!(
        (d.x, d.y, d.direction, d.owner),
        (100, 200, 12345, Owner::Player(0))
    );
    assert_eq!(
        (m.objects[1].owner, m.objects[1].direction),
        (Owner::None, 7)
    );
    let s = &m.objects[2];
    assert_eq!(
        (s.stats_id.as_str(), s.x, s.y),
        ("A0CommandCentre", 192, 320)
    );
    assert_eq!(
        (s.direction, s.owner, s.key.as_str()),
        (0x4000, Owner::Player(1), "structures[0]")
    );
    // Slot max(players, 7) and -1 are the scavengers.
    assert_eq!(
        (m.objects[3].owner, m.objects[3].modules),
        (Owner::Scavenger, 2)
    );
    assert_eq!(m.objects[4].owner, Owner::Scavenger);
}

#[test]
fn game_rand_is_the_seeded_mt19937() {
    // std::mt19937(5489)'s first outputs are those of the reference mt19937ar.c with
    // init_genrand(5489) (see mt.rs): 3499211612, 581869302, 3890346734, 3586334585.
    // gameRand(mod) is the output modulo mod: 3586334585 % 1000 = 585.
    let m = run(r#"
        var a = gameRand(), b = gameRand(), c = gameRand(), d = gameRand(1000);
        if (a !== 3499211612 || b !== 581869302 || c !== 3890346734 || d !== 585)
            throw new Error("gameRand: " + [a, b, c, d]);
        setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], []);
    "#);
    assert!(m.is_ok(), "{m:?}");
    // Another seed, another map.
    let js = "var h = [gameRand(500), gameRand(500), gameRand(500), gameRand(500)];\n\
              setMapData(2, 2, [0, 0, 0, 0], h, [], [], []);";
    let a = run_script(js.as_bytes(), 1, 2).unwrap();
    let b = run_script(js.as_bytes(), 2, 2).unwrap();
    assert_ne!(a.heights, b.heights);
    assert_eq!(a, run_script(js.as_bytes(), 1, 2).unwrap());
}

#[test]
fn the_game_constants_are_there_and_its_missing_builtins_are_missing() {
    let m = run(r#"
        if (XFLIP !== 0x8000 || YFLIP !== 0x4000 || ROTMASK !== 0x3000 || ROTSHIFT !== 12
            || TRIFLIP !== 0x800 || preview !== false) throw new Error("constants");
        if (typeof Date !== "undefined" || typeof JSON !== "undefined" || typeof eval !== "undefined")
            throw new Error("the game's context has no Date, JSON or eval");
        var r = Math.random();
        if (!(r >= 0 && r < 1)) throw new Error("Math.random " + r);
        setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], []);
    "#);
    assert!(m.is_ok(), "{m:?}");
}

#[test]
fn set_map_data_refuses_what_the_game_refuses() {
    let cases = [
        (
            "setMapData(2, 2, [0,0,0,0], [0,0,0,0], [], []);",
            "7 parameters",
        ),
        (
            "setMapData('2', 2, [0,0,0,0], [0,0,0,0], [], [], []);",
            "mapWidth must be a number",
        ),
        (
            "setMapData(2, 2, 5, [0,0,0,0], [], [], []);",
            "texture must be an array",
        ),
        (
            "setMapData(2, 2, [0,0,0,0], [0,0,0,0], {}, [], []);",
            "structures must be an array",
        ),
        (
            "setMapData(1, 2, [0,0], [0,0], [], [], []);",
            "out of bounds",
        ),
        (
            "setMapData(257, 2, Array(514).fill(0), Array(514).fill(0), [], [], []);",
            "at most 256",
        ),
        (
            "setMapData(2, 2, [0,0,0], [0,0,0,0], [], [], []);",
            "texture array length must equal",
        ),
        (
            "setMapData(2, 2, [0,0,0,0], [0,0], [], [], []);",
            "height array length must equal",
        ),
        (
            "setMapData(2, 2, [0,0,0,70000], [0,0,0,0], [], [], []);",
            "exceeds 65535",
        ),
        (
            "setMapData(2, 2, [0,0,0,0], [0,0,0,0], [{name: 'X', position: [1, 2, 3]}], [], []);",
            "position array length must equal 2",
        ),
        (
            "setMapData(2, 2, [0,0,0,0], [0,0,0,0], [], [{name: 'X', direction: 70000}], []);",
            "invalid direction",
        ),
        (
            "setMapData(2, 2, [0,0,0,0], [0,0,0,0], [{name: 'X', modules: 255}], [], []);",
            "invalid modules",
        ),
        (
            "log(1, 2); setMapData(2, 2, [0,0,0,0], [0,0,0,0], [], [], []);",
            "one parameter",
        ),
    ];
    for (js, want) in cases {
        let e = refused(js);
        assert!(e.message.contains(want), "{js}: {e}");
        assert_eq!(e.location, Location::Line(1), "{js}: {e}");
    }
}

#[test]
fn every_failure_is_an_error_at_its_line() {
    // An uncaught throw, at its line.
    let e = refused("var a = 1;\n\nthrow new Error('boom');\n");
    assert_eq!(e.location, Location::Line(3), "{e}");
    assert!(e.message.contains("boom"), "{e}");
    // A syntax error, at its line.
    let e = refused("var a = 1;\nvar b = ;\n");
    assert_eq!(e.location, Location::Line(2), "{e}");
    assert!(e.message.contains("syntax error"), "{e}");
    // setMapData never called.
    let e = refused("var a = gameRand();");
    assert!(e.message.contains("without calling setMapData"), "{e}");
    // A function 4.3.3 does not have (Boa gives no line for this one).
    let e = refused("\ngenerateFractalValueNoise(2, 2, 10, 5, 4);");
    assert!(
        e.message
            .contains("generateFractalValueNoise is not defined"),
        "{e}"
    );
    assert!(
        e.message
            .contains("the script calls generateFractalValueNoise")
            && e.message.contains("a newer game is needed"),
        "{e}"
    );
    assert_eq!(e.kind, crate::formats::ErrorKind::Unsupported);
    // Any other unknown name stays the script's own fault.
    let e = refused(
        "
generateFractalValueNoiseX(2);",
    );
    assert!(!e.message.contains("newer game"), "{e}");
    let e = refused(
        "
notAHelper(2);",
    );
    assert!(
        !e.message.contains("newer game") && e.message.contains("ReferenceError"),
        "{e}"
    );
}

#[test]
fn an_endless_loop_stops() {
    // The work budget, made short (the real one lets an endless loop run for minutes in
    // an unoptimised build): the same mechanism, the same refusal.
    let js = "var i = 0;\nwhile (true) { i++; }\n";
    let e = super::run::run_limited(js.as_bytes(), DEFAULT_SEED, 2, 20).unwrap_err();
    assert!(e.message.contains("work budget"), "{e}");
    // An endless loop inside a callback native code runs: Boa's loop limit per frame.
    let js = "[1].forEach(function () { for (;;) {} });";
    let e = super::run::run_limited(js.as_bytes(), DEFAULT_SEED, 2, u64::MAX).unwrap_err();
    assert!(e.message.contains("loop"), "{e}");
}

#[test]
fn deep_recursion_stops() {
    let e = refused("function f(n) { return f(n + 1) + 1; }\nf(0);\n");
    assert!(e.message.contains("recursive calls"), "{e}");
    assert!(matches!(e.location, Location::Line(1 | 2)), "{e}");
}

#[test]
fn endless_allocation_stops() {
    // Big arrays built by natives: each charged against the run's element budget.
    let e = refused("var keep = [];\nwhile (true) keep.push('x'.repeat(1 << 19));\n");
    assert!(e.message.contains("memory bound"), "{e}");
    assert_eq!(e.location, Location::Line(2), "{e}");
    // One enormous array or string at once.
    let e = refused("var a = Array(4294967295).fill(0);");
    assert!(e.message.contains("memory bound"), "{e}");
    let e = refused("var s = 'x'.repeat(1 << 30);");
    assert!(e.message.contains("memory bound"), "{e}");
    // The charge is per run: MAX_ELEMENTS elements, then a refusal, kept or not.
    let per = MAX_ELEMENTS / 8;
    let e = refused(&format!("for (var i = 0; i < 9; i++) 'x'.padEnd({per});"));
    assert!(e.message.contains("memory bound"), "{e}");
}

#[test]
fn brackets_nested_past_the_limit_are_refused_before_parsing() {
    use super::MAX_NESTING;
    let deep = |n: usize| format!("var x = 1;\nvar y = {}1{};\n", "(".repeat(n), ")".repeat(n));
    let e = refused(&deep(MAX_NESTING as usize + 1));
    assert!(e.message.contains("nested more than 32"), "{e}");
    assert_eq!(e.location, Location::Line(2), "{e}");
    // Brackets in strings, comments and template text are not nesting; a template's
    // `${…}` is.
    let quiet = "(".repeat(100);
    let js = format!(
        "// {quiet}\n/* {quiet} */\nvar s = '{quiet}' + \"{quiet}\" + `{quiet}${{1}}{quiet}`;\n\
         setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], []);\n"
    );
    assert!(run(&js).is_ok(), "{:?}", run(&js).err());
    let e = refused(&format!(
        "var t = `{}1{}`;",
        "${`".repeat(40),
        "`}".repeat(40)
    ));
    assert!(e.message.contains("nested"), "{e}");
}

#[test]
fn a_script_over_the_size_limit_is_refused_unread() {
    let js = " ".repeat(super::MAX_SOURCE_BYTES as usize + 1);
    let e = refused(&js);
    assert!(e.message.contains("limited to"), "{e}");
    assert!(super::script_too_large(super::MAX_SOURCE_BYTES).is_none());
}

#[test]
fn what_the_games_context_lacks_is_refused_at_its_line() {
    for (js, what) in [
        ("var a = 1;\nvar r = /(a+)+$/;", "regular expression"),
        ("var a = 1;\nvar b = 3n ** 400n;", "BigInt"),
        ("var a = 1;\nasync function f() {}", "async"),
        ("var a = 1;\nvar f = async () => 1;", "async"),
        ("var a = 1;\nvar o = {async f() { await 0; }};", "await"),
    ] {
        let e = refused(js);
        assert!(e.message.contains(what), "{js}: {e}");
        assert_eq!(e.location, Location::Line(2), "{js}: {e}");
    }
    // A regular expression from a string: the methods that would make one are gone.
    let e = refused("var a = 1;\n'aaa'.match('(a+)+$');");
    assert!(e.message.contains("TypeError"), "{e}");
    // Generators and what the game has stay.
    let js = "function* g() { yield 1; }\nvar n = [...g()].length + 'ab'.split('').length;\n\
              setMapData(2, 2, [0, 0, 0, n], [0, 0, 0, 0], [], [], []);\n";
    assert_eq!(run(js).unwrap().textures[3], 3);
}

#[test]
fn what_a_script_hands_back_is_bounded() {
    // Objects add up over calls, as in the game, to at most 65535 of a kind.
    let js = "var s = [];\nfor (var i = 0; i < 40000; i++) s.push({name: 'Boulder1', \
              position: [64, 64], direction: 0});\n\
              setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], s);\n\
              setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], s);\n";
    let e = refused(js);
    assert!(e.message.contains("at most 65535"), "{e}");
    assert_eq!(e.location, Location::Line(4), "{e}");
    let js = "var n = 'x'.repeat(129);\n\
              setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], [{name: n, position: [64, 64], direction: 0}]);\n";
    let e = refused(js);
    assert!(e.message.contains("at most 128"), "{e}");
    // A long log line is cut.
    let js =
        "log('y'.repeat(100000));\nsetMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], []);\n";
    let notes = run(js).unwrap().notes;
    assert!(
        notes[0].len() < 1000 && notes[0].ends_with('…'),
        "{}",
        notes[0].len()
    );
}

#[test]
fn a_watched_run_says_the_line_it_was_last_seen_on() {
    use std::sync::atomic::{AtomicU32, Ordering};
    static LINE: AtomicU32 = AtomicU32::new(0);
    let js = "var a = [1, 2];\n\nvar b = a.map(function (x) { return x; });\nlog(1);\nthrow 'x';\n";
    let e = super::run_script_watched(js.as_bytes(), DEFAULT_SEED, 2, &LINE).unwrap_err();
    assert_eq!(e.location, Location::Line(5), "{e}");
    assert_eq!(LINE.load(Ordering::Relaxed), 4);
}
