//! The timeline driven through egui_kittest: its ui function in a harness (no window, no
//! GPU), with the real command handling and a fixed 1/60 s playback tick per frame.

use crate::app_support;
use crate::common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::dispatch::apply;
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;
use vitrine_app::timeline::{tick, timeline_ui};
use vitrine_core::model::{
    Clip, EventMarker, Format, Interpolation, Model, ModelEvent, Motion, Node, NodeKind, NodeTrack,
    Track,
};
use vitrine_test_needs::vitrine_test;

/// One node and two clips: "walk" (10 frames at 10 fps, looping, motions "a" 0–3 and
/// "b" 4–9, an event at frame 3, keyframes 0/5/9) and "wave" (5 frames at 5 fps, once).
fn animated() -> Model {
    let mut m = Model::new(Format::Pet, "1.3");
    m.nodes.push(Node::new("root", None, NodeKind::Bone));
    let mut walk = Clip::new("walk", 10.0, 10, true);
    let mut t = NodeTrack::new(0);
    t.translation = Some(Track::new(
        vec![(0.0, glam::Vec3::ZERO), (0.9, glam::Vec3::X)],
        Interpolation::Linear,
    ));
    walk.node_tracks.push(t);
    for (name, start, end) in [("a", 0, 3), ("b", 4, 9)] {
        walk.motions.push(Motion {
            name: name.into(),
            start,
            end,
            next: None,
            blend_time: 0.0,
        });
    }
    walk.events.push(EventMarker {
        frame: 3,
        text: "*sound(\"step.wav\")".into(),
    });
    walk.keyframes = vec![0, 5, 9];
    m.clips.push(walk);
    m.clips.push(Clip::new("wave", 5.0, 5, false));
    m
}

fn state_with(model: Model) -> AppState {
    let mut s = AppState::new(Settings::default(), app_support::DiskHost::new());
    s.set_document(
        vitrine_core::files::FileRef::Disk("animated.pet".into()),
        model,
    );
    s
}

fn harness(state: AppState) -> Harness<'static, AppState> {
    Harness::builder()
        .with_size(egui::vec2(1100.0, 110.0))
        .build_ui_state(
            |ui, state: &mut AppState| {
                tick(state, 1.0 / 60.0);
                for cmd in timeline_ui(ui, state) {
                    let _ = apply(state, cmd);
                }
            },
            state,
        )
}

fn playing(h: &Harness<'_, AppState>) -> bool {
    h.state().document.open.as_ref().unwrap().playback.playing
}

/// Asserts that the readout says `want` (e.g. `frame 4 / 10`).
#[track_caller]
fn assert_readout(h: &Harness<'_, AppState>, want: &str) {
    assert!(
        h.query_by_label(want).is_some(),
        "no readout {want:?}; playback {:?}",
        h.state().document.open.as_ref().unwrap().playback
    );
}

/// The window's frame (the app's own, as the desktop and the page run it) moves
/// playback on by the window's clock while playing, the pose with it, and not while
/// paused.
#[test]
fn the_windows_frame_plays_the_animation_by_its_clock() {
    let mut h = app_support::harness(state_with(animated()), 600.0);
    h.run();
    let time = |h: &Harness<'_, AppState>| h.state().document.open.as_ref().unwrap().playback.time;
    let root_x = |h: &Harness<'_, AppState>| {
        h.state().document.open.as_ref().unwrap().pose.world[0]
            .w_axis
            .x
    };
    assert!(playing(&h), "an animated model starts playing");
    let (t0, x0) = (time(&h), root_x(&h));
    app_support::set_frame_dt(0.05);
    h.run_steps(6);
    assert!(
        (time(&h) - t0 - 0.3).abs() < 1e-4,
        "six frames of 0.05 s from {t0}: {}",
        time(&h)
    );
    assert!(
        root_x(&h) > x0,
        "the root did not move: {x0} → {}",
        root_x(&h)
    );
    let _ = apply(
        h.state_mut(),
        AppCommand::Timeline(vitrine_app::timeline::playback::TimelineCommand::PlayPause),
    );
    let t = time(&h);
    h.run_steps(6);
    assert_eq!(time(&h), t, "paused, time stands still");
}

