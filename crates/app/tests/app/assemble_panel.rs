//! The Assemble panel driven through egui_kittest with the real layout and commands, on
//! the game's 4.3.3 stats (`../shared/corpus/wz2100`).

use egui_kittest::kittest::Queryable;
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;

fn state_with_data() -> AppState {
    let wz = common::wz2100();
    let settings = Settings {
        data_roots: vec![wz.join("data/mp"), wz.join("data/base")],
        ..Settings::default()
    };
    let mut state = AppState::new(settings, app_support::DiskHost::new());
    // The stats are read by a job (inline here), taken in as the window's first frame does.
    vitrine_app::dispatch::poll_jobs(&mut state);
    state
}

#[vitrine_test(shared)]
fn picking_a_template_shows_body_propulsion_and_weapon_in_the_hierarchy() {
    let state = state_with_data();
    assert!(
        state.panels.assemble.stats.is_some(),
        "{:?}",
        state.panels.assemble.stats_warnings
    );
    let mut h = app_support::harness(state, 1400.0);
    h.run();
    // Without data roots the panel is not there; with them it is.
    h.get_by_label("Assemble");
    h.get_by_label("Template").click();
    h.run();
    let search = h.get_by_role(egui::accesskit::Role::TextInput);
    search.click();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("ViperMG01");
    h.run();
    h.get_by_label("Machinegun Viper Wheels").click();
    h.run();
    h.run();
    let doc = h
        .state()
        .document
        .open
        .as_ref()
        .expect("an assembly is open");
    assert_eq!(doc.path.to_string(), "template:ViperMG01Wheels");
    // The checks are the parts' own (the 1999-era parts are PIE 2: a note each), each
    // naming its part; the design line itself is no file to read.
    let findings = &h.state().document.checks.findings;
    assert!(!findings.is_empty(), "no findings on the parts");
    for f in findings {
        assert_ne!(f.level, vitrine_core::check::Level::Error, "{f:?}");
        assert!(
            ["body ", "propulsion ", "weapon 1 mount ", "weapon 1 "]
                .iter()
                .any(|role| f.message.starts_with(role)),
            "{f:?}"
        );
    }
    assert!(
        findings
            .iter()
            .any(|f| f.message.starts_with("weapon 1 gnlmg1.pie: "))
    );
    for part in [
        "body: drlbod01.pie",
        "propulsion: prlwhl1.pie",
        "weapon 1 mount: trlmg1.pie",
        "weapon 1: gnlmg1.pie",
    ] {
        assert!(
            h.query_by_label_contains(&format!("{part} [Level]"))
                .is_some(),
            "the hierarchy shows {part}"
        );
    }
    // Open Recent and the settings keep the design.
    let s = &h.state().services.settings;
    assert_eq!(s.recent_files[0].to_str(), Some("template:ViperMG01Wheels"));
    assert!(
        matches!(&s.assembly, Some(vitrine_core::wz::Design::Template { id }) if id == "ViperMG01Wheels")
    );
    // "Open part" opens the barrel alone.
    let opens = h.query_all_by_label("Open part").count();
    assert_eq!(opens, 4);
}

#[vitrine_test(shared)]
fn the_panel_is_absent_without_stats_and_a_recent_template_reopens() {
    let mut h = app_support::harness(app_support::fresh_state(), 900.0);
    h.run();
    assert!(h.query_by_label("Assemble").is_none());

    let state = state_with_data();
    let mut h = app_support::harness(state, 900.0);
    h.run();
    let _ = vitrine_app::dispatch::apply(
        h.state_mut(),
        vitrine_app::commands::AppCommand::Document(vitrine_app::commands::DocumentCommand::Open(
            vitrine_test_support::disk().parse(std::path::Path::new("template:ATESTVTOL")),
        )),
    );
    h.run();
    for part in [
        "weapon 1: gnmrktbb.pie [Level]",
        "propulsion: prmvtl1.pie [Level]",
    ] {
        assert!(h.query_by_label_contains(part).is_some(), "{part}");
    }
}

use crate::app_support;
use crate::common;
use vitrine_test_needs::vitrine_test;

