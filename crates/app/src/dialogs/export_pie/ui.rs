//! The Export PIE window: the settings, the verdict, Export and Cancel.

use super::{PieCommand, PieSettings, Preview, cmd};
use crate::commands::AppCommand;
use crate::export::pie::{self, PieVersion};
use crate::model::Model;
use crate::state::AppState;

/// The Export PIE window, while open.
pub fn window_ui(ctx: &egui::Context, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let (Some(d), Some(doc)) = (&state.dialogs.pie, &state.document.open) else {
        return out;
    };
    if d.generation != doc.generation {
        // Another model was opened: the dialog follows it.
        out.push(cmd(PieCommand::Show));
    }
    let mut s = d.settings.clone();
    let mut open = true;
    egui::Window::new("Export PIE")
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.label(format!(
                "{} ({}) as a Warzone 2100 PIE",
                doc.file_name(),
                doc.model.format.label()
            ));
            if let Some(why) = &d.refused {
                ui.add(egui::Label::new(why.as_str()).wrap());
                if ui.button("Close").clicked() {
                    out.push(cmd(PieCommand::Close));
                }
                return;
            }
            let writing = d.preview == Preview::Writing;
            ui.add_enabled_ui(!writing, |ui| settings_ui(ui, &mut s, &doc.model, &mut out));
            ui.separator();
            let ready = verdict_ui(ui, &d.preview, &mut s);
            ui.horizontal(|ui| {
                let button = ui
                    .add_enabled(ready, egui::Button::new("Export"))
                    .on_disabled_hover_text(match &d.preview {
                        Preview::Checking => "Checking…",
                        Preview::Writing => "Writing…",
                        _ => "The game would not load this file: see the errors above",
                    });
                if button.clicked() {
                    out.push(cmd(PieCommand::Write));
                }
                if ui.button("Cancel").clicked() {
                    out.push(cmd(PieCommand::Close));
                }
            });
        });
    if !open {
        out.push(cmd(PieCommand::Close));
    }
    if s != d.settings {
        out.push(cmd(PieCommand::Set(s)));
    }
    out
}

/// Version, scale, page, output.
fn settings_ui(ui: &mut egui::Ui, s: &mut PieSettings, model: &Model, out: &mut Vec<AppCommand>) {
    egui::Grid::new("pie settings")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("Version");
            ui.horizontal(|ui| {
                ui.radio_value(&mut s.version, PieVersion::V3, "PIE 3")
                    .on_hover_text("Read by every game release since 2.3");
                ui.radio_value(&mut s.version, PieVersion::V4, "PIE 4")
                    .on_hover_text(
                        "Game 4.4 and later: TCMASK lines, per-level TYPE and pages, \
                         tileset pages",
                    );
            });
            ui.end_row();
            ui.label("Scale");
            ui.horizontal(|ui| {
                ui.add(
                    egui::DragValue::new(&mut s.scale)
                        .range(0.001..=100_000.0)
                        .speed(0.5),
                )
                .on_hover_text(
                    "Model units → PIE units: 1 keeps a PIE's numbers; 128 makes one unit \
                     of a glTF or OBJ one game tile",
                );
                let default = pie::default_scale(model);
                if s.scale != default && ui.small_button(format!("{default}")).clicked() {
                    s.scale = default;
                }
            });
            ui.end_row();
            let l = ui.label("Page");
            ui.add(
                egui::TextEdit::singleline(&mut s.page)
                    .hint_text("the model's own pages")
                    .desired_width(260.0),
            )
            .labelled_by(l.id)
            .on_hover_text(
                "The texture page every level names, e.g. page-11-player-buildings.png \
                 (a team-colour mask derived from it follows)",
            );
            ui.end_row();
            let l = ui.label("Save as");
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut s.output).desired_width(260.0))
                    .labelled_by(l.id);
                if ui.button("Browse…").clicked() {
                    out.push(cmd(PieCommand::Browse));
                }
            });
            ui.end_row();
            ui.label("");
            ui.checkbox(&mut s.pack, "Copy the pages into texpages/")
                .on_hover_text(
                    "Write the pages the file names (base colour, team-colour mask, normal \
                     and specular maps) as PNG where the game reads them: the first \
                     texpages/ up the output's path, or the mod's root one above \
                     components/, structs/…, else a new one beside it; a different page \
                     already there is never replaced",
                );
            ui.end_row();
        });
}

/// The findings; whether the file can be written. A page found nowhere comes with the way
/// out: copying the pages (a button that ticks *Copy the pages*) when the model holds it,
/// the data roots otherwise.
fn verdict_ui(ui: &mut egui::Ui, preview: &Preview, s: &mut PieSettings) -> bool {
    let error = ui.visuals().error_fg_color;
    let warn = ui.visuals().warn_fg_color;
    match preview {
        Preview::Checking => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Checking with the game's rules…");
            });
            false
        }
        Preview::Writing => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Writing…");
            });
            false
        }
        Preview::Done(Err(e)) => {
            ui.colored_label(error, e);
            false
        }
        Preview::Done(Ok(v)) => {
            ui.label(format!(
                "{} level{}, page{} {}",
                v.levels,
                if v.levels == 1 { "" } else { "s" },
                if v.pages.len() == 1 { "" } else { "s" },
                v.pages.join(", ")
            ));
            egui::ScrollArea::vertical()
                .max_height(220.0)
                .max_width(520.0)
                .show(ui, |ui| {
                    for b in &v.errors {
                        ui.colored_label(error, &b.line);
                        if !b.what_to_do.is_empty() {
                            ui.add(egui::Label::new(&b.what_to_do).wrap());
                        }
                    }
                    for w in &v.warnings {
                        ui.colored_label(warn, w);
                    }
                    for c in &v.copies {
                        ui.label(c);
                    }
                });
            if v.errors.is_empty() {
                if v.warnings.is_empty() {
                    ui.label("The check rules find nothing: the game loads it.");
                }
                true
            } else {
                ui.colored_label(
                    error,
                    format!(
                        "Not written: the game would give the model up ({} error{}).",
                        v.errors.len(),
                        if v.errors.len() == 1 { "" } else { "s" }
                    ),
                );
                way_out_ui(ui, v, s);
                false
            }
        }
    }
}

/// How to succeed when pages are found nowhere.
fn way_out_ui(ui: &mut egui::Ui, v: &super::Verdict, s: &mut PieSettings) {
    let them = |pages: &[String]| if pages.len() == 1 { "it" } else { "them" };
    if !v.packable.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "The model holds {}: copy {} into texpages/ with the file.",
                v.packable.join(", "),
                them(&v.packable)
            ));
            if ui.button("Copy the pages too").clicked() {
                s.pack = true;
            }
        });
    }
    if !v.unfound.is_empty() {
        ui.add(
            egui::Label::new(format!(
                "{} {} in no data root: add the mod or game data that has {} (Settings, Data \
                 roots), or put {} in the mod's texpages/.",
                v.unfound.join(", "),
                if v.unfound.len() == 1 { "is" } else { "are" },
                them(&v.unfound),
                them(&v.unfound)
            ))
            .wrap(),
        );
    }
}
