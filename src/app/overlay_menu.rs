//! The View menu's overlay and shadow toggles and their keys. Plain letters, active only
//! while no text field has the keyboard: C connectors, N normals, W wireframe, B bounding
//! box, G grid, A axes, K bones, L collision boxes, M shadow mesh, X x-ray, S shadows;
//! H hides the selection, Alt+H shows everything, I isolates, Esc clears the selection.

use super::commands::AppCommand;
use super::inspect::InspectCommand;
use super::state::AppState;
use crate::render::OverlayKind;
use eframe::egui::{self, Key, Modifiers};

/// The key of an overlay.
pub fn key(kind: OverlayKind) -> Key {
    match kind {
        OverlayKind::Connectors => Key::C,
        OverlayKind::Normals => Key::N,
        OverlayKind::Wireframe => Key::W,
        OverlayKind::Bounds => Key::B,
        OverlayKind::Grid => Key::G,
        OverlayKind::Axes => Key::A,
        OverlayKind::Bones => Key::K,
        OverlayKind::Collision => Key::L,
        OverlayKind::ShadowMesh => Key::M,
        OverlayKind::Xray => Key::X,
    }
}

/// The key's name as menus show it.
pub fn key_name(kind: OverlayKind) -> &'static str {
    key(kind).name()
}

/// Overlay entries for the View menu.
pub fn overlay_menu_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    ui.separator();
    let o = &state.settings.overlays;
    for kind in OverlayKind::ALL {
        if kind == OverlayKind::Xray {
            ui.separator();
        }
        if ui
            .add(
                egui::Button::new(kind.label())
                    .selected(o.get(kind))
                    .shortcut_text(key_name(kind)),
            )
            .clicked()
        {
            out.push(AppCommand::Inspect(InspectCommand::ToggleOverlay(kind)));
        }
    }
    if ui
        .add(
            egui::Button::new("Shadows")
                .selected(state.settings.shadows)
                .shortcut_text("S"),
        )
        .clicked()
    {
        out.push(AppCommand::Inspect(InspectCommand::ToggleShadows));
    }
    out
}

/// The overlay and visibility keys pressed this frame (none while typing).
pub fn shortcuts(ctx: &egui::Context) -> Vec<AppCommand> {
    let mut out: Vec<InspectCommand> = Vec::new();
    if ctx.text_edit_focused() {
        return Vec::new();
    }
    ctx.input_mut(|i| {
        let none = Modifiers::NONE;
        for kind in OverlayKind::ALL {
            if i.consume_key(none, key(kind)) {
                out.push(InspectCommand::ToggleOverlay(kind));
            }
        }
        if i.consume_key(none, Key::S) {
            out.push(InspectCommand::ToggleShadows);
        }
        if i.consume_key(Modifiers::ALT, Key::H) {
            out.push(InspectCommand::ShowAll);
        } else if i.consume_key(none, Key::H) {
            out.push(InspectCommand::HideSelected);
        }
        if i.consume_key(none, Key::I) {
            out.push(InspectCommand::ToggleIsolate);
        }
        if i.consume_key(none, Key::Escape) {
            out.push(InspectCommand::Select(None));
        }
    });
    out.into_iter().map(AppCommand::Inspect).collect()
}
