//! View ▸ Lighting: the light's direction (two sliders, or Ctrl + drag in the view),
//! intensity (also Ctrl+L brighter, Ctrl+Shift+L dimmer, like f3d's L / Shift+L — plain
//! L is the collision overlay here), ambient, and whether the light follows the camera.
//! Persisted in the settings; the view, screenshots and animation exports all draw with
//! it (they take [`AppState::view_settings`]).

pub mod command;

pub use command::{LightCommand, LightContext};

use super::commands::AppCommand;
use super::state::AppState;
use crate::render::Lighting;
use crate::render::lighting::{AMBIENT_RANGE, INTENSITY_RANGE};
use egui::{self, Key, KeyboardShortcut, Modifiers};

/// Ctrl+L: a brighter light.
pub const BRIGHTER: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::L);
/// Ctrl+Shift+L: a dimmer light.
pub const DIMMER: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::L);
/// The modifier that makes a left drag in the view turn the light.
pub const DRAG_MODIFIER: Modifiers = Modifiers::COMMAND;

/// The View ▸ Lighting submenu's contents.
pub fn lighting_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let mut l = state.services.settings.lighting;
    let before = l;
    let mut finished = false;
    ui.set_min_width(260.0);
    let mut follows = l.follows_camera;
    if ui
        .checkbox(&mut follows, "Light follows the camera")
        .on_hover_text(
            "On: the light keeps its place beside the camera as you orbit. Off: it stays \
             fixed to the model, so turning the model shows its shape.",
        )
        .changed()
    {
        out.push(LightCommand::FollowCamera(follows));
    }
    let front = if l.follows_camera {
        "camera"
    } else {
        "model's front"
    };
    egui::Grid::new("lighting grid")
        .num_columns(2)
        .show(ui, |ui| {
            let mut row = |ui: &mut egui::Ui, label: &str, slider: egui::Slider, hover: &str| {
                ui.label(label);
                let r = ui.add(slider).on_hover_text(hover);
                finished |= r.drag_stopped() || (r.changed() && !r.dragged());
                ui.end_row();
            };
            row(
                ui,
                "Azimuth",
                egui::Slider::new(&mut l.azimuth_deg, -180.0..=180.0).suffix("°"),
                &format!("Where the light comes from: 0° = from the {front}, 90° = from the right"),
            );
            row(
                ui,
                "Elevation",
                egui::Slider::new(&mut l.elevation_deg, -90.0..=90.0).suffix("°"),
                "Height of the light: 90° = from straight above",
            );
            row(
                ui,
                "Intensity",
                egui::Slider::new(&mut l.diffuse, INTENSITY_RANGE),
                &format!(
                    "Strength of the directional light ({} brighter, {} dimmer)",
                    crate::keys::shortcut_text(ui.ctx(), &BRIGHTER),
                    crate::keys::shortcut_text(ui.ctx(), &DIMMER)
                ),
            );
            row(
                ui,
                "Ambient",
                egui::Slider::new(&mut l.ambient, AMBIENT_RANGE),
                "Light everywhere, also on faces turned away from the light",
            );
        });
    if l != before {
        out.push(LightCommand::Set(l));
    }
    if finished {
        out.push(LightCommand::Save);
    }
    ui.weak(format!(
        "{} + drag in the view turns the light",
        modifier_name(ui.ctx())
    ));
    if state
        .document
        .open
        .as_ref()
        .is_some_and(|d| d.map().is_some())
    {
        ui.weak(
            "A map is lit as Warzone 2100 lights it: its ground by the light the game bakes \
             for each tile corner, its objects at their flat brightness; this light does not \
             change them.",
        );
    }
    if ui
        .add_enabled(
            state.services.settings.lighting != Lighting::DEFAULT,
            egui::Button::new("Reset light"),
        )
        .clicked()
    {
        out.push(LightCommand::Reset);
    }
    out.into_iter().map(AppCommand::Light).collect()
}

/// "Ctrl" (or "Cmd" on macOS): the [`DRAG_MODIFIER`] as this platform writes it.
pub fn modifier_name(ctx: &egui::Context) -> String {
    let shortcut = crate::keys::shortcut_text(ctx, &KeyboardShortcut::new(DRAG_MODIFIER, Key::A));
    shortcut
        .trim_end_matches('A')
        .trim_end_matches('+')
        .to_string()
}

/// Whether a drag with these modifiers turns the light (rather than the camera).
pub fn is_light_drag(modifiers: Modifiers) -> bool {
    modifiers.command && !modifiers.shift
}

/// Ctrl+L / Ctrl+Shift+L (none while typing).
pub fn shortcuts(ctx: &egui::Context) -> Vec<AppCommand> {
    if ctx.text_edit_focused() {
        return Vec::new();
    }
    let mut out = Vec::new();
    ctx.input_mut(|i| {
        for (shortcut, cmd, _) in light_keys() {
            while i.consume_shortcut(&shortcut) {
                out.push(AppCommand::Light(cmd));
            }
        }
    });
    out
}

/// The light's keys, the Shift variant first (egui ignores an unnamed Shift when
/// matching): for [`shortcuts`] and the Help window.
pub fn light_keys() -> [(KeyboardShortcut, LightCommand, &'static str); 2] {
    [
        (DIMMER, LightCommand::Brighten(-1), "Dimmer light"),
        (BRIGHTER, LightCommand::Brighten(1), "Brighter light"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    /// Applies `cmd` as the dispatcher does, with the light's narrow context.
    fn apply(state: &mut AppState, cmd: LightCommand) {
        let ctx = LightContext {
            settings: &mut state.services.settings,
            toasts: &mut state.services.toasts,
            camera: &state.view.camera,
        };
        super::command::apply(ctx, cmd);
    }

    #[test]
    fn commands_change_the_light_and_save_it() {
        let host = crate::host::MemoryHost::new(Default::default());
        let mut state = AppState::new(Settings::default(), host.clone());
        let saved = || {
            host.settings()
                .map(|j| Settings::from_json(j.as_bytes()).unwrap())
                .unwrap_or_default()
        };
        let start = state.services.settings.lighting;
        apply(
            &mut state,
            LightCommand::Drag {
                dx: 50.0,
                dy: -25.0,
            },
        );
        let l = state.services.settings.lighting;
        assert!((l.azimuth_deg - (start.azimuth_deg + 20.0)).abs() < 1e-3);
        assert!((l.elevation_deg - (start.elevation_deg + 10.0)).abs() < 1e-3);
        assert_eq!(
            saved().lighting,
            Settings::default().lighting,
            "not saved mid-drag"
        );
        apply(&mut state, LightCommand::Save);
        assert_eq!(saved().lighting, l);

        apply(&mut state, LightCommand::Brighten(2));
        assert!((state.services.settings.lighting.diffuse - 1.0).abs() < 1e-6);
        apply(&mut state, LightCommand::FollowCamera(false));
        // Written within a second (here: when the window closes).
        state.services.settings.flush().unwrap();
        assert!(!saved().lighting.follows_camera);
        assert_eq!(
            state.view_settings().lighting,
            state.services.settings.lighting
        );

        apply(&mut state, LightCommand::Reset);
        state.services.settings.flush().unwrap();
        assert_eq!(saved().lighting, Lighting::DEFAULT);
    }
}
