//! View ▸ Messages… in the real layout (egui_kittest, no GPU): a failed load and a toast
//! are still listed, with their time, after the toasts in the corner have expired; the
//! menu item counts the errors; Copy all puts both lines on the clipboard; Clear empties
//! the list.

use crate::{app_support, common};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::dispatch::apply;
use vitrine_app::jobs::Queued;
use vitrine_app::settings::Settings;
use vitrine_app::state::AppState;

/// A window whose jobs wait on the returned queue.
fn window() -> (Harness<'static, AppState>, Queued) {
    let mut state = AppState::new(Settings::default(), app_support::DiskHost::new());
    let queue = Queued::default();
    state.services.work.set_runner(queue.clone());
    let mut h = app_support::harness(state, 900.0);
    h.run_steps(4);
    (h, queue)
}

/// The text egui was asked to put on the clipboard in the last frame.
fn copied(h: &Harness<'static, AppState>) -> Option<String> {
    h.output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
}

#[test]
fn messages_outlive_their_toasts_and_copy_and_clear() {
    let (mut h, queue) = window();
    let bad = common::fixtures().join("pie").join("bad_index.pie");
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(bad.into())),
    );
    queue.run_all();
    h.state_mut()
        .services
        .toasts
        .info("Saved tank-1.png to /tmp/shots");
    h.run_steps(4);
    assert!(h.state().document.load_error.is_some(), "the load failed");
    h.get_by_label("Saved tank-1.png to /tmp/shots");

    // 20 s at the harness's quarter of a second a step: every toast has expired.
    h.run_steps(80);
    assert!(h.state().services.toasts.items.is_empty());
    assert!(
        h.query_by_label("Saved tank-1.png to /tmp/shots").is_none(),
        "the toast is gone from the corner"
    );

    // The menu bar's View (the side panel has a "View" section too): the topmost.
    h.query_all_by_label("View")
        .min_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
        .expect("the View menu")
        .click();
    h.run_steps(4);
    h.get_by_label("Messages… (1 error)").click();
    h.run_steps(4);
    assert!(h.state().panels.messages.open);
    h.get_by_label("Saved tank-1.png to /tmp/shots");
    let failure = "Could not open bad_index.pie: bad_index.pie";
    assert!(
        h.query_all_by_label_contains(failure).next().is_some(),
        "the failed load is listed"
    );
    let kinds: Vec<(bool, String)> = h
        .state()
        .panels
        .messages
        .newest_first()
        .map(|m| (m.error, m.text.clone()))
        .collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert_eq!(kinds[0], (false, "Saved tank-1.png to /tmp/shots".into()));
    assert!(kinds[1].0 && kinds[1].1.starts_with(failure), "{kinds:?}");

    h.get_by_label("Copy all").click();
    h.step();
    let text = copied(&h).expect("Copy all copies");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].ends_with(" UTC  info  Saved tank-1.png to /tmp/shots"),
        "{text}"
    );
    assert!(
        lines[1].contains(" UTC  error  Could not open bad_index.pie: bad_index.pie"),
        "{text}"
    );
    // `HH:MM:SS UTC` opens each message's first line.
    for line in [lines[0], lines[1]] {
        let (clock, _) = line.split_once(" UTC").expect("a time");
        assert_eq!(clock.len(), 8, "{line}");
        assert!(
            clock
                .split(':')
                .all(|p| p.len() == 2 && p.parse::<u8>().is_ok()),
            "{line}"
        );
    }

    h.get_by_label("Clear").click();
    h.run_steps(4);
    assert!(h.state().panels.messages.is_empty());
    h.get_by_label("No messages in this session yet.");
    assert!(h.query_by_label("Saved tank-1.png to /tmp/shots").is_none());
}
