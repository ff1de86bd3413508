//! The left side panel: what the open file holds (file and format, properties, textures,
//! the node hierarchy, events, connectors, warnings), the team-colour picker and the view
//! controls. It reads [`AppState`] and returns commands; it changes nothing itself.

use super::commands::AppCommand;
use super::state::{AppState, Document};
use super::team_picker::team_picker_ui;
use crate::model::Model;
use crate::render::ViewPreset;
use eframe::egui;

/// Colour of "missing" marks.
const MISSING: egui::Color32 = egui::Color32::from_rgb(230, 90, 80);
/// Colour of "found" marks.
const FOUND: egui::Color32 = egui::Color32::from_rgb(110, 200, 120);

/// The panel's contents (the caller puts them in a [`egui::Panel`]).
pub fn side_panel_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            match &state.document {
                Some(doc) => {
                    file_ui(ui, doc);
                    super::format_panels::banners_ui(ui, state);
                }
                None => {
                    ui.heading("No model open");
                    ui.label("Drop a model file on the window, or use File > Open… (Ctrl+O).");
                }
            }
            ui.separator();
            section(ui, "Team colour", true, |ui| {
                out.extend(team_picker_ui(ui, state.settings.team));
            });
            section(ui, "View", true, |ui| {
                out.extend(view_controls_ui(ui, state));
                out.extend(super::hierarchy::overlay_controls_ui(ui, state));
            });
            out.extend(super::format_panels::display_sections_ui(ui, state));
            out.extend(super::panels::assemble::ui::sections_ui(ui, state));
            if let Some(doc) = &state.document {
                out.extend(model_sections_ui(ui, doc, state));
            }
        });
    out
}

/// A collapsible section with a stable id.
fn section(ui: &mut egui::Ui, title: &str, open: bool, body: impl FnOnce(&mut egui::Ui)) {
    egui::CollapsingHeader::new(title)
        .id_salt(("section", title))
        .default_open(open)
        .show(ui, body);
}

/// File name, path, format and version.
fn file_ui(ui: &mut egui::Ui, doc: &Document) {
    let m = &doc.model;
    ui.heading(doc.file_name())
        .on_hover_text(doc.path.to_string());
    ui.label(format!(
        "{} version {} · file axes {}",
        m.format.name().to_uppercase(),
        m.version,
        m.axes.name
    ));
    let triangles: usize = m.meshes.iter().map(|x| x.triangle_count()).sum();
    ui.label(format!(
        "{} nodes · {} meshes · {triangles} triangles · {} materials",
        m.nodes.len(),
        m.meshes.len(),
        m.materials.len()
    ));
    if let Some(dir) = doc.path.parent() {
        ui.small(dir.to_string());
    }
}

/// Projection, presets, framing and background.
fn view_controls_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    ui.horizontal(|ui| {
        let ortho = state.camera.orthographic;
        if ui.selectable_label(!ortho, "Perspective").clicked() && ortho {
            out.push(AppCommand::ToggleOrtho);
        }
        if ui.selectable_label(ortho, "Orthographic").clicked() && !ortho {
            out.push(AppCommand::ToggleOrtho);
        }
        ui.weak("(5)");
    });
    ui.horizontal(|ui| {
        for (label, key, preset) in [
            ("Front", "1", ViewPreset::Front),
            ("Side", "3", ViewPreset::Side),
            ("Top", "7", ViewPreset::Top),
            ("Iso", "0", ViewPreset::Iso),
        ] {
            if ui
                .button(label)
                .on_hover_text(format!("{label} view ({key})"))
                .clicked()
            {
                out.push(AppCommand::Preset(preset));
            }
        }
        if ui
            .button("Frame")
            .on_hover_text("Frame the model (F)")
            .clicked()
        {
            out.push(AppCommand::Frame);
        }
    });
    ui.horizontal(|ui| {
        let mut rgb = state.settings.background;
        let r = egui::widgets::color_picker::color_edit_button_srgb(ui, &mut rgb);
        r.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::ColorWell, true, "Background colour")
        });
        if rgb != state.settings.background {
            out.push(AppCommand::SetBackground(rgb));
        }
        ui.label("Background");
    });
    ui.weak(format!(
        "Drag: orbit · Shift+drag or middle drag: pan · {}+drag: light · wheel: zoom · F1: all keys",
        super::lighting::modifier_name(ui.ctx())
    ));
    out
}