#[vitrine_test(shared)]
fn an_opened_part_is_shown_on_a_droid_and_the_turret_turns() {
    let state = state_with_data();
    let wz = common::wz2100();
    let mut h = app_support::harness(state, 1400.0);
    h.run();
    let gun = wz.join("data/base/components/weapons/gnhgss.pie");
    let _ = vitrine_app::dispatch::apply(
        h.state_mut(),
        vitrine_app::commands::AppCommand::Document(vitrine_app::commands::DocumentCommand::Open(
            vitrine_test_support::disk().parse(&gun),
        )),
    );
    h.run();
    h.get_by_label("Show gnhgss.pie on a droid").click();
    h.run();
    h.run();
    let doc = h.state().document.open.as_ref().unwrap();
    assert!(
        doc.path.to_string().starts_with("parts:body=Body5REC;"),
        "{}",
        doc.path
    );
    assert!(
        h.query_by_label_contains("weapon 1: gnhgss.pie [Level]")
            .is_some()
    );

    // Turning the turret re-assembles: the barrel's group turns about Y.
    let node = |s: &AppState| {
        let d = s.document.open.as_ref().unwrap();
        let i = d
            .model
            .nodes
            .iter()
            .position(|n| n.name == "weapon 1 mount")
            .unwrap();
        d.model.nodes[i].rotation
    };
    assert!(node(h.state()).abs_diff_eq(glam::Quat::IDENTITY, 1e-6));
    let pose = vitrine_core::wz::TurretPose {
        yaw_deg: 90.0,
        ..Default::default()
    };
    let _ = vitrine_app::dispatch::apply(
        h.state_mut(),
        vitrine_app::commands::AppCommand::Assemble(
            vitrine_app::panels::assemble::AssembleCommand::SetPose(pose),
        ),
    );
    h.run();
    let want = glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    assert!(
        node(h.state()).abs_diff_eq(want, 1e-5),
        "{:?}",
        node(h.state())
    );
    assert_eq!(h.state().services.settings.assembly_pose, pose);
}

/// New data roots' stats are read by a job, not on the UI thread: until it has run the
/// panel has none and the progress line says what runs.
#[vitrine_test(shared)]
fn the_stats_of_new_data_roots_are_read_in_the_background() {
    use vitrine_app::commands::AppCommand;
    use vitrine_app::dispatch::{apply, poll_jobs};
    let wz = common::wz2100();
    let mut state = AppState::new(Settings::default(), app_support::DiskHost::new());
    let queue = vitrine_app::jobs::Queued::default();
    state.services.work.set_runner(queue.clone());
    let roots = vec![wz.join("data/mp"), wz.join("data/base")];
    apply(
        &mut state,
        AppCommand::Document(vitrine_app::commands::DocumentCommand::SetDataRoots(roots)),
    );
    assert!(
        state.panels.assemble.stats.is_none(),
        "read before the job ran"
    );
    assert_eq!(
        state.services.work.stats.running().map(|r| r.what.as_str()),
        Some("Reading Warzone 2100 stats")
    );
    assert!(queue.run_all() >= 1);
    poll_jobs(&mut state);
    assert!(state.services.work.stats.running().is_none());
    let stats = state
        .panels
        .assemble
        .stats
        .as_ref()
        .expect("the stats arrived");
    assert!(stats.templates.get("ViperMG01Wheels").is_some());
}

#[vitrine_test(shared)]
fn a_template_whose_parts_are_missing_says_which_and_where_to_look() {
    let wz = common::wz2100();
    // mp's stats without base's models: the template is known, its parts are not there.
    let settings = Settings {
        data_roots: vec![wz.join("data/mp")],
        ..Settings::default()
    };
    let mut state = AppState::new(settings, app_support::DiskHost::new());
    vitrine_app::dispatch::poll_jobs(&mut state);
    let _ = vitrine_app::dispatch::apply(
        &mut state,
        vitrine_app::commands::AppCommand::Document(vitrine_app::commands::DocumentCommand::Open(
            vitrine_test_support::disk().parse(std::path::Path::new("template:ViperMG01Wheels")),
        )),
    );
    let said: Vec<&str> = state
        .services
        .toasts
        .items
        .iter()
        .filter(|t| t.error)
        .map(|t| t.text.as_str())
        .collect();
    assert!(
        said.iter()
            .any(|t| t.contains("not found in the data roots")
                && t.contains("body drlbod01.pie")
                && t.contains("Settings ▸ Data roots")),
        "{said:#?}"
    );
}
