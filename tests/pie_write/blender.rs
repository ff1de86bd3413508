//! Blender's files (`../shared/corpus/blender`, Blender 3.4): each converts as a modder
//! would convert it — `--pack` so the page packed in a `.glb` (or named by an OBJ's MTL)
//! goes where the game reads it; for the three OBJs whose MTL names no image (Blender's
//! OBJ exporter writes no `map_Kd` for an image packed in the imported `.glb`) the source's
//! page named with `--texture` — passes `vitrine check` with 0 errors, is loaded by the
//! game with no complaint (over its source's path in a mod; the scratch tank over a
//! weapon the game loads), and renders like its source PIE (`SOURCE_TOLERANCE`; an
//! OBJ's source without its team-colour mask, which OBJ cannot carry).

use super::common;
use super::game;
use super::render_support;
use super::vitrine;
use std::path::{Path, PathBuf};
use vitrine::files;
use vitrine::formats::{self, LoadOptions};
use vitrine_test_needs::vitrine_test;

/// One Blender file: where its PIE goes in the mod, its source PIE (under `data/`), and
/// the page to name when the file names none.
struct Case {
    file: &'static str,
    mod_path: &'static str,
    source: Option<&'static str>,
    page: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        file: "drmbod13.glb",
        mod_path: "components/bodies/drmbod13.pie",
        source: Some("mp/components/bodies/drmbod13.pie"),
        page: None,
    },
    Case {
        file: "gnmmg1.glb",
        mod_path: "components/weapons/gnmmg1.pie",
        source: Some("base/components/weapons/gnmmg1.pie"),
        page: None,
    },
    Case {
        file: "blderik_anim.glb",
        mod_path: "structs/blderik_anim.pie",
        source: Some("base/structs/blderik_anim.pie"),
        page: None,
    },
    Case {
        file: "scratch-tank.glb",
        mod_path: "components/weapons/gnhmg1.pie",
        source: None,
        page: None,
    },
    Case {
        file: "drmbod13.obj",
        mod_path: "components/bodies/drmbod13.pie",
        source: Some("mp/components/bodies/drmbod13.pie"),
        page: Some("page-14-droid-hubs.png"),
    },
    Case {
        file: "gnmmg1.obj",
        mod_path: "components/weapons/gnmmg1.pie",
        source: Some("base/components/weapons/gnmmg1.pie"),
        page: Some("page-17-droid-weapons.png"),
    },
    Case {
        file: "blderik_anim.obj",
        mod_path: "structs/blderik_anim.pie",
        source: Some("base/structs/blderik_anim.pie"),
        page: Some("page-11-player-buildings.png"),
    },
    Case {
        file: "scratch-tank.obj",
        mod_path: "components/weapons/gnhmg1.pie",
        source: None,
        page: None,
    },
];

/// Two renders of a converted model and its source: per channel difference allowed, and
/// the share of pixels that may exceed it. The golden images' share (1 %) at 24 levels
/// instead of 6: the derrick's glTF page is the exporter's team-0 bake (Blender keeps no
/// mask) where the source blends the mask in the shader, and Blender rounds the
/// positions in metres (121 and 190 of 16,384 pixels of the two derricks differ by more
/// than 6; the other four by at most 1).
const SOURCE_TOLERANCE: (u8, f64) = (24, 0.01);

/// The mod folder a case's PIE goes to (`.glb`s and `.obj`s in two mods: they share
/// paths).
fn mod_dir(root: &Path, case: &Case) -> PathBuf {
    root.join(case.file.rsplit('.').next().unwrap())
}

/// Converts every case into its mod; each passes the check (the command's own and
/// `vitrine check`'s report).
fn convert_all(blender: &Path, data: &Path, root: &Path) {
    for case in CASES {
        let out = mod_dir(root, case).join(case.mod_path);
        let mut cmd = vitrine();
        cmd.arg("convert")
            .arg(blender.join(case.file))
            .arg("-o")
            .arg(&out)
            .arg("--pack")
            .arg("--data")
            .arg(data.join("mp"))
            .arg("--data")
            .arg(data.join("base"));
        if let Some(page) = case.page {
            cmd.args(["--texture", page]);
        }
        let o = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{}: {err}", case.file);
        let o = vitrine()
            .arg("check")
            .arg(&out)
            .arg("--data")
            .arg(data.join("mp"))
            .arg("--data")
            .arg(data.join("base"))
            .output()
            .unwrap();
        let report =
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
        assert!(report.contains(": 0 errors"), "{}: {report}", case.file);
    }
}

#[vitrine_test(shared, gpu)]
fn blender_files_convert_check_clean_and_render_like_their_sources() {
    let (shared, wz) = (common::shared_dir(), common::wz2100());
    let blender = shared.join("corpus/blender");
    let data = wz.join("data");
    let tmp = common::temp_dir("pie-blender");
    convert_all(&blender, &data, tmp.path());
    let mut rig = render_support::Rig::new();
    let options = LoadOptions {
        data_roots: vec![
            files::parse(&data.join("mp")),
            files::parse(&data.join("base")),
        ],
        ..LoadOptions::default()
    };
    let (channel, share) = SOURCE_TOLERANCE;
    for case in CASES {
        let out = mod_dir(tmp.path(), case).join(case.mod_path);
        let converted = formats::load_path(&out, &options).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            converted.textures.iter().all(|t| t.resolved.is_some()),
            "{}: every page found (the packed one in the mod's texpages/)",
            case.file
        );
        let Some(source) = case.source else {
            continue;
        };
        let mut source = formats::load_path(&data.join(source), &options).unwrap();
        if case.file.ends_with(".obj") {
            // OBJ has no place for a team-colour mask (the derrick's TYPE 10200): the
            // conversion draws the page alone, so the source is drawn without its mask.
            for m in &mut source.materials {
                m.tcmask = None;
            }
        }
        let mut view = vitrine::render::ViewSettings::default();
        view.camera.set_preset(vitrine::render::ViewPreset::Iso);
        let a = rig.render(&source, &view, 128);
        let b = rig.render(&converted, &view, 128);
        let d = common::image_diff::diff(&b, &a);
        let outliers = d.count_over(channel);
        let allowed = (d.pixels() as f64 * share) as usize;
        eprintln!(
            "{}: {outliers} of {} pixels differ by more than {channel} (worst {})",
            case.file,
            d.pixels(),
            d.max()
        );
        assert!(
            outliers <= allowed,
            "{}: {outliers} of {} pixels differ by more than {channel} (allowed {allowed})",
            case.file,
            d.pixels()
        );
    }
}

/// The game's own loader reads each conversion with no complaint.
#[vitrine_test(shared, game)]
fn the_game_loads_every_blender_conversion() {
    let (shared, wz) = (common::shared_dir(), common::wz2100());
    let judge = game::game_checker();
    let tmp = common::temp_dir("pie-blender-game");
    convert_all(&shared.join("corpus/blender"), &wz.join("data"), tmp.path());
    for kind in ["glb", "obj"] {
        let dir = tmp.path().join(kind);
        let models: Vec<&str> = CASES
            .iter()
            .filter(|c| c.file.ends_with(kind))
            .map(|c| c.mod_path)
            .collect();
        let report = game::run_game(&judge, &dir, &models);
        for m in &models {
            assert!(
                report
                    .lines()
                    .any(|l| l.starts_with("OK ") && l.contains(m)),
                "{kind}: {m} not read cleanly:\n{report}"
            );
        }
    }
}
