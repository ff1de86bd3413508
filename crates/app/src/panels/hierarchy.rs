//! The side panel's inspection sections: the node tree with selection, eye toggles and
//! isolate; a compact Parts list; Stats; and the overlay controls of the View section.
//! Reads [`AppState`], returns commands.

use crate::commands::AppCommand;
use crate::document::Document;
use crate::inspect::{InspectCommand, NORMAL_LENGTH_RANGE};
use crate::model::{Model, NodeKind};
use crate::panels::sections::Sections;
use crate::render::OverlayKind;
use crate::state::AppState;

fn cmd(c: InspectCommand) -> AppCommand {
    AppCommand::Inspect(c)
}

/// The eye toggle of node `i`: a bare checkbox, announced as "Show NAME".
fn eye_ui(ui: &mut egui::Ui, state: &AppState, m: &Model, i: usize) -> Option<AppCommand> {
    let hidden = state.document.inspect.is_hidden(i);
    let name = &m.nodes[i].name;
    let mut shown = !hidden;
    let r = ui
        .add(egui::Checkbox::without_text(&mut shown))
        .on_hover_text(if hidden {
            format!("Show {name} (and its children)")
        } else {
            format!("Hide {name} (and its children)")
        });
    r.widget_info(|| {
        egui::WidgetInfo::selected(egui::Role::CheckBox, true, !hidden, format!("Show {name}"))
    });
    r.changed().then(|| cmd(InspectCommand::ToggleHidden(i)))
}

/// The node's row text: `name [Kind] · N triangles`.
fn row_text(m: &Model, i: usize) -> String {
    let node = &m.nodes[i];
    let mut text = format!("{} [{:?}]", node.name, node.kind);
    if let Some(mesh) = node.mesh.and_then(|x| m.meshes.get(x)) {
        text.push_str(&format!(" · {} triangles", mesh.triangle_count()));
    }
    text
}

/// One node's row: eye toggle and selectable name.
fn row_ui(ui: &mut egui::Ui, state: &AppState, m: &Model, i: usize, out: &mut Vec<AppCommand>) {
    let selected = state.document.inspect.selected == Some(i);
    out.extend(eye_ui(ui, state, m, i));
    let r = ui.selectable_label(selected, row_text(m, i));
    if state.document.checks.scroll_to == Some(i) {
        r.scroll_to_me(Some(egui::Align::Center));
        out.push(AppCommand::Checks(
            crate::panels::checks::state::ChecksCommand::Scrolled,
        ));
    }
    if r.clicked() {
        out.push(cmd(InspectCommand::Select((!selected).then_some(i))));
    }
}

/// The node tree, a row per node indented by its depth, children under open parents.
/// Walked with a stack rather than by recursion: a chain of thousands of nodes (a glTF
/// may nest that deep) costs rows, not the window's call stack.
fn tree_ui(ui: &mut egui::Ui, state: &AppState, m: &Model, out: &mut Vec<AppCommand>) {
    let indent = ui.spacing().indent;
    // Deeper rows line up at the last indent and say their depth instead (a chain of
    // thousands would otherwise sit screens to the right).
    const MOST_INDENTS: usize = 24;
    let mut stack: Vec<(usize, usize)> = (0..m.nodes.len())
        .rev()
        .filter(|&i| m.nodes[i].parent.is_none())
        .map(|i| (i, 0))
        .collect();
    // Rows are all one height: once one is laid out, a row outside the visible part of
    // the panel only takes its space (a map's thousands of nodes would otherwise be laid
    // out every frame, tens of milliseconds on each).
    let mut row_height: Option<f32> = None;
    while let Some((i, depth)) = stack.pop() {
        let children: Vec<usize> = m.children(i).collect();
        let id = ui.make_persistent_id(("node", i));
        if let Some(h) = row_height
            && state.document.checks.scroll_to != Some(i)
        {
            let rect =
                egui::Rect::from_min_size(ui.cursor().min, egui::vec2(ui.available_width(), h));
            if !ui.is_rect_visible(rect) {
                ui.allocate_space(rect.size());
                let open = !children.is_empty()
                    && egui::collapsing_header::CollapsingState::load_with_default_open(
                        ui.ctx(),
                        id,
                        true,
                    )
                    .is_open();
                if open {
                    stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
                }
                continue;
            }
        }
        let row = ui.horizontal(|ui| {
            ui.add_space(depth.min(MOST_INDENTS) as f32 * indent);
            let open = if children.is_empty() {
                ui.add_space(indent);
                false
            } else {
                let mut toggle = egui::collapsing_header::CollapsingState::load_with_default_open(
                    ui.ctx(),
                    id,
                    true,
                );
                let spacing = std::mem::replace(&mut ui.spacing_mut().item_spacing.x, 0.0);
                toggle.show_toggle_button(ui, egui::collapsing_header::paint_default_icon);
                ui.spacing_mut().item_spacing.x = spacing;
                toggle.store(ui.ctx());
                toggle.is_open()
            };
            if depth > MOST_INDENTS {
                ui.weak(depth.to_string())
                    .on_hover_text(format!("{depth} levels below the root"));
            }
            row_ui(ui, state, m, i, out);
            open
        });
        row_height.get_or_insert(row.response.rect.height());
        if row.inner {
            stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
        }
    }
}

