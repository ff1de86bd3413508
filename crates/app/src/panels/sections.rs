//! The side panel's building blocks that its sections share: collapsible sections that
//! remember being open ([`Sections`]), and the texture list with its found / missing
//! marks.

use crate::commands::{AppCommand, SettingsCommand};
use crate::model::Model;

/// Colour of "missing" marks.
const MISSING: egui::Color32 = egui::Color32::from_rgb(230, 90, 80);
/// Colour of "found" marks.
const FOUND: egui::Color32 = egui::Color32::from_rgb(110, 200, 120);

/// Collapsible sections that remember being opened or closed: the state is kept in the
/// settings by a stable key (titles carry counts), and a click on a header emits
/// [`SettingsCommand::SetSectionOpen`].
pub struct Sections<'a> {
    saved: &'a std::collections::BTreeMap<String, bool>,
    /// Commands from the sections' bodies and headers.
    pub out: Vec<AppCommand>,
}

impl<'a> Sections<'a> {
    /// Sections with the saved open/closed states.
    pub fn new(saved: &'a std::collections::BTreeMap<String, bool>) -> Self {
        Sections {
            saved,
            out: Vec::new(),
        }
    }

    /// Shows section `key` titled `title`, open by default when `default_open`; the
    /// body's commands are collected.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        title: impl Into<egui::WidgetText>,
        default_open: bool,
        body: impl FnOnce(&mut egui::Ui) -> Vec<AppCommand>,
    ) {
        let open = self.saved.get(key).copied().unwrap_or(default_open);
        let r = egui::CollapsingHeader::new(title)
            .id_salt(("section", key))
            .open(Some(open))
            .show(ui, body);
        if r.header_response.clicked() {
            self.out
                .push(AppCommand::Settings(SettingsCommand::SetSectionOpen(
                    key.to_string(),
                    !open,
                )));
        }
        if let Some(cmds) = r.body_returned {
            self.out.extend(cmds);
        }
    }
}

/// `Textures (3)` or `Textures (3, 1 missing)`.
pub fn textures_title(m: &Model) -> String {
    let missing = m.textures.iter().filter(|t| t.resolved.is_none()).count();
    if missing > 0 {
        format!("Textures ({}, {missing} missing)", m.textures.len())
    } else {
        format!("Textures ({})", m.textures.len())
    }
}

/// One line per texture: role (and the PIE tileset it is for, with "in use" on the pages
/// the view draws), name, found or missing.
pub fn textures_ui(ui: &mut egui::Ui, m: &Model) {
    if m.textures.is_empty() {
        ui.weak("None");
    }
    let used: std::collections::HashSet<usize> = m
        .materials
        .iter()
        .flat_map(|x| [x.base, x.tcmask, x.normal, x.specular])
        .flatten()
        .collect();
    let tilesets = m.textures.iter().any(|t| t.tileset.is_some_and(|s| s > 0));
    for (i, t) in m.textures.iter().enumerate() {
        ui.horizontal_wrapped(|ui| {
            let role = t.role.name();
            let slot = t
                .tileset
                .filter(|_| tilesets)
                .and_then(|s| crate::formats::pie::Tileset::from_slot(s.into()));
            match slot {
                Some(ts) => ui.label(format!("{role} ({ts}): {}", t.name)),
                None => ui.label(format!("{role}: {}", t.name)),
            };
            found_mark(ui, t.resolved.as_ref());
            if tilesets && used.contains(&i) {
                ui.weak("in use");
            }
        });
    }
}

/// "found" (hover: the path) or "MISSING".
pub fn found_mark(ui: &mut egui::Ui, path: Option<&crate::files::FileRef>) {
    match path {
        Some(p) => {
            ui.colored_label(FOUND, "found")
                .on_hover_text(p.to_string());
        }
        None => {
            ui.colored_label(MISSING, "MISSING");
        }
    }
}