#[test]
fn space_and_the_button_play_and_pause() {
    let mut h = harness(state_with(animated()));
    h.run();
    assert!(playing(&h), "an animated model starts playing");
    h.get_by_label("Pause (Space)");
    h.key_press(egui::Key::Space);
    h.run();
    assert!(!playing(&h));
    h.get_by_label("Play (Space)").click();
    h.run();
    assert!(playing(&h));
    h.key_press(egui::Key::Space);
    h.run();
    assert!(!playing(&h));
    // Paused, time stands still.
    let t = h.state().document.open.as_ref().unwrap().playback.time;
    h.run_steps(10);
    assert_eq!(h.state().document.open.as_ref().unwrap().playback.time, t);
}

#[test]
fn arrows_and_buttons_step_one_frame_home_and_end_jump() {
    let mut h = harness(state_with(animated()));
    h.key_press(egui::Key::Home);
    h.key_press(egui::Key::Space);
    h.run();
    assert_readout(&h, "frame 0 / 10");
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_readout(&h, "frame 1 / 10");
    h.get_by_label("Next frame (Right arrow)").click();
    h.run();
    assert_readout(&h, "frame 2 / 10");
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_readout(&h, "frame 1 / 10");
    h.key_press(egui::Key::End);
    h.run();
    assert_readout(&h, "frame 9 / 10");
    h.get_by_label("First frame (Home)").click();
    h.run();
    // Tooltips render (a glyph missing from the fonts would panic here).
    h.get_by_label("Previous frame (Left arrow)").hover();
    h.run_steps(40);
    assert_readout(&h, "frame 0 / 10");
    // The pose follows: the root is at x = frame / 9 on this clip.
    h.key_press(egui::Key::ArrowRight);
    h.key_press(egui::Key::ArrowRight);
    h.key_press(egui::Key::ArrowRight);
    h.run();
    let x = h.state().document.open.as_ref().unwrap().pose.world[0]
        .w_axis
        .x;
    assert!((x - 3.0 / 9.0).abs() < 1e-4, "{x}");
}

#[test]
fn dragging_the_scrubber_while_playing_sets_the_frame() {
    let mut h = harness(state_with(animated()));
    h.run();
    assert!(playing(&h));
    let bar = h
        .get_by_label("Timeline")
        .rect()
        .shrink2(egui::vec2(6.0, 0.0));
    let at = |f: f32| egui::pos2(bar.left() + bar.width() * f / 9.0, bar.center().y);
    h.hover_at(at(1.0));
    h.drag_at(at(1.0));
    h.step();
    h.hover_at(at(6.5));
    h.step();
    h.step();
    // Still held: the playhead stays under the pointer although playback runs.
    h.step();
    assert_readout(&h, "frame 6 / 10");
    assert!(playing(&h), "scrubbing does not stop playback");
    h.drop_at(at(6.5));
    h.step();
    let f = h
        .state()
        .document
        .open
        .as_ref()
        .unwrap()
        .playback
        .frame(&animated());
    assert!(
        (6..=7).contains(&f),
        "playback continues from the drop: {f}"
    );
}

#[test]
fn clip_selector_switches_clips_and_motions() {
    let mut h = harness(state_with(animated()));
    h.run();
    h.get_by_label("Clip").click();
    h.run();
    h.get_by_label("wave (5 frames)").click();
    h.run();
    let p = &h.state().document.open.as_ref().unwrap().playback;
    assert_eq!((p.clip, p.motion), (Some(1), None));
    assert_readout(&h, "frame 0 / 5");
    h.get_by_label("Clip").click();
    h.run();
    h.get_by_label_contains("walk / b (frames 4–9)").click();
    h.key_press(egui::Key::Space);
    h.run();
    let p = &h.state().document.open.as_ref().unwrap().playback;
    assert_eq!((p.clip, p.motion), (Some(0), Some(1)));
    assert_readout(&h, "frame 4 / 10");
    // Stepping back from the motion's first frame wraps to its last, not to frame 3.
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_readout(&h, "frame 9 / 10");
}

