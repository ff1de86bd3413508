//! Start positions on a map package made from the installed game's Sk-Rush with player
//! 1's trucks and HQ taken out and player 2's first truck made a tank: `info` gives each
//! player's HQ, else its first truck (src/game.cpp: `loadWzMapDroidInit`, then each
//! `REF_HQ` over it), `check` warns that player 1 has none
//! (`map/start-position-missing`), and `render` marks each start where it is and none
//! where player 1's was. Marked `#[vitrine_test(game)]` (the render also `gpu`).

use crate::common;
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::process::Command;
use vitrine_test_needs::vitrine_test;

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

/// A map file's entries (key, object), in key order.
type Entries = Vec<(String, Value)>;

/// The edited Sk-Rush as a classic package folder in `dir`: its `.lev`, `.gam` and map
/// folder, with `droid.json` and `struct.json` changed as the module says. Returns the
/// droids and the structures written.
fn edited_rush(data: &Path, dir: &Path) -> (Entries, Entries) {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(data.join("mp.wz")).unwrap()).unwrap();
    let names: Vec<String> = zip
        .file_names()
        .map(|n| n.expect("an entry name").into_owned())
        .collect();
    for name in names
        .iter()
        .filter(|n| n.starts_with("multiplay/maps/4c-rush/") || *n == "multiplay/maps/4c-rush.gam")
    {
        let mut bytes = Vec::new();
        zip.by_name(name).unwrap().read_to_end(&mut bytes).unwrap();
        if bytes.is_empty() && name.ends_with('/') {
            continue;
        }
        let out = dir.join(name);
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        std::fs::write(out, bytes).unwrap();
    }
    std::fs::write(
        dir.join("rush.xplayers.lev"),
        "level Sk-Rush\nplayers 4\ntype 14\ndataset MULTI_CAM_1\ngame \"multiplay/maps/4c-rush.gam\"\n",
    )
    .unwrap();
    let path = dir.join("multiplay/maps/4c-rush/droid.json");
    let droids: serde_json::Map<String, Value> =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let mut kept = Vec::new();
    let mut tank_made = false;
    for (key, mut d) in droids {
        match d["startpos"].as_u64() {
            Some(1) => continue,
            Some(2) if !tank_made => {
                d["template"] = Value::from("A-Viper-Trk-MG");
                tank_made = true;
            }
            _ => {}
        }
        kept.push((key, d));
    }
    let out: serde_json::Map<String, Value> = kept.iter().cloned().collect();
    std::fs::write(&path, serde_json::to_vec_pretty(&out).unwrap()).unwrap();
    let path = dir.join("multiplay/maps/4c-rush/struct.json");
    let structures: serde_json::Map<String, Value> =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let structures: Vec<(String, Value)> = structures
        .into_iter()
        .filter(|(_, s)| !(s["startpos"] == 1 && s["name"] == HQ))
        .collect();
    let out: serde_json::Map<String, Value> = structures.iter().cloned().collect();
    std::fs::write(&path, serde_json::to_vec_pretty(&out).unwrap()).unwrap();
    (kept, structures)
}

/// The HQ's stats id in the game's data.
const HQ: &str = "A0CommandCentre";

/// Each player's start: its last HQ of `structures`, else its first `ConstructorDroid`
/// of `droids` (each in key order, the game's).
fn starts(droids: &[(String, Value)], structures: &[(String, Value)]) -> Vec<(u64, i64, i64)> {
    let at = |o: &Value| {
        (
            o["startpos"].as_u64().unwrap(),
            o["position"][0].as_i64().unwrap(),
            o["position"][1].as_i64().unwrap(),
        )
    };
    let mut out: Vec<(u64, i64, i64)> = Vec::new();
    for (_, d) in droids {
        if d["template"] == "ConstructorDroid" && !out.iter().any(|s| s.0 == at(d).0) {
            out.push(at(d));
        }
    }
    for (_, s) in structures.iter().filter(|(_, s)| s["name"] == HQ) {
        out.retain(|o| o.0 != at(s).0);
        out.push(at(s));
    }
    out.sort();
    out
}

