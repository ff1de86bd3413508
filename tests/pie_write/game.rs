//! The real game (Warzone 2100 4.3.3 through `../shared/tools/wz_game_load.sh`) as the
//! judge: running it on a mod, reading its verdicts, and `vitrine check`'s error level
//! against them on the mutation set.

use super::common;
use super::mutations::{MUTATIONS, undecodable_png};
use super::write;
use std::path::{Path, PathBuf};
use std::process::Command;
use vitrine::export::pie::PieVersion;
use vitrine::formats::{self, LoadOptions};
use vitrine_test_needs::vitrine_test;

/// A verdict line of `wz_game_load.sh` (`OK`, `FAIL`, `COMPLAINED`, `NOT-LOADED`, …).
pub fn is_verdict(line: &str) -> bool {
    if line.starts_with(char::is_whitespace) {
        return false;
    }
    let word = line.split_whitespace().next().unwrap_or("");
    word.len() > 1 && word.chars().all(|c| c.is_ascii_uppercase() || c == '-') && word != "RESULT"
}

/// The game checker script (the test declared `shared, game`).
pub fn game_checker() -> PathBuf {
    common::game_tool("wz_game_load.sh")
}

/// Runs the game on `mod_dir` (checking `models`, or every PIE in it); the report.
pub fn run_game(script: &Path, mod_dir: &Path, models: &[&str]) -> String {
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
#[vitrine_test(shared, game)]
fn check_errors_agree_with_the_game() {
    let wz = common::wz2100();
    let game = game_checker();
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
    let mut checker = vitrine::check::Checker::new(
        vitrine::files::disk(),
        vitrine::check::CheckOptions {
            data_roots: vec![
                vitrine::files::parse(&data.join("mp")),
                vitrine::files::parse(&data.join("base")),
            ],
            allow: Vec::new(),
        },
    );
    let mut ours = Vec::new();
    for (path, _) in &files {
        let file = vitrine::files::parse(&mod_dir.join(path));
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
        let same = gives_up != errors.is_empty() && (gives_up || *loads);
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
