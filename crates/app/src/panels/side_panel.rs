//! The left side panel: what the open file holds (file and format, properties, textures,
//! the node hierarchy, events, connectors, warnings), the team-colour picker and the view
//! controls. It reads [`AppState`] and returns commands; it changes nothing itself.

use crate::commands::{AppCommand, SettingsCommand, ViewCommand};
use crate::document::Document;
use crate::panels::sections::{Sections, found_mark, textures_title, textures_ui};
use crate::panels::team_picker::team_picker_ui;
use crate::state::AppState;

/// The panel's contents (the caller puts them in a [`egui::Panel`]). With a model open,
/// the format's own sections come first (PIE: textures and levels; PET: parts, motions
/// and events; TPM: instances and materials; PMF: pieces and the transform rules), then
/// the team colour (open only when the model has a team-colour mask), the view and the
/// rest.
///
/// The panel keeps the width it was given (a user drags its edge): text wraps at it, and
/// what cannot wrap (a deep hierarchy, a wide table) scrolls sideways instead of widening
/// the panel for the rest of the session.
pub fn side_panel_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut s = Sections::new(&state.services.settings.open_sections);
    egui::ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            match &state.document.open {
                Some(doc) => {
                    match doc.map() {
                        Some(map) => crate::panels::map::ui::head_ui(ui, doc, map),
                        None => file_ui(ui, doc),
                    }
                    crate::panels::format_panels::banners_ui(ui, state);
                    crate::fonts::missing_cjk_note_ui(ui, &doc.model, &*state.services.host);
                }
                None => {
                    ui.heading("No model open");
                    ui.label("Drop a model file on the window, or use File > Open… (Ctrl+O).");
                }
            }
            ui.separator();
            if let Some(doc) = &state.document.open {
                match doc.map() {
                    // A map's facts, layers and objects instead of a model's.
                    Some(map) => crate::panels::map::ui::sections_ui(ui, &mut s, state, doc, map),
                    None => {
                        crate::panels::format_panels::format_sections_ui(ui, &mut s, state, doc)
                    }
                }
            }
            team_colour_section_ui(ui, &mut s, state);
            s.show(ui, "view", "View", true, |ui| {
                let mut out = view_controls_ui(ui, state);
                out.extend(crate::panels::hierarchy::overlay_controls_ui(ui, state));
                out
            });
            crate::panels::format_panels::display_sections_ui(ui, &mut s, state);
            crate::panels::assemble::ui::sections_ui(ui, &mut s, state);
            match &state.document.open {
                Some(doc) if doc.map().is_some() => map_scene_sections_ui(ui, &mut s, doc, state),
                Some(doc) => model_sections_ui(ui, &mut s, doc, state),
                None => {}
            }
        });
    s.out
}

/// Team colour: open with the swatches when the model has a team-colour mask; otherwise
/// closed, and saying why the colour changes nothing.
fn team_colour_section_ui(ui: &mut egui::Ui, s: &mut Sections<'_>, state: &AppState) {
    let masked = state
        .document
        .open
        .as_ref()
        .is_none_or(|d| d.model.materials.iter().any(|m| m.tcmask.is_some()));
    let (key, title) = if masked {
        ("team colour", "Team colour".to_string())
    } else {
        (
            "team colour unmasked",
            "Team colour (no mask in this model)".to_string(),
        )
    };
    s.show(ui, key, title, masked, |ui| {
        if !masked {
            ui.weak(
                "This model has no team-colour mask, so the team colour changes nothing \
                 here. Warzone 2100 models with a TCMASK (or TYPE 0x10000) take it.",
            );
        }
        team_picker_ui(ui, state.services.settings.team)
            .into_iter()
            .collect()
    });
}

