//! The window's offer to show a crash report left by an earlier run: the notice names
//! the report, "Show report" shows its text, "Dismiss" closes it for good (the next
//! start offers nothing), and a newer report is offered again.

use egui_kittest::Harness;
use egui_kittest::kittest::{self, Queryable};
use vitrine::crash;
use vitrine::desktop::window::crash_notice::{CrashNotice, ui};

struct Shown {
    notice: Option<CrashNotice>,
}

fn harness(notice: CrashNotice) -> Harness<'static, Shown> {
    Harness::builder()
        .with_size(eframe::egui::vec2(900.0, 700.0))
        .build_ui_state(
            |egui_ui, s: &mut Shown| {
                if let Some(n) = &mut s.notice
                    && !ui(egui_ui.ctx(), n)
                {
                    s.notice = None;
                }
            },
            Shown {
                notice: Some(notice),
            },
        )
}

#[test]
fn report_is_offered_shown_and_dismissed_once() {
    let dir = tempfile::tempdir().unwrap();
    assert!(
        CrashNotice::find(dir.path()).is_none(),
        "no report, no notice"
    );
    let text = "Vitrine crash report\n\nfile being opened: tank.wz!/body5.pie\npanic: boom\n";
    let report = crash::write_report(dir.path(), text).unwrap();
    let notice = CrashNotice::find(dir.path()).expect("a notice for the new report");
    assert_eq!(notice.report, report);

    let mut h = harness(notice);
    h.run();
    h.get_by_label_contains(&report.display().to_string());
    let shows_report = |h: &Harness<'static, Shown>| {
        h.query_all(
            kittest::By::new().predicate(|n| n.value().is_some_and(|v| v.contains("panic: boom"))),
        )
        .next()
        .is_some()
    };
    assert!(!shows_report(&h), "the text waits for Show report");
    h.get_by_label("Show report").click();
    h.run();
    assert!(shows_report(&h), "Show report shows the report's text");
    h.get_by_label("Dismiss").click();
    h.run();
    assert!(h.state().notice.is_none(), "dismiss closes the notice");
    assert!(
        CrashNotice::find(dir.path()).is_none(),
        "a dismissed report is not offered again"
    );
    let newer = crash::write_report(dir.path(), "second crash").unwrap();
    assert_eq!(CrashNotice::find(dir.path()).map(|n| n.report), Some(newer));
}
