//! The Checks panel driven through egui_kittest: counts and the error badge in its
//! header, findings by level, and picking one selects its level, asks the hierarchy to
//! scroll there and marks the polygon in the view.

use crate::app_support;
use crate::common;

use egui_kittest::kittest::Queryable;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::state::AppState;
use vitrine_core::check::Element;
use vitrine_core::files::FileRef;

fn open(name: &str) -> egui_kittest::Harness<'static, AppState> {
    let path = common::fixtures()
        .join("check/pie")
        .join(format!("{name}.pie"));
    let mut h = app_support::harness(app_support::fresh_state(), 900.0);
    h.run();
    vitrine_app::dispatch::apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(FileRef::Disk(path))),
    );
    h.run();
    h
}

#[test]
fn picking_a_finding_selects_and_marks_its_polygon() {
    let mut h = open("texanim-mismatch");
    assert!(
        h.state().document.open.is_some(),
        "{:?}",
        h.state().document.load_error
    );
    h.get_by_label_contains("Checks");
    h.get_by_label_contains("1 warning · 0 notes");
    assert!(h.state().view_settings().highlight.is_empty());
    h.get_by_label_contains("line 13 · pie/texanim-mismatch")
        .click();
    h.run();
    let s = h.state();
    let picked = s.document.checks.picked().expect("a finding is picked");
    assert_eq!(
        picked.element,
        Element::Polygon {
            mesh: 0,
            polygon: 1
        }
    );
    // Level 1 is selected and the second polygon (triangle 1) is marked.
    assert_eq!(s.document.inspect.selected, Some(0));
    assert_eq!(s.view_settings().highlight.triangles, vec![(0, 1)]);
    // The hierarchy scrolled to the level and cleared the request.
    assert_eq!(s.document.checks.scroll_to, None);
    // Clicking again unpicks it.
    h.get_by_label_contains("line 13 · pie/texanim-mismatch")
        .click();
    h.run();
    assert!(h.state().document.checks.picked().is_none());
    assert!(h.state().view_settings().highlight.is_empty());
}

#[test]
fn errors_show_a_badge_and_points_are_marked() {
    let h = open("not-triangle");
    // The header reads "Checks  1  error  0 warnings · …" with the count on a red badge.
    h.get_by_label_contains("error");
    assert_eq!(h.state().document.checks.counts().errors, 1);
    h.get_by_label_contains("Errors (1)");
    let mut h = open("duplicate-point");
    // Notes only: the section starts closed; open it, pick the note.
    h.get_by_label_contains("0 warnings · 1 note").click();
    h.run();
    h.get_by_label_contains("pie/duplicate-point").click();
    h.run();
    assert_eq!(h.state().view_settings().highlight.points, vec![(0, 4)]);
    assert_eq!(h.state().document.inspect.selected, Some(0));
}

#[test]
fn a_clean_file_says_so() {
    let mut h = open("clean");
    h.get_by_label_contains("0 warnings · 0 notes").click();
    h.run();
    h.get_by_label_contains("No findings");
}
