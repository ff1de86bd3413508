//! Korean text in the window: a PangYa model's event script (`*msg("발소리")`, code page
//! 949 in the file) is listed in the side panel and laid out with a system font found
//! through the window's font provider — no boxes. egui_kittest refuses to lay out a
//! character no font has, so a missing fallback fails the run itself; the test also asks
//! the fonts directly. CI installs `fonts-nanum` (`.ci/run`).

mod app_support;
mod common;

use eframe::egui;
use egui_kittest::kittest::Queryable;
use vitrine::app::commands::{AppCommand, apply};
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;

#[test]
fn pet_event_text_renders_with_a_system_cjk_font() {
    let Some(dir) = common::synthetic() else {
        return;
    };
    assert!(
        vitrine::app::fonts::cjk_font_installed(),
        "no CJK font on this system: install fonts-nanum or fonts-noto-cjk"
    );
    let mut h = app_support::harness(AppState::new(Settings::default(), None), 1000.0);
    h.run();
    let file = dir.join("pet/puppet_v13.pet");
    let _ = apply(h.state_mut(), AppCommand::Open(file.as_path().into()));
    h.run();
    assert!(h.state().load_error.is_none(), "{:?}", h.state().load_error);
    let model = &h.state().document.as_ref().unwrap().model;
    assert!(vitrine::app::fonts::model_needs_cjk(model));
    // Decoded, not replaced: the FRAM script as the manifest writes it.
    let event = "frame 55: *msg(\"발소리\")";
    h.get_by_label(event);
    assert!(!event.contains('\u{FFFD}'));
    let drawn = h.ctx.fonts_mut(|f| {
        f.has_glyphs(&egui::FontId::proportional(14.0), "발소리")
            && f.has_glyphs(&egui::FontId::monospace(14.0), "발소리")
    });
    assert!(drawn, "the Korean text has no glyphs after the fallback");
    // With the font found, the panel does not ask for one.
    assert!(h.query_by_label_contains("No Korean (CJK) font").is_none());
}