#[test]
fn event_markers_are_on_the_bar() {
    let mut h = harness(state_with(animated()));
    h.run();
    let marker = h.get_by_label("Event at frame 3: *sound(\"step.wav\")");
    let bar = h
        .get_by_label("Timeline")
        .rect()
        .shrink2(egui::vec2(6.0, 0.0));
    let want = bar.left() + bar.width() * 3.0 / 9.0;
    assert!((marker.rect().center().x - want).abs() < 1.0);
}

#[vitrine_test(shared)]
fn event_selector_shows_the_event_model_and_marks_missing_files() {
    let dir = common::synthetic();
    let mut base = Model::new(Format::Pie, "3");
    base.nodes.push(Node::new("level 1", None, NodeKind::Level));
    base.events.push(ModelEvent {
        kind: 1,
        file: "robot.pmf".into(),
        resolved: Some(dir.join("pmf/robot.pmf").into()),
    });
    base.events.push(ModelEvent {
        kind: 3,
        file: "gone.pie".into(),
        resolved: None,
    });
    let mut h = harness(state_with(base));
    h.run();
    h.get_by_label("dying model gone.pie MISSING");
    h.get_by_label("Model").click();
    h.run();
    h.get_by_label("active (robot.pmf)").click();
    h.run();
    let doc = h.state().document.open.as_ref().unwrap();
    assert_eq!(doc.shown_event(), Some(0));
    assert_eq!(doc.model.nodes.len(), 11, "the robot is shown");
    assert_eq!(doc.base_model().events.len(), 2);
    assert!(doc.playback.playing, "with its own animation");
    assert_eq!(doc.playback.clip(&doc.model).unwrap().name, "walk");
    // The missing one cannot be picked; picking it by command says why.
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::ShowEvent(Some(1))),
    );
    assert_eq!(
        h.state().document.open.as_ref().unwrap().shown_event(),
        Some(0)
    );
    assert!(
        h.state()
            .services
            .toasts
            .items
            .iter()
            .any(|t| format!("{t:?}").contains("gone.pie"))
    );
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::ShowEvent(None)),
    );
    assert_eq!(
        h.state().document.open.as_ref().unwrap().model.nodes.len(),
        1
    );
}

#[vitrine_test(shared)]
fn reloading_keeps_clip_and_time() {
    let dir = common::synthetic();
    let mut s = AppState::new(Settings::default(), app_support::DiskHost::new());
    let _ = apply(
        &mut s,
        AppCommand::Document(DocumentCommand::Open(dir.join("pmf/robot.pmf").into())),
    );
    for cmd in [
        vitrine_app::timeline::playback::TimelineCommand::SelectClip {
            clip: 1,
            motion: None,
        },
        vitrine_app::timeline::playback::TimelineCommand::Seek(0.5),
        vitrine_app::timeline::playback::TimelineCommand::PlayPause,
    ] {
        let _ = apply(&mut s, AppCommand::Timeline(cmd));
    }
    let _ = apply(&mut s, AppCommand::Document(DocumentCommand::Reload));
    let p = &s.document.open.as_ref().unwrap().playback;
    assert_eq!((p.clip, p.time, p.playing), (Some(1), 0.5, false));
    let _ = apply(
        &mut s,
        AppCommand::Document(DocumentCommand::Open(dir.join("pmf/robot.pmf").into())),
    );
    assert_eq!(s.document.open.as_ref().unwrap().playback.clip, Some(1));
    // Another file starts at its own beginning.
    let _ = apply(
        &mut s,
        AppCommand::Document(DocumentCommand::Open(dir.join("pmf/tentacle.pmf").into())),
    );
    let p = &s.document.open.as_ref().unwrap().playback;
    assert_eq!((p.clip, p.time), (Some(0), 0.0));
}