fn data_args(data: &Path) -> [String; 4] {
    [
        "--data".into(),
        data.join("mp.wz").display().to_string(),
        "--data".into(),
        data.join("base.wz").display().to_string(),
    ]
}

#[vitrine_test(game)]
fn info_and_check_give_each_players_hq_else_its_first_truck() {
    let data = common::game_data();
    let dir = tempfile::tempdir().unwrap();
    let (droids, structures) = edited_rush(&data, dir.path());
    let want = starts(&droids, &structures);
    assert_eq!(want.iter().map(|s| s.0).collect::<Vec<_>>(), vec![0, 2, 3]);
    // Player 0's HQ, not its truck: the tile the game's rules read (17, 18).
    assert_eq!(want[0], (0, 2176, 2304));
    let o = vitrine()
        .args(["info", "--json"])
        .arg(dir.path())
        .args(data_args(&data))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let got: Vec<(u64, i64, i64)> = v["start_positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["player"].as_u64().unwrap(),
                s["x"].as_i64().unwrap(),
                s["y"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, want);
    // The untouched map: a start for each of its 4 players, no warning.
    let o = vitrine()
        .args(["check", "--json"])
        .arg(dir.path())
        .args(data_args(&data))
        .output()
        .unwrap();
    let findings: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|f: &Value| f["rule"] == "map/start-position-missing")
        .collect();
    assert_eq!(findings.len(), 1, "{findings:?}");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(message.contains("player 1 of 4"), "{message}");
    assert_eq!(findings[0]["level"], "warning");
}

/// Pixels of the start positions' magenta within `r` pixels of `at`.
fn magenta_near(img: &image::RgbaImage, at: (u32, u32), r: u32) -> usize {
    let (x0, y0) = (at.0.saturating_sub(r), at.1.saturating_sub(r));
    let mut n = 0;
    for y in y0..(at.1 + r).min(img.height()) {
        for x in x0..(at.0 + r).min(img.width()) {
            let p = img.get_pixel(x, y);
            if p[0] > 200 && p[1] < 120 && p[2] > 150 {
                n += 1;
            }
        }
    }
    n
}

#[vitrine_test(gpu, game)]
fn render_marks_each_start_and_none_where_there_is_none() {
    let data = common::game_data();
    let dir = tempfile::tempdir().unwrap();
    let (droids, structures) = edited_rush(&data, dir.path());
    let png = dir.path().join("starts.png");
    let o = vitrine()
        .args([
            "render",
            "--view",
            "top",
            "--size",
            "512x512",
            "--no-objects",
        ])
        .args(["--layers", "terrain,start-positions"])
        .arg(dir.path())
        .args(data_args(&data))
        .arg("-o")
        .arg(&png)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&png).unwrap().into_rgba8();
    // World (x, y) → pixel by the map's box in the picture and its size in tiles.
    let o = vitrine()
        .args(["info", "--json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let (w, h) = (v["width"].as_f64().unwrap(), v["height"].as_f64().unwrap());
    let (mut lo, mut hi) = ((u32::MAX, u32::MAX), (0, 0));
    for (x, y, p) in img.enumerate_pixels() {
        if (0..3)
            .map(|i| (p[i] as i32 - [48, 52, 60][i]).abs())
            .sum::<i32>()
            > 12
        {
            (lo, hi) = ((lo.0.min(x), lo.1.min(y)), (hi.0.max(x), hi.1.max(y)));
        }
    }
    let px = |x: i64, y: i64| {
        let f =
            |v: i64, n: f64, a: u32, b: u32| a + (v as f64 / (n * 128.0) * f64::from(b - a)) as u32;
        (f(x, w, lo.0, hi.0), f(y, h, lo.1, hi.1))
    };
    for (p, x, y) in starts(&droids, &structures) {
        assert!(
            magenta_near(&img, px(x, y), 12) > 10,
            "player {p}'s start at {x}, {y}"
        );
    }
    // Player 1's first truck stood at (8896, 2752), its HQ at (9600, 3200): nothing
    // there now.
    assert_eq!(magenta_near(&img, px(8896, 2752), 24), 0);
    assert_eq!(magenta_near(&img, px(9600, 3200), 24), 0);
}