/// The Hierarchy section's body: buttons, then the tree.
pub fn hierarchy_ui(ui: &mut egui::Ui, state: &AppState, doc: &Document) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let m = &doc.model;
    let inspect = &state.document.inspect;
    ui.horizontal_wrapped(|ui| {
        let any_hidden = inspect.hidden.iter().any(|&h| h) || inspect.isolate;
        if ui
            .add_enabled(any_hidden, egui::Button::new("Show all"))
            .on_hover_text("Show every node (Alt+H)")
            .clicked()
        {
            out.push(cmd(InspectCommand::ShowAll));
        }
        let has_selection = inspect.selected.is_some();
        if ui
            .add_enabled(
                has_selection,
                egui::Button::new("Isolate").selected(inspect.isolate),
            )
            .on_hover_text("Show only the selection and its children (I)")
            .clicked()
        {
            out.push(cmd(InspectCommand::ToggleIsolate));
        }
        if ui
            .add_enabled(has_selection, egui::Button::new("Hide"))
            .on_hover_text("Hide the selection (H)")
            .clicked()
        {
            out.push(cmd(InspectCommand::HideSelected));
        }
    });
    if let Some(sel) = inspect.selected.and_then(|s| m.nodes.get(s)) {
        ui.weak(format!("Selected: {} (Esc to clear)", sel.name));
    }
    tree_ui(ui, state, m, &mut out);
    out
}

/// A compact list of mesh parts with a checkbox each (models with more than one part,
/// e.g. a PET character assembled from `.mpet` parts). Empty otherwise.
pub fn parts_ui(ui: &mut egui::Ui, s: &mut Sections<'_>, state: &AppState, doc: &Document) {
    let m = &doc.model;
    let parts: Vec<usize> = (0..m.nodes.len())
        .filter(|&i| m.nodes[i].kind == NodeKind::Part)
        .collect();
    if parts.len() < 2 {
        return;
    }
    s.show(
        ui,
        "parts",
        format!("Parts ({})", parts.len()),
        true,
        |ui| {
            let mut out = Vec::new();
            ui.horizontal_wrapped(|ui| {
                for i in parts {
                    let mut shown = !state.document.inspect.is_hidden(i);
                    if ui.checkbox(&mut shown, &m.nodes[i].name).changed() {
                        out.push(cmd(InspectCommand::ToggleHidden(i)));
                    }
                }
            });
            out
        },
    );
}

/// The Stats section: totals, one row per node with a mesh, textures with their sizes.
pub fn stats_ui(ui: &mut egui::Ui, sections: &mut Sections<'_>, state: &AppState) {
    let s = &state.document.inspect.stats;
    let (points, triangles, draws) = s.totals();
    sections.show(ui, "stats", "Stats", false, |ui| {
        ui.label(format!(
            "{points} vertices · {triangles} triangles · {draws} draw calls · {} textures",
            s.textures.len()
        ));
        egui::Grid::new("stats per node")
            .striped(true)
            .num_columns(4)
            .show(ui, |ui| {
                ui.strong("node");
                ui.strong("vertices");
                ui.strong("triangles");
                ui.strong("draws");
                ui.end_row();
                for n in &s.nodes {
                    ui.label(&n.name);
                    ui.monospace(n.points.to_string());
                    ui.monospace(n.triangles.to_string());
                    ui.monospace(n.draws.to_string());
                    ui.end_row();
                }
            });
        for t in &s.textures {
            let size = t
                .size
                .map_or("not found".to_string(), |(w, h)| format!("{w}×{h}"));
            ui.label(format!("{}: {size}", t.name));
        }
        Vec::new()
    });
}

/// Overlay and shadow controls for the View section.
pub fn overlay_controls_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let o = &state.services.settings.overlays;
    ui.horizontal_wrapped(|ui| {
        for kind in OverlayKind::ALL {
            let on = o.get(kind);
            if ui
                .selectable_label(on, kind.label())
                .on_hover_text(format!(
                    "{} ({})",
                    kind.label(),
                    crate::inspect::overlay_menu::key_name(kind)
                ))
                .clicked()
            {
                out.push(cmd(InspectCommand::ToggleOverlay(kind)));
            }
        }
        if ui
            .selectable_label(state.services.settings.shadows, "Shadows")
            .on_hover_text("Shadows on a ground plane (S)")
            .clicked()
        {
            out.push(cmd(InspectCommand::ToggleShadows));
        }
    });
    if o.normals {
        let mut len = o.normal_length;
        let r = ui.add(
            egui::Slider::new(&mut len, NORMAL_LENGTH_RANGE)
                .logarithmic(true)
                .text("Normal length"),
        );
        if r.changed() {
            out.push(cmd(InspectCommand::SetNormalLength(len)));
        }
    }
    if o.grid
        && let Some(doc) = &state.document.open
    {
        let v = state.view_settings();
        let text = match v.grid_unit {
            Some(u) => format!("Grid: {u} units (one map tile)"),
            None => {
                let size = crate::render::model_bounds(&doc.model, &doc.pose)
                    .map_or(1.0, |(lo, hi)| (hi - lo).max_element());
                format!(
                    "Grid: {} units",
                    crate::render::inspect::overlays::length_text(
                        crate::render::inspect::overlays::auto_grid_unit(size)
                    )
                )
            }
        };
        ui.weak(text);
    }
    out
}
