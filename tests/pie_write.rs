//! The PIE writer on real data: every PIE of `../shared/corpus/wz2100` and every model of
//! its `mp.wz`, written again as PIE 3 and as PIE 4, loads to the same model (counts,
//! positions and UVs within the printed precision, normals, connectors, levels,
//! animation frames, shadow meshes, events, texture names) and renders the same
//! picture; `vitrine convert` on files, folders and archives; and the real game
//! (Warzone 2100 4.3.3 through `../shared/tools/wz_game_load.sh`) loading what the
//! writer wrote. Skips without `../shared`; the game test skips without the game.

mod common;
mod render_support;

use glam::Vec3;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine::export::pie::{self, PieOptions, PieVersion};
use vitrine::files::{self, FileRef};
use vitrine::formats::{self, LoadOptions};
use vitrine::model::{Format, Model};

/// Every PIE of the corpus folder and of `mp.wz`, with its bytes.
fn corpus_models(wz: &Path) -> Vec<(String, Vec<u8>)> {
    let inputs = [wz.join("data"), wz.join("archives/mp.wz")];
    let walk = files::walk::walk(&inputs, |n| n.to_ascii_lowercase().ends_with(".pie"));
    assert!(walk.errors.is_empty(), "{:?}", walk.errors);
    walk.files
        .iter()
        .map(|f| (f.to_string(), files::read(f).expect("corpus file reads")))
        .collect()
}

/// Positions with `-0` and `0` alike (they print the same and are welded).
fn key(p: Vec3) -> [u32; 3] {
    (p + Vec3::ZERO).to_array().map(f32::to_bits)
}

fn near(a: Vec3, b: Vec3, tol: f32) -> bool {
    (a - b).abs().max_element() <= tol * (1.0 + a.abs().max_element())
}

/// What a user would see differ between the model before and after the round trip.
fn compare(before: &Model, after: &Model) -> Result<(), String> {
    let count = |m: &Model| (m.nodes.len(), m.meshes.len(), m.clips.len());
    if count(before) != count(after) {
        return Err(format!(
            "levels/clips {:?} → {:?}",
            count(before),
            count(after)
        ));
    }
    for (i, (a, b)) in before.meshes.iter().zip(&after.meshes).enumerate() {
        let welded: HashSet<[u32; 3]> = a.points.iter().map(|p| key(*p)).collect();
        if (a.triangle_count(), welded.len()) != (b.triangle_count(), b.points.len()) {
            return Err(format!(
                "level {}: {} triangles / {} distinct points → {} / {}",
                i + 1,
                a.triangle_count(),
                welded.len(),
                b.triangle_count(),
                b.points.len()
            ));
        }
        let (na, nb) = (a.shading_normals(), b.shading_normals());
        for (k, (ca, cb)) in a.corners.iter().zip(&b.corners).enumerate() {
            let (pa, pb) = (a.corner_position(ca), b.corner_position(cb));
            if key(pa) != key(pb) || ca.uv[0] != cb.uv[0] || ca.animated != cb.animated {
                return Err(format!(
                    "level {} corner {k}: {pa} {} → {pb} {}",
                    i + 1,
                    ca.uv[0],
                    cb.uv[0]
                ));
            }
            if a.face_normal(k / 3) != Vec3::ZERO && !near(na[k], nb[k], 1e-5) {
                return Err(format!(
                    "level {} corner {k}: normal {} → {}",
                    i + 1,
                    na[k],
                    nb[k]
                ));
            }
        }
    }
    if before.connectors != after.connectors {
        return Err(format!(
            "connectors {:?} → {:?}",
            before.connectors, after.connectors
        ));
    }
    if before.shadow_meshes != after.shadow_meshes {
        return Err("shadow meshes differ".into());
    }
    if before.events != after.events {
        return Err(format!("events {:?} → {:?}", before.events, after.events));
    }
    let names = |m: &Model| {
        m.textures
            .iter()
            .map(|t| (t.role, t.name.clone(), t.tileset))
            .collect::<Vec<_>>()
    };
    if names(before) != names(after) || before.materials != after.materials {
        return Err(format!("textures {:?} → {:?}", names(before), names(after)));
    }
    for (ca, cb) in before.clips.iter().zip(&after.clips) {
        if (ca.fps, ca.frame_count, ca.looping) != (cb.fps, cb.frame_count, cb.looping)
            || ca.visibility != cb.visibility
            || ca.texture_frames != cb.texture_frames
            || ca.events != cb.events
            || ca.node_tracks.len() != cb.node_tracks.len()
        {
            return Err(format!("clip {:?} differs", ca.name));
        }
        for (ta, tb) in ca.node_tracks.iter().zip(&cb.node_tracks) {
            let (Some(ra), Some(rb)) = (&ta.rotation, &tb.rotation) else {
                return Err("a track lost its rotation".into());
            };
            let (Some(xa), Some(xb)) = (&ta.translation, &tb.translation) else {
                return Err("a track lost its translation".into());
            };
            let (Some(sa), Some(sb)) = (&ta.scale, &tb.scale) else {
                return Err("a track lost its scale".into());
            };
            let same_keys = ta.node == tb.node
                && ta.period == tb.period
                && ra.times == rb.times
                && xa.interpolation == xb.interpolation
                && sa.values == sb.values;
            let moves = xa
                .values
                .iter()
                .zip(&xb.values)
                .all(|(p, q)| near(*p, *q, 1e-6));
            let turns = ra
                .values
                .iter()
                .zip(&rb.values)
                .all(|(p, q)| p.abs_diff_eq(*q, 2e-5) || p.abs_diff_eq(-*q, 2e-5));
            if !(same_keys && moves && turns) {
                return Err(format!("level {} ANIMOBJECT frames differ", ta.node + 1));
            }
        }
    }
    let (before_details, after_details) = (before.details.to_json(), after.details.to_json());
    let mut details = before_details.clone();
    for (i, l) in after_details["levels"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        details["levels"][i]["points"] = l["points"].clone();
    }
    if details != after_details {
        return Err(format!("details {before_details} → {after_details}"));
    }
    Ok(())
}

