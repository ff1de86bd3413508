//! A toast's button (egui_kittest, no GPU): clicking "Open folder" asks the front-end
//! for the effect the toast carries, performed as the window's shell would, and leaves
//! the toast up.

use crate::app_support;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::PathBuf;
use vitrine_app::effect::Effect;
use vitrine_app::state::AppState;

/// The window's state and the effects the window would perform.
struct World {
    state: AppState,
    effects: Vec<Effect>,
}

fn frame(ui: &mut egui::Ui, w: &mut World) {
    let effects = app_support::run_frame(ui, &mut w.state, app_support::stand_in_view);
    w.effects.extend(effects);
}

#[test]
fn a_toasts_button_performs_the_effect_it_carries() {
    let state = app_support::fresh_state();
    let mut h = Harness::builder()
        .with_size(egui::vec2(900.0, 700.0))
        .build_ui_state(
            frame,
            World {
                state,
                effects: Vec::new(),
            },
        );
    h.run_steps(2);
    let dir = PathBuf::from("/tmp/exports");
    h.state_mut().state.services.toasts.info_with_action(
        "Exported tank.gif",
        "Open folder",
        Effect::OpenFolder(dir.clone()),
    );
    h.run_steps(2);
    assert!(h.state().effects.is_empty(), "{:?}", h.state().effects);
    h.get_by_label("Open folder").click();
    h.run_steps(2);
    assert_eq!(h.state().effects, [Effect::OpenFolder(dir)]);
    h.get_by_label("Exported tank.gif");
}
