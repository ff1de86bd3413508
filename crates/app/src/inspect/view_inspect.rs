//! Inspection on the 3D view: the name of the part under the cursor (CPU picking against
//! the posed meshes, [`crate::render::inspect::picking`]), click to select it (click on nothing
//! clears the selection), and the text labels the renderer's line font cannot write
//! (joint names) painted by egui over the image.

use crate::commands::AppCommand;
use crate::inspect::state::InspectCommand;
use crate::render::inspect::overlays::labels;
use crate::render::inspect::picking::{Hit, pick_shown, ray_through};
use crate::state::AppState;
use glam::Vec2;

/// The node under `pos` (a point in the view `rect`), if any.
pub fn pick_at(state: &AppState, rect: egui::Rect, pos: egui::Pos2) -> Option<Hit> {
    let doc = state.document.open.as_ref()?;
    let view = state.view_settings();
    let px = Vec2::new(pos.x - rect.min.x, pos.y - rect.min.y);
    let ray = ray_through(&view.camera, px, Vec2::new(rect.width(), rect.height()));
    pick_shown(&doc.model, &doc.pose, &view.node_mask, &ray)
}

/// Hover name, click selection and labels over the view image in `rect`.
pub fn view_inspect_ui(
    ui: &egui::Ui,
    response: &egui::Response,
    state: &AppState,
) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let Some(doc) = &state.document.open else {
        return out;
    };
    let rect = response.rect;
    let view = state.view_settings();
    let painter = ui.painter_at(rect);
    for l in labels(&doc.model, &doc.pose, &view) {
        if let Some(p) = view.camera.project(l.position, rect.width(), rect.height()) {
            let at = rect.min + egui::vec2(p.x + 7.0, p.y - 7.0);
            painter.text(
                at + egui::vec2(1.0, 1.0),
                egui::Align2::LEFT_BOTTOM,
                &l.text,
                egui::FontId::proportional(12.0),
                egui::Color32::from_black_alpha(200),
            );
            painter.text(
                at,
                egui::Align2::LEFT_BOTTOM,
                &l.text,
                egui::FontId::proportional(12.0),
                egui::Color32::from_rgb(255, 200, 120),
            );
        }
    }
    let dragging = response.dragged();
    if response.clicked() {
        let hit = response
            .interact_pointer_pos()
            .and_then(|p| pick_at(state, rect, p));
        // In a map, a part selects the object it belongs to.
        let target = |node| match doc.map() {
            Some(map) => crate::panels::map::state::selection_target(map, &doc.model, node),
            None => node,
        };
        out.push(AppCommand::Inspect(InspectCommand::Select(
            hit.map(|h| target(h.node)),
        )));
    } else if !dragging
        && let Some(pos) = response.hover_pos()
        && let Some(hit) = pick_at(state, rect, pos)
        && let Some(node) = doc.model.nodes.get(hit.node)
    {
        let on_map = doc
            .map()
            .and_then(|map| map_hover_text(map, &doc.model, &hit));
        let text = on_map.unwrap_or_else(|| format!("{} [{:?}]", node.name, node.kind));
        let galley =
            painter.layout_no_wrap(text, egui::FontId::proportional(13.0), egui::Color32::WHITE);
        let at = pos + egui::vec2(14.0, 16.0);
        let bg = egui::Rect::from_min_size(at, galley.size()).expand(3.0);
        painter.rect_filled(bg, 3.0, egui::Color32::from_black_alpha(190));
        painter.galley(at, galley, egui::Color32::WHITE);
    }
    out
}

/// What the pointer is over on a map, in the map's terms: an object (its kind, stats id
/// and owner), else the ground or the water — the tile under the pointer (x east, y
/// south, as the game counts them) and the height there in world units — rather than
/// the name of a terrain layer's mesh; `None` for anything else (the node's name is
/// shown).
pub fn map_hover_text(
    map: &crate::map::scene::MapDetails,
    model: &crate::model::Model,
    hit: &Hit,
) -> Option<String> {
    use crate::map::scene::Layer;
    if let Some(i) = map.object_at_node(model, hit.node) {
        let o = &map.objects[i];
        return Some(format!(
            "{} {} ({})",
            o.kind.name(),
            o.stats_id,
            o.owner.label()
        ));
    }
    let in_layer = |layer| map.layer_nodes(layer).contains(&hit.node);
    let what = if in_layer(Layer::Water) {
        "Water"
    } else if in_layer(Layer::Terrain) || in_layer(Layer::Decals) {
        "Ground"
    } else {
        return None;
    };
    // Model space is the world turned: x = −east, z = −south, y up.
    let (east, south) = (-hit.point.x, -hit.point.z);
    let tile = |v: f32| (v / 128.0).floor() as i64;
    Some(format!(
        "{what}, tile ({}, {}), height {:.0}",
        tile(east),
        tile(south),
        hit.point.y
    ))
}
