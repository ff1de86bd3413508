//! The keyboard and mouse reference, built from the tables the input code itself reads
//! ([`super::super::menu::shortcut_table`], [`super::super::viewport::view_keys`], …), so
//! the Help window cannot drift from what the keys do.

use egui::{self, Key, KeyboardShortcut, Modifiers};

/// One line of the reference: the keys (as this platform writes them) and the action.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    /// `Ctrl+O`, `F`, `Left drag`…
    pub keys: String,
    /// What it does.
    pub action: String,
}

/// A titled group of bindings.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// "File", "View", …
    pub title: &'static str,
    /// Its bindings, in the order the input code checks them.
    pub bindings: Vec<Binding>,
}

fn key(ctx: &egui::Context, modifiers: Modifiers, key: Key) -> String {
    shortcut_text(ctx, &KeyboardShortcut::new(modifiers, key))
}

pub use crate::keys::shortcut_text;

fn binding(keys: String, action: impl Into<String>) -> Binding {
    Binding {
        keys,
        action: action.into(),
    }
}

/// Every key and mouse binding of the window, grouped.
pub fn sections(ctx: &egui::Context) -> Vec<Section> {
    use super::super::{inspect::overlay_menu, lighting, menu, timeline, viewport};
    let none = Modifiers::NONE;
    let modifier = lighting::modifier_name(ctx);
    let shortcut = |s: &KeyboardShortcut| shortcut_text(ctx, s);
    vec![
        Section {
            title: "File",
            bindings: menu::shortcut_table()
                .iter()
                .map(|(s, _, what)| binding(shortcut(s), *what))
                .collect(),
        },
        Section {
            title: "Mouse in the view",
            bindings: viewport::MOUSE
                .iter()
                .map(|(keys, what)| binding(keys.replace("{mod}", &modifier), *what))
                .collect(),
        },
        Section {
            title: "View",
            bindings: viewport::view_keys()
                .iter()
                .map(|(k, _, what)| binding(key(ctx, none, *k), *what))
                .collect(),
        },
        Section {
            title: "Map (the game's camera)",
            bindings: crate::game_camera::held_keys()
                .iter()
                .map(|(k, _, what)| (*k, *what))
                .chain(
                    crate::game_camera::pressed_keys()
                        .iter()
                        .map(|(k, _, what)| (*k, *what)),
                )
                .map(|(k, what)| binding(key(ctx, none, k), what))
                .collect(),
        },
        Section {
            title: "Overlays and visibility",
            bindings: overlay_menu::inspect_keys()
                .into_iter()
                .map(|(m, k, _, what)| binding(key(ctx, m, k), what))
                .collect(),
        },
        Section {
            title: "Light",
            bindings: lighting::light_keys()
                .iter()
                .map(|(s, _, what)| binding(shortcut(s), *what))
                .collect(),
        },
        Section {
            title: "Animation (timeline)",
            bindings: timeline::timeline_keys()
                .iter()
                .map(|(k, _, what)| binding(key(ctx, none, *k), *what))
                .collect(),
        },
        Section {
            title: "Gallery (a folder, an archive or several dropped files)",
            bindings: super::super::gallery::ui::grid_keys()
                .iter()
                .map(|(k, _, what)| binding(key(ctx, none, *k), *what))
                .chain(
                    super::super::gallery::ui::browse_keys()
                        .iter()
                        .map(|(k, _, _, what)| binding(key(ctx, none, *k), *what)),
                )
                .collect(),
        },
        Section {
            title: "Help",
            bindings: super::help_keys()
                .iter()
                .map(|(s, _, what)| binding(shortcut(s), *what))
                .collect(),
        },
    ]
}
