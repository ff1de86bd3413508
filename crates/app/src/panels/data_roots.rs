//! Settings ▸ Data roots: the ordered stack of folders and archives searched after the
//! model's own folder (a Warzone 2100 mod over `mp.wz` over `base.wz`, a Trespasser data
//! root, a PangYa texture folder). The user orders it; a Warzone 2100 installation found
//! on the machine is offered, never added unasked.

use crate::commands::{AppCommand, DocumentCommand};
use crate::state::AppState;
use std::path::PathBuf;

/// The list with move / remove buttons, the add buttons and the detected installation.
pub fn data_roots_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let roots = &state.services.settings.data_roots;
    let files = &state.services.files;
    ui.add(
        egui::Label::new(
            "Searched in this order after the model's own folder, for textures, event \
             models and game data: first wins, like the game (a mod over mp over base).",
        )
        .wrap(),
    );
    if roots.is_empty() {
        ui.weak("None: files are looked for beside the model only.");
    }
    for (i, root) in roots.iter().enumerate() {
        ui.horizontal(|ui| {
            let mut edit = |f: &dyn Fn(&mut Vec<PathBuf>)| {
                let mut v = roots.clone();
                f(&mut v);
                out.push(AppCommand::Document(DocumentCommand::SetDataRoots(v)));
            };
            if ui
                .add_enabled(i > 0, egui::Button::new("Up").small())
                .on_hover_text("Search earlier")
                .clicked()
            {
                edit(&|v| v.swap(i, i - 1));
            }
            if ui
                .add_enabled(i + 1 < roots.len(), egui::Button::new("Down").small())
                .on_hover_text("Search later")
                .clicked()
            {
                edit(&|v| v.swap(i, i + 1));
            }
            if ui
                .add(egui::Button::new("Remove").small())
                .on_hover_text("Remove")
                .clicked()
            {
                edit(&|v| {
                    v.remove(i);
                });
            }
            let kind = if crate::files::is_archive_path(root) {
                "archive"
            } else {
                "folder"
            };
            let missing = files.kind(&files.parse(root)).is_none();
            // The name first: long roots share their leading folders, which truncation
            // would otherwise leave as the only visible part.
            let parent = root
                .parent()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            let text = egui::RichText::new(format!(
                "{}. {}  {kind} in {parent}",
                i + 1,
                crate::files::file_name(root)
            ));
            let text = if missing {
                text.color(ui.visuals().error_fg_color)
            } else {
                text
            };
            ui.add(egui::Label::new(text).truncate())
                .on_hover_text(if missing {
                    format!("{kind} not found: {}", root.display())
                } else {
                    format!("{kind}: {}", root.display())
                });
        });
    }
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                state.services.host.has_folders(),
                egui::Button::new("Add folder…"),
            )
            .on_disabled_hover_text(crate::dialogs::NO_FOLDERS)
            .clicked()
        {
            out.push(AppCommand::Document(DocumentCommand::PickDataRoot {
                archive: false,
            }));
        }
        if ui.button("Add archive…").clicked() {
            out.push(AppCommand::Document(DocumentCommand::PickDataRoot {
                archive: true,
            }));
        }
    });
    if let Some(found) = &state.services.detected_warzone
        && !found.iter().all(|p| roots.contains(p))
    {
        let names: Vec<String> = found.iter().map(|p| p.display().to_string()).collect();
        ui.horizontal_wrapped(|ui| {
            ui.label("Warzone 2100 found:");
            ui.monospace(names.join(", "));
            if ui
                .button("Use it")
                .on_hover_text("Add the game's mp and base data after the roots above")
                .clicked()
            {
                let mut v = roots.clone();
                v.extend(found.iter().filter(|p| !roots.contains(p)).cloned());
                out.push(AppCommand::Document(DocumentCommand::SetDataRoots(v)));
            }
        });
    }
    out
}
