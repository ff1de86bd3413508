//! Hostile map scripts (issue #46's attacks on `game.js`), each built here in a package of
//! the community's shape and opened by the real binary, whose map scripts run in a child
//! process (`vitrine::script_sandbox`): each ends with a clean error naming `game.js`,
//! the limit and the line where there is one, in at most [`SECONDS`] of processor time
//! and [`PEAK_MB`] of peak memory (the process and its script child together, from
//! `wait4`: processor time, not the wall clock, so that a busy machine does not fail a
//! case), and the scripts within the game's limits build their map.

use crate::common::hostile;
use std::path::{Path, PathBuf};

/// Every case's processor time, the script child's included (the script's own limit
/// is 4 s).
const SECONDS: f64 = 5.0;
/// Every case's peak memory, the script child's included.
const PEAK_MB: f64 = 512.0;

/// A package as the database ships a script map: `level.json`, `gam.json`, `game.js` and
/// `ttypes.ttp` at the archive's root.
fn package(dir: &Path, name: &str, js: &[u8]) -> PathBuf {
    use crate::map_packages::{ttypes, write_zip};
    let level =
        format!(r#"{{"name": "{name}", "type": "skirmish", "players": 2, "tileset": "rockies"}}"#);
    write_zip(
        &dir.join(format!("{name}.wz")),
        &[
            ("level.json".into(), level.into_bytes()),
            ("gam.json".into(), b"{\"version\": 8}".to_vec()),
            ("game.js".into(), js.to_vec()),
            ("ttypes.ttp".into(), ttypes()),
        ],
    )
}

/// What a run printed, its processor time and its peak memory.
struct Run {
    ok: bool,
    text: String,
    /// Processor time of the run and its children.
    seconds: f64,
    peak_mb: f64,
}

/// `vitrine ARGS… PACKAGE`, its processor time and peak memory (its children's with it).
fn run(args: &[&str], package: &Path) -> Run {
    run_with(&[], args, package)
}

/// [`run`] with environment variables set.
fn run_with(env: &[(&str, &str)], args: &[&str], package: &Path) -> Run {
    let mut all = hostile::args(args);
    all.push(package.as_os_str().to_os_string());
    let m = hostile::run_measured_with(env, &all);
    Run {
        ok: m.code == 0,
        text: m.stdout + &m.stderr,
        seconds: m.cpu_seconds,
        // MiB, as `ru_maxrss` / 1024.
        peak_mb: m.peak as f64 / f64::from(1 << 20),
    }
}

/// A hostile case: `js` in a package, `info` refuses it naming `game.js` and each of
/// `says`, within the time and memory budgets. Returns the run for more checks.
fn refused(name: &str, js: &str, says: &[&str]) -> Run {
    let dir = crate::common::temp_dir(&format!("hostile-{name}"));
    let package = package(dir.path(), name, js.as_bytes());
    let r = run(&["info"], &package);
    println!(
        "{name}: {:.2} s of processor time, {:.0} MB peak: {}",
        r.seconds,
        r.peak_mb,
        r.text.lines().find(|l| l.contains("game.js")).unwrap_or("")
    );
    assert!(!r.ok, "{name}: opened a hostile script: {}", r.text);
    assert!(
        r.text.contains("game.js"),
        "{name}: no file named: {}",
        r.text
    );
    for s in says {
        assert!(r.text.contains(s), "{name}: expected {s:?} in: {}", r.text);
    }
    assert!(!r.text.contains("panicked"), "{name}: {}", r.text);
    assert!(r.seconds <= SECONDS, "{name}: {:.2} s", r.seconds);
    assert!(r.peak_mb <= PEAK_MB, "{name}: {:.0} MB peak", r.peak_mb);
    r
}

/// A map that needs the script's data after a hostile line, so the line is reached.
fn then_a_map(line: &str) -> String {
    format!("{line}\nsetMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], []);\n")
}

#[test]
fn scripts_that_allocate_without_end_stop_at_the_memory_cap() {
    refused(
        "push-arrays",
        &then_a_map("var a = [];\nwhile (true) a.push(new Array(1e6));"),
        &["limit"],
    );
    refused(
        "doubling-string",
        &then_a_map("var s = 'x';\nfor (var i = 0; i < 40; i++) s += s;"),
        &["memory"],
    );
    refused(
        "keys-kept",
        &then_a_map(
            "var big = new Array(1 << 20).fill(1), kept = [];\n\
             for (var i = 0; i < 200; i++) kept.push(Object.keys(big));",
        ),
        &["memory"],
    );
    refused(
        "apply-huge",
        &then_a_map("Math.max.apply(null, {length: 2 ** 32 - 1});"),
        &["game.js"],
    );
    refused(
        "spread-keys",
        &then_a_map("var k = [...Array(1e8).keys()];"),
        &["4 s of processor time"],
    );
}

#[test]
fn scripts_that_run_without_end_stop_at_their_limits() {
    refused(
        "endless-loop",
        &then_a_map("var n = 0;\nfor (;;) n++;"),
        &["1000000 loop iterations"],
    );
    refused(
        "index-of-loop",
        &then_a_map(
            "var a = new Array(1 << 20).fill(0);\n\
             for (var i = 0; i < 1e9; i++) a.indexOf(1);",
        ),
        &["game.js:2"],
    );
    // The limit is a setting.
    let dir = crate::common::temp_dir("hostile-time-setting");
    let js = then_a_map("var a = new Array(1 << 20).fill(0);\nfor (;;) a.indexOf(1);");
    let package = package(dir.path(), "time-setting", js.as_bytes());
    let r = run_with(&[("VITRINE_SCRIPT_SECONDS", "1")], &["info"], &package);
    assert!(!r.ok && r.text.contains("past the 1 s"), "{}", r.text);
    assert!(r.seconds < 2.5, "{:.2} s", r.seconds);
    refused(
        "callback-loops",
        &then_a_map("[1, 2, 3].forEach(function () {\n  for (;;) {}\n});"),
        &["game.js"],
    );
    refused(
        "value-of-loops",
        "var evil = {valueOf: function () { for (;;) {} }};\n\
         setMapData(2, 2, [evil, 0, 0, 0], [0, 0, 0, 0], [], [], []);\n",
        &["game.js"],
    );
    refused(
        "recursion",
        &then_a_map("function f(n) { return f(n + 1) + 1; }\nf(0);"),
        &["game.js"],
    );
}

#[test]
fn what_the_games_map_context_lacks_is_refused_at_its_line() {
    refused(
        "regexp-literal",
        &then_a_map("var ok = true;\n/(a+)+$/.test('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!');"),
        &["regular expression", "game.js:2"],
    );
    refused(
        "regexp-from-string",
        &then_a_map("var ok = true;\n'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'.match('(a+)+$');"),
        &["game.js:2"],
    );
    refused(
        "bigint-power",
        &then_a_map("var ok = true;\nString(3n ** 40000000n);"),
        &["BigInt", "game.js:2"],
    );
    refused(
        "await-chain",
        &then_a_map("var ok = true;\nasync function f() { await 0; return f(); }\nf();"),
        &["async", "game.js:2"],
    );
    refused(
        "nested-brackets",
        &then_a_map(&format!(
            "var ok = true;\nvar x = {}1{};",
            "(".repeat(400),
            ")".repeat(400)
        )),
        &["nested more than 32", "game.js:2"],
    );
}

#[test]
fn what_a_script_hands_back_is_bounded() {
    refused(
        "set-map-data-again-and-again",
        "var s = [];\nfor (var i = 0; i < 65535; i++) s.push({name: 'A0CommandCentre', \
         position: [64, 64], direction: 0, modules: 0, player: 0});\n\
         for (var k = 0; k < 100; k++)\n  setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], s, [], []);\n",
        &["at most 65535", "game.js:4"],
    );
    refused(
        "one-huge-name",
        "var name = 'x'.repeat(1 << 19), s = [];\nname += name;\n\
         for (var i = 0; i < 65535; i++) s.push({name: name, position: [64, 64], \
         direction: 0, modules: 0, player: 0});\n\
         setMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], s, [], []);\n",
        &["at most 128", "game.js:4"],
    );
    // 100 MB of spaces (a 100 KB archive): refused by its size, never read whole.
    let dir = crate::common::temp_dir("hostile-huge-script");
    let mut js = vec![b' '; 100_000_000];
    js.extend_from_slice(then_a_map("").as_bytes());
    let package = package(dir.path(), "huge-script", &js);
    drop(js);
    let r = run(&["info"], &package);
    assert!(
        !r.ok && r.text.contains("game.js") && r.text.contains("limited to"),
        "{}",
        r.text
    );
    assert!(
        r.seconds <= SECONDS && r.peak_mb <= PEAK_MB,
        "{:.2} s, {:.0} MB",
        r.seconds,
        r.peak_mb
    );
}

/// A script at the API's own limits (256×256 tiles, 65,535 structures, droids and
/// features) is a map the game takes: it opens.
#[test]
fn a_script_at_the_games_own_limits_builds_its_map() {
    let js = "var n = 256 * 256, s = [], d = [], f = [];\n\
        for (var i = 0; i < 65535; i++) {\n\
          var p = [128 * (2 + i % 250), 128 * (2 + Math.floor(i / 250))];\n\
          s.push({name: 'A0HardcreteMk1Wall', position: p, direction: 0, modules: 0, player: 0});\n\
          d.push({name: 'ConstructionDroid', position: p, direction: 0, player: 1});\n\
          f.push({name: 'Boulder1', position: p, direction: 0});\n\
        }\n\
        setMapData(256, 256, new Array(n).fill(0), new Array(n).fill(0), s, d, f);\n";
    let dir = crate::common::temp_dir("hostile-at-limits");
    let package = package(dir.path(), "at-limits", js.as_bytes());
    let r = run(&["info"], &package);
    println!("at-limits: {:.2} s, {:.0} MB peak", r.seconds, r.peak_mb);
    assert!(r.ok, "{}", r.text);
    assert!(r.text.contains("256×256"), "{}", r.text);
    assert!(r.peak_mb <= PEAK_MB, "{:.0} MB peak", r.peak_mb);
}