/// File name, path, format and version.
fn file_ui(ui: &mut egui::Ui, doc: &Document) {
    let m = &doc.model;
    ui.heading(doc.file_name())
        .on_hover_text(doc.path.to_string());
    ui.label(format!(
        "{} · file axes {}",
        m.format.with_version(&m.version),
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
        let ortho = state.view.camera.orthographic;
        if ui.selectable_label(!ortho, "Perspective").clicked() && ortho {
            out.push(AppCommand::View(ViewCommand::ToggleOrtho));
        }
        if ui.selectable_label(ortho, "Orthographic").clicked() && !ortho {
            out.push(AppCommand::View(ViewCommand::ToggleOrtho));
        }
        ui.weak("(5)");
    });
    ui.horizontal(|ui| {
        for (label, key, preset) in crate::viewport::preset_buttons() {
            if ui
                .button(label)
                .on_hover_text(format!("{label} view ({key})"))
                .clicked()
            {
                out.push(AppCommand::View(ViewCommand::Preset(preset)));
            }
        }
        if ui
            .button("Frame")
            .on_hover_text("Frame the model (F)")
            .clicked()
        {
            out.push(AppCommand::View(ViewCommand::Frame));
        }
    });
    ui.horizontal(|ui| {
        let mut rgb = state.services.settings.background;
        let r = egui::widgets::color_picker::color_edit_button_srgb(ui, &mut rgb);
        r.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::ColorWell, true, "Background colour")
        });
        if rgb != state.services.settings.background {
            out.push(AppCommand::Settings(SettingsCommand::SetBackground(rgb)));
        }
        ui.label("Background");
    });
    ui.weak(format!(
        "Drag: orbit · Shift+drag or middle drag: pan · {}+drag: light · wheel: zoom · F1: all keys",
        crate::lighting::modifier_name(ui.ctx())
    ));
    out
}

/// A map's scene after the map's own sections: its `vitrine check` findings, hierarchy,
/// statistics and warnings (its facts are the map panel's).
fn map_scene_sections_ui(
    ui: &mut egui::Ui,
    s: &mut Sections<'_>,
    doc: &Document,
    state: &AppState,
) {
    crate::panels::checks::checks_ui(ui, s, state, doc);
    let title = format!("Map scene ({} nodes)", doc.model.nodes.len());
    s.show(ui, "hierarchy", title, true, |ui| {
        crate::panels::hierarchy::hierarchy_ui(ui, state, doc)
    });
    crate::panels::hierarchy::stats_ui(ui, s, state);
    warnings_ui(ui, s, doc);
}

/// Everything else the model holds (what the format's own sections did not show).
fn model_sections_ui(ui: &mut egui::Ui, s: &mut Sections<'_>, doc: &Document, state: &AppState) {
    let m = &doc.model;
    crate::panels::checks::checks_ui(ui, s, state, doc);
    if !m.properties.is_empty() {
        s.show(ui, "properties", "Properties", true, |ui| {
            // Keys and values wrap inside the panel: keys in at most 38 % of it, values
            // in the rest.
            let width = (ui.available_width() - ui.spacing().item_spacing.x).max(80.0);
            egui::Grid::new("properties")
                .striped(true)
                .max_col_width(width * 0.62)
                .show(ui, |ui| {
                    for p in &m.properties {
                        ui.scope(|ui| {
                            ui.set_max_width(width * 0.38);
                            ui.add(egui::Label::new(&p.key).wrap());
                        });
                        ui.add(egui::Label::new(&p.value).wrap());
                        ui.end_row();
                    }
                });
            Vec::new()
        });
    }
    let own = crate::panels::format_panels::own_sections(m.format);
    if !own.textures {
        s.show(ui, "textures", textures_title(m), true, |ui| {
            textures_ui(ui, m);
            Vec::new()
        });
    }
    if !own.hierarchy {
        s.show(
            ui,
            "hierarchy",
            format!("Hierarchy ({} nodes)", m.nodes.len()),
            true,
            |ui| crate::panels::hierarchy::hierarchy_ui(ui, state, doc),
        );
    }
    if !own.parts {
        crate::panels::hierarchy::parts_ui(ui, s, state, doc);
    }
    crate::panels::hierarchy::stats_ui(ui, s, state);
    if !m.events.is_empty() {
        s.show(
            ui,
            "events",
            format!("Events ({})", m.events.len()),
            true,
            |ui| {
                for e in &m.events {
                    ui.horizontal(|ui| {
                        ui.label(format!("{} ({}): {}", e.kind, e.kind_name(), e.file));
                        found_mark(ui, e.resolved.as_ref());
                    });
                }
                Vec::new()
            },
        );
    }
    if !m.connectors.is_empty() {
        s.show(
            ui,
            "connectors",
            format!("Connectors ({})", m.connectors.len()),
            true,
            |ui| {
                connectors_ui(ui, doc);
                Vec::new()
            },
        );
    }
    warnings_ui(ui, s, doc);
}

/// The loader's and the renderer's warnings (a map's: missing stats, models, tiles).
fn warnings_ui(ui: &mut egui::Ui, s: &mut Sections<'_>, doc: &Document) {
    let m = &doc.model;
    let count = m.diagnostics.len() + doc.render_warnings.len();
    let key = if count > 0 {
        "warnings"
    } else {
        "warnings none"
    };
    s.show(ui, key, format!("Warnings ({count})"), count > 0, |ui| {
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
        Vec::new()
    });
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