/// Everything the model holds.
fn model_sections_ui(ui: &mut egui::Ui, doc: &Document, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let m = &doc.model;
    out.extend(super::panels::checks::checks_ui(ui, state, doc));
    if !m.properties.is_empty() {
        section(ui, "Properties", true, |ui| {
            // Values wrap inside the panel instead of widening it.
            let width = ui.available_width();
            egui::Grid::new("properties")
                .striped(true)
                .max_col_width(width * 0.62)
                .show(ui, |ui| {
                    for p in &m.properties {
                        ui.add(egui::Label::new(&p.key).wrap());
                        ui.add(egui::Label::new(&p.value).wrap());
                        ui.end_row();
                    }
                });
        });
    }
    let missing = m.textures.iter().filter(|t| t.resolved.is_none()).count();
    let title = if missing > 0 {
        format!("Textures ({}, {missing} missing)", m.textures.len())
    } else {
        format!("Textures ({})", m.textures.len())
    };
    section(ui, &title, true, |ui| textures_ui(ui, m));
    section(
        ui,
        &format!("Hierarchy ({} nodes)", m.nodes.len()),
        true,
        |ui| out.extend(super::hierarchy::hierarchy_ui(ui, state, doc)),
    );
    out.extend(super::hierarchy::parts_ui(ui, state, doc));
    super::hierarchy::stats_ui(ui, state);
    if !m.events.is_empty() {
        section(ui, &format!("Events ({})", m.events.len()), true, |ui| {
            for e in &m.events {
                ui.horizontal(|ui| {
                    ui.label(format!("{} ({}): {}", e.kind, e.kind_name(), e.file));
                    found_mark(ui, e.resolved.as_ref());
                });
            }
        });
    }
    if !m.connectors.is_empty() {
        section(
            ui,
            &format!("Connectors ({})", m.connectors.len()),
            true,
            |ui| {
                connectors_ui(ui, doc);
            },
        );
    }
    let count = m.diagnostics.len() + doc.render_warnings.len();
    section(ui, &format!("Warnings ({count})"), count > 0, |ui| {
        if count == 0 {
            ui.weak("None");
        }
        let file = doc.file_name();
        let warn = ui.visuals().warn_fg_color;
        for d in &m.diagnostics {
            ui.label(egui::RichText::new(d.display_with(&file)).color(warn));
        }
        for w in &doc.render_warnings {
            ui.label(egui::RichText::new(w).color(warn));
        }
    });
    out
}

/// One line per texture: role, name, found or missing.
fn textures_ui(ui: &mut egui::Ui, m: &Model) {
    if m.textures.is_empty() {
        ui.weak("None");
    }
    for t in &m.textures {
        ui.horizontal(|ui| {
            let role = t.role.name();
            ui.label(format!("{role}: {}", t.name));
            found_mark(ui, t.resolved.as_ref());
        });
    }
}

/// "found" (hover: the path) or "MISSING".
fn found_mark(ui: &mut egui::Ui, path: Option<&crate::files::FileRef>) {
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

/// Connectors: the numbers as the file writes them and the model-space position.
fn connectors_ui(ui: &mut egui::Ui, doc: &Document) {
    let m = &doc.model;
    egui::Grid::new("connectors")
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            ui.strong("#");
            ui.strong("node");
            ui.strong("file (x, y, z)");
            ui.strong("model (x, y, z)");
            ui.end_row();
            for (i, c) in m.connectors.iter().enumerate() {
                let world = doc
                    .pose
                    .world
                    .get(c.node)
                    .map_or(c.position, |w| w.transform_point3(c.position));
                ui.label(format!("{}", i + 1));
                ui.label(m.nodes.get(c.node).map_or("?", |n| n.name.as_str()));
                ui.monospace(format!("{} {} {}", c.raw[0], c.raw[1], c.raw[2]));
                ui.monospace(format!("{:.1} {:.1} {:.1}", world.x, world.y, world.z));
                ui.end_row();
            }
        });
}