fn write(model: &Model, version: PieVersion) -> String {
    let options = PieOptions {
        version,
        ..PieOptions::default()
    };
    pie::write(model, &options)
        .expect("a PIE model writes")
        .text
}

#[test]
fn every_corpus_model_round_trips_through_pie3_and_pie4() {
    let Some(wz) = common::wz2100() else { return };
    let models = corpus_models(&wz);
    assert_eq!(
        models.len(),
        855 + 102,
        "the corpus's 855 PIE files and mp.wz's 102"
    );
    let mut failures = Vec::new();
    let mut clean = [0usize; 2];
    for (name, bytes) in &models {
        let before = formats::parse(Format::Pie, bytes, name, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        for (v, version) in [PieVersion::V3, PieVersion::V4].into_iter().enumerate() {
            let text = write(&before, version);
            let result =
                formats::parse(Format::Pie, text.as_bytes(), name, &LoadOptions::default())
                    .map_err(|e| e.to_string())
                    .and_then(|after| {
                        if after.version != version.number().to_string() {
                            return Err(format!("version {}", after.version));
                        }
                        compare(&before, &after)
                    });
            match result {
                Ok(()) => clean[v] += 1,
                Err(e) => failures.push(format!("{name} (PIE {}): {e}", version.number())),
            }
        }
    }
    eprintln!(
        "round trips: {} of {} clean as PIE 3, {} of {} as PIE 4",
        clean[0],
        models.len(),
        clean[1],
        models.len()
    );
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Originals and their PIE 3 rewrites render alike (the golden comparison's tolerance):
/// an animated cyborg, the derrick, texture animation, team colour, the largest model,
/// connectors and events.
#[test]
fn rewritten_models_render_like_their_sources() {
    let Some(wz) = common::wz2100() else { return };
    let Some(mut rig) = render_support::Rig::new() else {
        return;
    };
    let tmp = common::temp_dir("pie-render");
    let data = wz.join("data");
    let options = LoadOptions {
        data_roots: vec![
            FileRef::parse(&data.join("mp")),
            FileRef::parse(&data.join("base")),
        ],
        ..LoadOptions::default()
    };
    let sample = [
        "mp/components/bodies/drtrans.pie",
        "base/components/bodies/cybd_std.pie",
        "base/components/bodies/exbloke.pie",
        "base/structs/blderik_anim.pie",
        "base/components/bodies/drlbod01.pie",
        "mp/components/prop/prhnaval1.pie",
        "base/effects/fxheli01.pie",
        "base/structs/blbhq.pie",
    ];
    for rel in sample {
        let src = data.join(rel);
        if !src.is_file() {
            panic!("{rel}: not in the corpus");
        }
        let before = formats::load_path(&src, &options).unwrap_or_else(|e| panic!("{e}"));
        let out = tmp.path().join(rel.replace('/', "_"));
        std::fs::write(&out, write(&before, PieVersion::V3)).unwrap();
        let after = formats::load_path(&out, &options).unwrap_or_else(|e| panic!("{e}"));
        let mut view = vitrine::render::ViewSettings::default();
        view.camera.set_preset(vitrine::render::ViewPreset::Iso);
        let a = rig.render(&before, &view, 128);
        let b = rig.render(&after, &view, 128);
        let c = render_support::golden::compare(&b, &a);
        assert!(
            c.matches(),
            "{rel}: {} of {} pixels differ (worst {})",
            c.outliers,
            c.total,
            c.worst
        );
        assert!(
            a.pixels().any(|p| p.0 != a.get_pixel(0, 0).0),
            "{rel}: rendered nothing"
        );
    }
}

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

/// `vitrine convert` of an archive mirrors its paths; `--dry-run` writes nothing; a
/// model the check refuses is not written and the exit code says so.
#[test]
fn convert_command_writes_checks_and_mirrors_paths() {
    let Some(wz) = common::wz2100() else { return };
    let tmp = common::temp_dir("pie-convert");
    let out = tmp.path().join("mp");
    let status = vitrine()
        .arg("convert")
        .arg(wz.join("archives/mp.wz"))
        .arg("-o")
        .arg(&out)
        .args(["--pie", "4", "--data"])
        .arg(wz.join("data/base"))
        .status()
        .unwrap();
    assert!(status.success());
    let body = out.join("components/bodies/drmbod13.pie");
    let text = std::fs::read_to_string(&body).expect("mirrored path");
    assert!(text.starts_with("PIE 4\n"), "{text}");
    let written: Vec<PathBuf> = common::model_files(&out);
    assert_eq!(written.len(), 102);

    let dry = tmp.path().join("dry");
    let o = vitrine()
        .args(["convert", "--dry-run", "-o"])
        .arg(dry.join("x.pie"))
        .arg(&body)
        .arg("--data")
        .arg(wz.join("data/base"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("dry run"));
    assert!(!dry.exists(), "a dry run writes nothing");

    // A texture name the game refuses (no .png): the check stops the write.
    let bad = tmp.path().join("bad.pie");
    let o = vitrine()
        .arg("convert")
        .arg(&body)
        .arg("-o")
        .arg(&bad)
        .args(["--texture", "page-11-x.bmp"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("pie/texture-extension"), "{err}");
    assert!(!bad.exists(), "nothing half-written");
}

/// The game's own loader reads every PIE 3 the writer made of the models a skirmish
/// loads (mp over base, written over the same paths in a mod): no complaint.
#[test]
fn the_game_loads_every_written_model() {
    let Some(wz) = common::wz2100() else { return };
    let Some(game) = game_checker() else { return };
    let tmp = common::temp_dir("pie-game");
    let mod_dir = tmp.path().join("mod");
    for layer in ["base", "mp"] {
        let o = vitrine()
            .arg("convert")
            .arg(wz.join("data").join(layer))
            .arg("-o")
            .arg(&mod_dir)
            .arg("--data")
            .arg(wz.join("data/mp"))
            .arg("--data")
            .arg(wz.join("data/base"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let report = run_game(&game, &mod_dir, &[]);
    let ok = report.lines().filter(|l| l.starts_with("OK ")).count();
    let bad: Vec<&str> = report
        .lines()
        .filter(|l| !l.starts_with("OK ") && !l.starts_with("NOT-LOADED ") && is_verdict(l))
        .collect();
    eprintln!("the game read {ok} written models cleanly");
    assert!(bad.is_empty(), "the game complained:\n{}", bad.join("\n"));
    assert!(
        ok >= 600,
        "only {ok} models were read by the game:\n{report}"
    );
}

/// A verdict line of `wz_game_load.sh` (`OK`, `FAIL`, `COMPLAINED`, `NOT-LOADED`, …).
fn is_verdict(line: &str) -> bool {
    if line.starts_with(char::is_whitespace) {
        return false;
    }
    let word = line.split_whitespace().next().unwrap_or("");
    word.len() > 1 && word.chars().all(|c| c.is_ascii_uppercase() || c == '-') && word != "RESULT"
}

/// The game checker script, when the game is installed; else a message and `None`.
fn game_checker() -> Option<PathBuf> {
    let script = common::shared_dir()?.join("tools/wz_game_load.sh");
    let bin =
        std::env::var_os("WZ_BIN").map_or(PathBuf::from("/usr/games/warzone2100"), PathBuf::from);
    if !bin.is_file() || !script.is_file() {
        if std::env::var("VITRINE_REQUIRE_GAME").as_deref() == Ok("1") {
            panic!(
                "VITRINE_REQUIRE_GAME=1 but {} or {} is missing",
                bin.display(),
                script.display()
            );
        }
        eprintln!(
            "SKIPPED: Warzone 2100 is not installed ({} missing); `apt-get install warzone2100 \
             unzip` runs the game-as-judge tests",
            bin.display()
        );
        return None;
    }
    Some(script)
}

/// Runs the game on `mod_dir` (checking `models`, or every PIE in it); the report.
fn run_game(script: &Path, mod_dir: &Path, models: &[&str]) -> String {
    let o = Command::new("bash")
        .arg(script)
        .arg(mod_dir)
        .args(models)
        .output()
        .expect("bash runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(
        matches!(o.status.code(), Some(0 | 1 | 4)),
        "the game did not get through a start: {out}"
    );
    out
}

/// One fault of the kind the game's loader knows, made in a written PIE 3.
struct Mutation {
    /// What it is (README's table).
    name: &'static str,
    /// Changes the file's lines.
    edit: fn(&mut Vec<String>),
}

/// Index of the first line starting with `word` (the directive must be there).
fn at(lines: &[String], word: &str) -> usize {
    lines
        .iter()
        .position(|l| l.split_whitespace().next() == Some(word))
        .unwrap_or_else(|| panic!("no {word} line"))
}

/// Replaces word `k` of line `i`.
fn set_word(lines: &mut [String], i: usize, k: usize, value: &str) {
    let mut w: Vec<String> = lines[i].split_whitespace().map(String::from).collect();
    w[k] = value.to_string();
    let tab = if lines[i].starts_with('\t') { "\t" } else { "" };
    lines[i] = format!("{tab}{}", w.join(" "));
}

/// Adds `by` to the count on the first `word` line.
fn bump(lines: &mut [String], word: &str, by: i64) {
    let i = at(lines, word);
    let n: i64 = lines[i].split_whitespace().nth(1).unwrap().parse().unwrap();
    set_word(lines, i, 1, &(n + by).to_string());
}

/// The faults tried on the game: each line of the game's loader that can refuse or
/// complain, and the two disagreements the issue reported.
const MUTATIONS: &[Mutation] = &[
    Mutation {
        name: "unmodified",
        edit: |_| {},
    },
    Mutation {
        name: "version PIE 5",
        edit: |l| l[0] = "PIE 5".into(),
    },
    Mutation {
        name: "version PIE 1",
        edit: |l| l[0] = "PIE 1".into(),
    },
    Mutation {
        name: "first word not PIE",
        edit: |l| l[0] = "PIF 3".into(),
    },
    Mutation {
        name: "TYPE missing",
        edit: |l| {
            l.remove(at(l, "TYPE"));
        },
    },
    Mutation {
        name: "TYPE unknown bits",
        edit: |l| {
            let i = at(l, "TYPE");
            set_word(l, i, 1, "80200");
        },
    },
    Mutation {
        name: "TEXTURE not .png",
        edit: |l| {
            let i = at(l, "TEXTURE");
            set_word(l, i, 2, "page-11-player-buildings.bmp");
        },
    },
    Mutation {
        name: "TEXTURE page found nowhere",
        edit: |l| {
            let i = at(l, "TEXTURE");
            set_word(l, i, 2, "page-98-vitrine-nowhere.png");
        },
    },
    Mutation {
        name: "TEXTURE page undecodable",
        edit: |l| {
            let i = at(l, "TEXTURE");
            set_word(l, i, 2, "page-99-vitrine-huge.png");
        },
    },
    Mutation {
        name: "TEXTURE tileset 3",
        edit: |l| {
            let i = at(l, "TEXTURE");
            set_word(l, i, 1, "3");
        },
    },
    Mutation {
        name: "TEXTURE missing",
        edit: |l| {
            l.remove(at(l, "TEXTURE"));
        },
    },
    Mutation {
        name: "EVENT type 4",
        edit: |l| {
            let i = at(l, "LEVELS");
            l.insert(i, "EVENT 4 gnmcan.pie".into());
        },
    },
    Mutation {
        name: "EVENT model found nowhere",
        edit: |l| {
            let i = at(l, "LEVELS");
            l.insert(i, "EVENT 1 vitrine-nowhere.pie".into());
        },
    },
    Mutation {
        name: "MATERIALS line",
        edit: |l| {
            let i = at(l, "LEVELS");
            l.insert(i, "MATERIALS 1 1 1 1 1 1 1 1 1 20".into());
        },
    },
    Mutation {
        name: "LEVELS one more than present",
        edit: |l| bump(l, "LEVELS", 1),
    },
    Mutation {
        name: "LEVELS missing",
        edit: |l| {
            l.remove(at(l, "LEVELS"));
        },
    },
    Mutation {
        name: "LEVEL out of sequence",
        edit: |l| {
            let i = at(l, "LEVEL");
            l[i] = "LEVEL 2".into();
        },
    },
    Mutation {
        name: "POINTS one more than present",
        edit: |l| bump(l, "POINTS", 1),
    },
    Mutation {
        name: "POINTS one fewer than present",
        edit: |l| bump(l, "POINTS", -1),
    },
    Mutation {
        name: "point with two numbers",
        edit: |l| {
            let i = at(l, "POINTS") + 1;
            let w: Vec<String> = l[i].split_whitespace().take(2).map(String::from).collect();
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "NORMALS one fewer line",
        edit: |l| {
            bump(l, "NORMALS", -1);
            let i = at(l, "NORMALS") + 1;
            l.remove(i);
        },
    },
    Mutation {
        name: "NORMALS count off by one",
        edit: |l| bump(l, "NORMALS", 1),
    },
    Mutation {
        name: "normal with 8 numbers",
        edit: |l| {
            let i = at(l, "NORMALS") + 1;
            let w: Vec<String> = l[i].split_whitespace().take(8).map(String::from).collect();
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "POLYGONS one more than present",
        edit: |l| bump(l, "POLYGONS", 1),
    },
    Mutation {
        name: "POLYGONS one fewer than present",
        edit: |l| bump(l, "POLYGONS", -1),
    },
    Mutation {
        name: "polygon with 4 points",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            let mut w: Vec<String> = l[i].split_whitespace().map(String::from).collect();
            w[1] = "4".into();
            let idx = w[2].clone();
            w.insert(5, idx);
            w.push("0".into());
            w.push("0".into());
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "polygon with 2 points",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            let mut w: Vec<String> = l[i].split_whitespace().map(String::from).collect();
            w[1] = "2".into();
            w.remove(4);
            w.truncate(w.len() - 2);
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "polygon index past POINTS",
        edit: |l| {
            let i = at(l, "POINTS");
            let n = l[i].split_whitespace().nth(1).unwrap().to_string();
            let p = at(l, "POLYGONS") + 1;
            set_word(l, p, 2, &n);
        },
    },
    Mutation {
        name: "polygon flags 0 (untextured)",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            let mut w: Vec<String> = l[i].split_whitespace().map(String::from).collect();
            w[0] = "0".into();
            w.truncate(5);
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "polygon flags 4200, 1 frame",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            let mut w: Vec<String> = l[i].split_whitespace().map(String::from).collect();
            w[0] = "4200".into();
            for (k, v) in ["1", "1", "0.5", "0.5"].iter().enumerate() {
                w.insert(5 + k, v.to_string());
            }
            l[i] = format!("\t{}", w.join(" "));
        },
    },
    Mutation {
        name: "polygon UV not a number",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            set_word(l, i, 5, "x");
        },
    },
    Mutation {
        name: "CONNECTORS one more than present",
        edit: |l| {
            let i = l.len();
            l.insert(i, "CONNECTORS 2".into());
            l.push("\t1 2 3".into());
        },
    },
    Mutation {
        name: "connector with fractions",
        edit: |l| {
            l.push("CONNECTORS 1".into());
            l.push("\t1.5 -2.25 3.75".into());
        },
    },
    Mutation {
        name: "connector with two numbers",
        edit: |l| {
            l.push("CONNECTORS 1".into());
            l.push("\t1 2".into());
        },
    },
    Mutation {
        name: "ANIMOBJECT time 0",
        edit: |l| {
            l.push("ANIMOBJECT 0 0 1".into());
            l.push("\t0 0 0 0 0 0 0 1 1 1".into());
        },
    },
    Mutation {
        name: "ANIMOBJECT more frames than lines",
        edit: |l| {
            l.push("ANIMOBJECT 100 0 2".into());
            l.push("\t0 0 0 0 0 0 0 1 1 1".into());
        },
    },
    Mutation {
        name: "ANIMOBJECT frame not numbers",
        edit: |l| {
            l.push("ANIMOBJECT 100 0 1".into());
            l.push("\t0 a b c 0 0 0 1 1 1".into());
        },
    },
    Mutation {
        name: "ANIMOBJECT good",
        edit: |l| {
            l.push("ANIMOBJECT 100 0 2".into());
            l.push("\t0 0 0 0 0 0 0 1 1 1".into());
            l.push("\t1 0 1000 0 0 90000 0 1 1 1".into());
        },
    },
    Mutation {
        name: "SHADOWPOLYGONS without SHADOWPOINTS",
        edit: |l| {
            l.push("SHADOWPOLYGONS 1".into());
            l.push("\t0 3 0 1 2".into());
        },
    },
    Mutation {
        name: "SHADOWPOINTS without SHADOWPOLYGONS",
        edit: |l| {
            l.extend(["SHADOWPOINTS 3", "\t0 0 0", "\t1 0 0", "\t0 1 0"].map(String::from));
        },
    },
    Mutation {
        name: "shadow polygon flags 200",
        edit: |l| {
            l.extend(
                [
                    "SHADOWPOINTS 3",
                    "\t0 0 0",
                    "\t1 0 0",
                    "\t0 1 0",
                    "SHADOWPOLYGONS 1",
                    "\t200 3 0 1 2",
                ]
                .map(String::from),
            );
        },
    },
    Mutation {
        name: "shadow index past SHADOWPOINTS",
        edit: |l| {
            l.extend(
                [
                    "SHADOWPOINTS 3",
                    "\t0 0 0",
                    "\t1 0 0",
                    "\t0 1 0",
                    "SHADOWPOLYGONS 1",
                    "\t0 3 0 1 3",
                ]
                .map(String::from),
            );
        },
    },
    Mutation {
        name: "shadow mesh good",
        edit: |l| {
            l.extend(
                [
                    "SHADOWPOINTS 3",
                    "\t0 0 0",
                    "\t1 0 0",
                    "\t0 1 0",
                    "SHADOWPOLYGONS 1",
                    "\t0 3 0 1 2",
                ]
                .map(String::from),
            );
        },
    },
    Mutation {
        name: "unknown directive after the last level",
        edit: |l| l.push("BSP 1 2 3".into()),
    },
    Mutation {
        name: "CRLF line ends",
        edit: |l| {
            for x in l.iter_mut() {
                x.push('\r');
            }
        },
    },
    Mutation {
        name: "truncated inside POLYGONS",
        edit: |l| {
            let i = at(l, "POLYGONS") + 1;
            l.truncate(i);
        },
    },
];

/// Bitwise CRC-32 (PNG's), for the undecodable page.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for b in bytes {
        c ^= u32::from(*b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// A PNG that declares 60000 × 60000 pixels and holds a few bytes of them.
fn undecodable_png() -> Vec<u8> {
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut c = (data.len() as u32).to_be_bytes().to_vec();
        let body = [kind, data].concat();
        c.extend(&body);
        c.extend(crc32(&body).to_be_bytes());
        c
    };
    let mut ihdr = 60_000u32.to_be_bytes().to_vec();
    ihdr.extend(60_000u32.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    // A zlib stream of stored zero bytes, cut short.
    let mut idat = vec![0x78, 0x01, 0x00, 0x00, 0x40, 0xff, 0xbf];
    idat.extend(std::iter::repeat_n(0u8, 0x4000));
    [
        b"\x89PNG\r\n\x1a\n".to_vec(),
        chunk(b"IHDR", &ihdr),
        chunk(b"IDAT", &idat),
        chunk(b"IEND", &[]),
    ]
    .concat()
}

/// Weapon models the game loads at every skirmish (named by `mp`'s weapons stats) with
/// one level and nothing after their polygons: the mutations' hosts, one each.
fn host_models(data: &Path) -> Vec<(String, String)> {
    let stats = std::fs::read_to_string(data.join("mp/stats/weapons.json")).unwrap();
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    let mut names: Vec<String> = stats
        .as_object()
        .unwrap()
        .values()
        .flat_map(|w| [&w["model"], &w["mountModel"]])
        .filter_map(|m| m.as_str().map(str::to_lowercase))
        .collect();
    names.sort();
    names.dedup();
    let mut hosts = Vec::new();
    for name in names {
        let Some(src) = ["mp", "base"]
            .iter()
            .map(|l| data.join(l).join("components/weapons").join(&name))
            .find(|p| p.is_file())
        else {
            continue;
        };
        let model = formats::load_path(&src, &LoadOptions::default()).unwrap();
        let mut lines: Vec<String> = write(&model, PieVersion::V3)
            .lines()
            .map(String::from)
            .collect();
        // Connectors off, so that a mutation's block is the level's last.
        if let Some(i) = lines.iter().position(|l| l.starts_with("CONNECTORS")) {
            lines.truncate(i);
        }
        if model.nodes.len() == 1 && model.clips.is_empty() && model.events.is_empty() {
            hosts.push((format!("components/weapons/{name}"), lines.join("\n")));
        }
    }
    hosts
}

/// What the game did with one model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GameVerdict {
    /// Read with no complaint.
    Clean,
    /// Complained and used it.
    Complains,
    /// Gave it up (4.3.3 then ends: a model missing from its cache throws).
    GivesUp,
}

/// The game's verdict on each mutated file (`files[i]`: path in the mod, text). A model
/// the game gives up ends 4.3.3's start, so models after it go unread: each round runs
/// what is still open, the ones the check expects to be refused (`alone`) one to a run,
/// two runs at a time, until every file has a verdict.
fn game_verdicts(
    game: &Path,
    files: &[(String, String)],
    alone: &[bool],
    extra: &[(&str, Vec<u8>)],
) -> Vec<GameVerdict> {
    let mut verdicts: Vec<Option<GameVerdict>> = vec![None; files.len()];
    let tmp = common::temp_dir("pie-game-rounds");
    let mut round = 0;
    while verdicts.iter().any(Option::is_none) {
        round += 1;
        assert!(
            round <= files.len() + 1,
            "the game runs never settle: {verdicts:?}"
        );
        let open: Vec<usize> = (0..files.len())
            .filter(|&i| verdicts[i].is_none())
            .collect();
        let mut batches: Vec<Vec<usize>> =
            vec![open.iter().copied().filter(|&i| !alone[i]).collect()];
        batches.extend(open.iter().filter(|&&i| alone[i]).map(|&i| vec![i]));
        batches.retain(|b| !b.is_empty());
        for pair in batches.chunks(2) {
            let reports: Vec<String> = std::thread::scope(|s| {
                let runs: Vec<_> = pair
                    .iter()
                    .enumerate()
                    .map(|(k, batch)| {
                        let dir = tmp.path().join(format!("r{round}-{}-{k}", batch[0]));
                        for (name, bytes) in extra {
                            let p = dir.join(name);
                            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                            std::fs::write(p, bytes).unwrap();
                        }
                        let mut paths = Vec::new();
                        for &i in batch {
                            let p = dir.join(&files[i].0);
                            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                            std::fs::write(p, &files[i].1).unwrap();
                            paths.push(files[i].0.clone());
                        }
                        s.spawn(move || {
                            let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
                            run_game(game, &dir, &refs)
                        })
                    })
                    .collect();
                runs.into_iter().map(|r| r.join().unwrap()).collect()
            });
            for (batch, report) in pair.iter().zip(reports) {
                for &i in batch {
                    let detail = verdict_block(&report, &files[i].0);
                    verdicts[i] = if gives_up(&detail) {
                        Some(GameVerdict::GivesUp)
                    } else if detail.starts_with("OK ") {
                        Some(GameVerdict::Clean)
                    } else if detail.starts_with("FAIL ") {
                        Some(GameVerdict::Complains)
                    } else {
                        None
                    };
                }
            }
        }
        // A batch that ended early leaves its later files open: alone next time.
    }
    verdicts.into_iter().map(Option::unwrap).collect()
}

/// `vitrine check`'s error level means exactly "the game gives this model up", and the
/// loader accepts what the game accepts: each mutation in its own host model.
#[test]
fn check_errors_agree_with_the_game() {
    let Some(wz) = common::wz2100() else { return };
    let Some(game) = game_checker() else { return };
    let data = wz.join("data");
    let hosts = host_models(&data);
    assert!(hosts.len() >= MUTATIONS.len(), "{} hosts", hosts.len());
    let tmp = common::temp_dir("pie-mutations");
    let mod_dir = tmp.path().join("mod");
    let huge = ("texpages/page-99-vitrine-huge.png", undecodable_png());
    let mut files = Vec::new();
    for (m, (path, text)) in MUTATIONS.iter().zip(&hosts) {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        (m.edit)(&mut lines);
        files.push((path.clone(), lines.join("\n") + "\n"));
    }
    for (path, text) in &files {
        let p = mod_dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    std::fs::create_dir_all(mod_dir.join("texpages")).unwrap();
    std::fs::write(mod_dir.join(huge.0), &huge.1).unwrap();
    let mut checker = vitrine::check::Checker::new(vitrine::check::CheckOptions {
        data_roots: vec![
            FileRef::parse(&data.join("mp")),
            FileRef::parse(&data.join("base")),
        ],
        allow: Vec::new(),
    });
    let mut ours = Vec::new();
    for (path, _) in &files {
        let file = FileRef::parse(&mod_dir.join(path));
        let checked = checker.check_file(&file);
        let errors: Vec<&str> = checked
            .findings
            .iter()
            .filter(|f| f.level == vitrine::check::Level::Error)
            .map(|f| f.rule)
            .collect();
        let loads = formats::load(&file, &LoadOptions::default()).is_ok();
        ours.push((errors, loads));
    }
    let alone: Vec<bool> = ours.iter().map(|(e, _)| !e.is_empty()).collect();
    let game_says = game_verdicts(&game, &files, &alone, &[(huge.0, huge.1.clone())]);
    let mut agree = 0;
    let mut rows = Vec::new();
    for ((m, (errors, loads)), verdict) in MUTATIONS.iter().zip(&ours).zip(&game_says) {
        let gives_up = *verdict == GameVerdict::GivesUp;
        let same = gives_up == !errors.is_empty() && (gives_up || *loads);
        agree += usize::from(same);
        rows.push(format!(
            "{} | {:<40} | game: {:<20} | check: {}{}",
            if same { "agree   " } else { "DISAGREE" },
            m.name,
            verdict_name(*verdict),
            if errors.is_empty() {
                "no error".to_string()
            } else {
                errors.join(", ")
            },
            if *loads { "" } else { " (loader refuses)" },
        ));
    }
    eprintln!(
        "{}\nagreement: {agree} of {} mutations",
        rows.join("\n"),
        MUTATIONS.len()
    );
    assert_eq!(
        agree,
        MUTATIONS.len(),
        "check and the game disagree:\n{}",
        rows.join("\n")
    );
}

fn verdict_name(v: GameVerdict) -> &'static str {
    match v {
        GameVerdict::Clean => "loads it cleanly",
        GameVerdict::Complains => "complains, loads it",
        GameVerdict::GivesUp => "gives the model up",
    }
}

/// The report's block for `path`: its verdict line and the lines under it.
fn verdict_block(report: &str, path: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in report.lines() {
        if is_verdict(line) {
            inside = line.split_whitespace().nth(1) == Some(path);
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(
        !out.is_empty(),
        "{path}: not in the game's report:\n{report}"
    );
    out
}

/// Whether the game's log says it gave the model up (its loader returned no model, or
/// the texture page could not be loaded, which asserts and returns none).
fn gives_up(detail: &str) -> bool {
    const SIGNS: &[&str] = &[
        "Unsuccessful",
        "could not load tex page",
        "Could not find",
        "terminate called",
    ];
    SIGNS.iter().any(|s| detail.contains(s))
}
