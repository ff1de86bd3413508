//! The Help window in the real layout (egui_kittest, no GPU): F1 and `?` open the
//! keyboard and mouse reference, which lists what the input tables bind — so a key added
//! to a table shows up, and a key the reference shows does what it says.

use crate::app_support;

use egui::{Key, KeyboardShortcut, Modifiers};
use egui_kittest::kittest::Queryable;
use vitrine_app::help::HelpTab;
use vitrine_app::state::AppState;

fn harness() -> egui_kittest::Harness<'static, AppState> {
    app_support::harness(app_support::fresh_state(), 900.0)
}

#[test]
fn f1_and_question_mark_toggle_the_reference_built_from_the_key_tables() {
    let mut h = harness();
    h.run();
    assert_eq!(h.state().dialogs.help, None);
    h.key_press(Key::F1);
    h.run();
    assert_eq!(h.state().dialogs.help, Some(HelpTab::Keys));

    let ctx = h.ctx.clone();
    let fmt = |m: Modifiers, k: Key| ctx.format_shortcut(&KeyboardShortcut::new(m, k));
    // One action from each table the input code reads, with its keys.
    for (keys, action) in [
        (fmt(Modifiers::COMMAND, Key::O), "Open a model…"),
        (fmt(Modifiers::NONE, Key::F), "Frame the model"),
        (
            fmt(Modifiers::NONE, Key::L),
            "Collision boxes overlay on / off",
        ),
        (fmt(Modifiers::ALT, Key::H), "Show everything"),
        (
            fmt(Modifiers::COMMAND | Modifiers::SHIFT, Key::L),
            "Dimmer light",
        ),
        (fmt(Modifiers::NONE, Key::Space), "Play / pause"),
        ("Left drag".to_string(), "Orbit"),
    ] {
        h.get_by_label(action);
        assert!(
            h.query_all_by_label(&keys).next().is_some(),
            "{keys} (for {action}) not shown"
        );
    }
    // Every binding of the reference is on the page.
    for section in vitrine_app::help::reference::sections(&ctx) {
        assert!(h.query_all_by_label(section.title).next().is_some());
        for b in section.bindings {
            assert!(
                h.query_all_by_label(&b.action).next().is_some(),
                "{} missing",
                b.action
            );
        }
    }

    // Punctuation keys are written as their character, not egui's name for them.
    assert!(h.query_all_by_label("?").next().is_some(), "`?` not shown");
    assert!(
        h.query_all_by_label_contains("Questionmark")
            .next()
            .is_none()
    );

    h.key_press(Key::F1);
    h.run();
    assert_eq!(h.state().dialogs.help, None, "F1 again closes it");
    h.key_press(Key::Questionmark);
    h.run();
    assert_eq!(h.state().dialogs.help, Some(HelpTab::Keys));
}

#[test]
fn help_menu_opens_formats_and_about_with_copy() {
    let mut h = harness();
    h.run();
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("Formats…").click();
    h.run();
    assert_eq!(h.state().dialogs.help, Some(HelpTab::Formats));
    h.get_by_label_contains("retreev/Documentation");
    h.get_by_label(".pet .apet .bpet .mpet");

    h.get_by_label("About").click();
    h.run();
    assert_eq!(h.state().dialogs.help, Some(HelpTab::About));
    h.get_by_label(&format!("Vitrine {}", env!("CARGO_PKG_VERSION")));
    h.get_by_label("MIT OR Apache-2.0");
    h.get_by_label("GPU adapter");
    h.get_by_label("Copy").click();
    h.run();
    assert!(
        h.state()
            .services
            .toasts
            .items
            .iter()
            .any(|t| t.text.contains("Copied")),
        "a toast says it was copied"
    );
}
