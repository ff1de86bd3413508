//! The View menu's overlay and shadow toggles and their keys. Plain letters, active only
//! while no text field has the keyboard: C connectors, N normals, W wireframe, B bounding
//! box, G grid, A axes, K bones, L collision boxes, M shadow mesh, X x-ray, S shadows;
//! H hides the selection, Alt+H shows everything, I isolates, Esc clears the selection.

use crate::commands::AppCommand;
use crate::inspect::state::InspectCommand;
use crate::render::OverlayKind;
use crate::state::AppState;
use egui::{self, Key, Modifiers};

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
    let o = &state.services.settings.overlays;
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
                .selected(state.services.settings.shadows)
                .shortcut_text("S"),
        )
        .clicked()
    {
        out.push(AppCommand::Inspect(InspectCommand::ToggleShadows));
    }
    out
}

/// The overlay and visibility keys pressed this frame (none while typing, none while a
/// menu or popup is open: Escape closes the menu then, it does not clear the selection).
pub fn shortcuts(ctx: &egui::Context) -> Vec<AppCommand> {
    let mut out: Vec<InspectCommand> = Vec::new();
    if ctx.text_edit_focused() || egui::Popup::is_any_open(ctx) {
        return Vec::new();
    }
    ctx.input_mut(|i| {
        for (modifiers, key, cmd, _) in inspect_keys() {
            if i.consume_key(modifiers, key) {
                out.push(cmd);
            }
        }
    });
    out.into_iter().map(AppCommand::Inspect).collect()
}

/// The overlay, shadow and visibility keys, most specific first (Alt+H before H: egui
/// ignores an unnamed Alt when matching): for [`shortcuts`] and the Help window.
pub fn inspect_keys() -> Vec<(Modifiers, Key, InspectCommand, String)> {
    let none = Modifiers::NONE;
    let mut v: Vec<_> = OverlayKind::ALL
        .into_iter()
        .map(|kind| {
            let what = format!("{} overlay on / off", kind.label());
            (none, key(kind), InspectCommand::ToggleOverlay(kind), what)
        })
        .collect();
    for (modifiers, key, cmd, what) in [
        (
            none,
            Key::S,
            InspectCommand::ToggleShadows,
            "Shadows on / off",
        ),
        (
            Modifiers::ALT,
            Key::H,
            InspectCommand::ShowAll,
            "Show everything",
        ),
        (
            none,
            Key::H,
            InspectCommand::HideSelected,
            "Hide the selection",
        ),
        (
            none,
            Key::I,
            InspectCommand::ToggleIsolate,
            "Isolate the selection",
        ),
        (
            none,
            Key::Escape,
            InspectCommand::Select(None),
            "Clear the selection",
        ),
    ] {
        v.push((modifiers, key, cmd, what.to_string()));
    }
    v
}
