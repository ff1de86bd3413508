//! The gallery's widgets: the bar (filter, format, grouping, size, progress), the grid of
//! tiles (only the rows on screen are laid out, so 1,000 tiles cost what 30 do), the
//! viewer's browse bar, and the keys (arrows, Enter in the grid; Esc, Page Up / Page
//! Down and the mouse's back / forward buttons in the viewer).

use super::{Gallery, GalleryCommand, TILE_SIZES, Tile, TileKind};
use crate::commands::AppCommand;
use crate::state::AppState;
use egui::{self, Color32, Key, Rect, Sense, Vec2};

/// Space between tiles, points.
const GAP: f32 = 8.0;
/// Height of a sub-folder heading, points.
const HEADING: f32 = 26.0;
/// Height of the name and format lines under a thumbnail, points.
const CAPTION: f32 = 34.0;
/// The red corner of a tile that failed to load, points.
const ERROR_CORNER: f32 = 16.0;

fn cmd(c: GalleryCommand) -> AppCommand {
    AppCommand::Gallery(c)
}

/// One laid-out row of the grid.
enum Row {
    Heading(String, usize),
    Tiles(Vec<usize>),
}

fn rows(g: &Gallery, columns: usize) -> Vec<Row> {
    let mut out = Vec::new();
    let visible = g.visible();
    let mut start = 0;
    while start < visible.len() {
        let folder = &g.tiles[visible[start]].folder;
        let end = if g.group {
            visible[start..]
                .iter()
                .position(|&i| g.tiles[i].folder != *folder)
                .map_or(visible.len(), |n| start + n)
        } else {
            visible.len()
        };
        if g.group {
            let name = if folder.is_empty() {
                "(top folder)".to_string()
            } else {
                folder.clone()
            };
            out.push(Row::Heading(name, end - start));
        }
        for chunk in visible[start..end].chunks(columns.max(1)) {
            out.push(Row::Tiles(chunk.to_vec()));
        }
        start = end;
    }
    out
}

/// What the bar says of the tiles: `9 models`, `3 of 9 models`; with maps among them,
/// `102 models, 39 maps` (`39 maps` without models) and `39 of 141 tiles`.
fn count_label(shown: usize, all: usize, maps: usize) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (maps, shown == all) {
        (0, true) => plural(all, "model", "models"),
        (0, false) => format!("{shown} of {}", plural(all, "model", "models")),
        (_, true) if maps == all => plural(maps, "map", "maps"),
        (_, true) => format!(
            "{}, {}",
            plural(all - maps, "model", "models"),
            plural(maps, "map", "maps")
        ),
        (_, false) => format!("{shown} of {}", plural(all, "tile", "tiles")),
    }
}

/// The gallery in the central area.
pub fn gallery_ui(ui: &mut egui::Ui, state: &mut AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let has_document = state.document.open.is_some();
    let Some(g) = &mut state.panels.gallery else {
        return out;
    };
    egui::Panel::top("gallery bar").show(ui, |ui| {
        bar_ui(ui, g, has_document, &mut out);
    });
    egui::CentralPanel::default().show(ui, |ui| grid_ui(ui, g, &mut out));
    out
}

fn bar_ui(ui: &mut egui::Ui, g: &mut Gallery, has_document: bool, out: &mut Vec<AppCommand>) {
    ui.horizontal_wrapped(|ui| {
        if has_document
            && ui
                .button("Back to the model")
                .on_hover_text("Back to the open model")
                .clicked()
        {
            if let Some(i) = g.selected {
                out.push(cmd(GalleryCommand::OpenTile(i)));
            } else {
                g.shown = false;
            }
        }
        let title = egui::RichText::new(&g.title).strong();
        let r = ui.label(title);
        if let Some(s) = &g.source {
            r.on_hover_text(s.to_string());
        }
        ui.separator();
        let l = ui.label("Filter");
        ui.add(
            egui::TextEdit::singleline(&mut g.filter)
                .hint_text("name or folder")
                .desired_width(160.0),
        )
        .labelled_by(l.id);
        let counts = g.format_counts();
        let label = g.format.map_or("All formats", TileKind::label);
        egui::ComboBox::from_label("Format")
            .selected_text(label)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut g.format, None, format!("All ({})", g.tiles.len()));
                for (f, n) in counts {
                    ui.selectable_value(&mut g.format, Some(f), format!("{} ({n})", f.label()));
                }
            });
        ui.checkbox(&mut g.group, "Group by folder");
        ui.add(egui::Slider::new(&mut g.tile_size, TILE_SIZES).text("Size"));
        ui.separator();
        let maps = g.tiles.iter().filter(|t| t.kind == TileKind::Map).count();
        ui.label(count_label(g.visible().len(), g.tiles.len(), maps));
        if let Some(t) = &g.thumbs {
            let text = match t.elapsed {
                Some(d) if t.done == t.total => {
                    let cached = match t.from_cache {
                        0 => String::new(),
                        n => format!(" ({n} from the cache)"),
                    };
                    format!(
                        "thumbnails {} / {} in {:.2} s{cached}",
                        t.done,
                        t.total,
                        d.as_secs_f32()
                    )
                }
                _ => format!("thumbnails {} / {}", t.done, t.total),
            };
            ui.label(text);
        }
        let failed = g.tiles.iter().filter(|t| t.error.is_some()).count() + g.listing_errors.len();
        if failed > 0 {
            let lines: Vec<String> = g
                .listing_errors
                .iter()
                .map(|(p, e)| format!("{p}: {e}"))
                .collect();
            let r = ui.colored_label(ui.visuals().error_fg_color, format!("{failed} failed"));
            if !lines.is_empty() {
                r.on_hover_text(lines.join("\n"));
            }
        }
        let warned = g.listing_warnings.len();
        if warned > 0 {
            let lines: Vec<String> = g
                .listing_warnings
                .iter()
                .map(|(p, w)| format!("{p}: {w}"))
                .collect();
            let text = format!("{warned} warning{}", if warned == 1 { "" } else { "s" });
            ui.colored_label(ui.visuals().warn_fg_color, text)
                .on_hover_text(lines.join("\n"));
        }
        if ui
            .button("Close")
            .on_hover_text("Close the gallery")
            .clicked()
        {
            out.push(cmd(GalleryCommand::Close));
        }
    });
}

fn grid_ui(ui: &mut egui::Ui, g: &mut Gallery, out: &mut Vec<AppCommand>) {
    let tile = Vec2::new(g.tile_size, g.tile_size + CAPTION);
    let width = ui.available_width();
    let columns = (((width + GAP) / (tile.x + GAP)).floor() as usize).max(1);
    let rows = rows(g, columns);
    let moved = keys(ui, g, &rows, out);
    let heights: Vec<f32> = rows
        .iter()
        .map(|r| match r {
            Row::Heading(..) => HEADING,
            Row::Tiles(_) => tile.y + GAP,
        })
        .collect();
    let total: f32 = heights.iter().sum();
    let mut area = egui::ScrollArea::vertical()
        .id_salt("gallery grid")
        .auto_shrink([false, false]);
    if g.restore_scroll {
        area = area.vertical_scroll_offset(g.scroll);
        g.restore_scroll = false;
    } else if moved && let Some(sel) = g.selected {
        // Keep the tile the keys moved to on screen.
        let mut top = 0.0;
        for (row, h) in rows.iter().zip(&heights) {
            if matches!(row, Row::Tiles(t) if t.contains(&sel)) {
                let view = ui.available_height();
                if top < g.scroll {
                    area = area.vertical_scroll_offset(top);
                } else if top + h > g.scroll + view {
                    area = area.vertical_scroll_offset(top + h - view);
                }
                break;
            }
            top += h;
        }
    }
    let mut on_screen = Vec::new();
    let output = area.show_viewport(ui, |ui, viewport| {
        ui.set_height(total);
        let origin = ui.min_rect().min;
        let mut y = 0.0;
        for (row, h) in rows.iter().zip(&heights) {
            let top = y;
            y += h;
            if y < viewport.min.y || top > viewport.max.y {
                continue;
            }
            let at = origin + Vec2::new(0.0, top);
            match row {
                Row::Heading(name, n) => {
                    let rect = Rect::from_min_size(at, Vec2::new(width, HEADING));
                    let text = egui::RichText::new(format!("{name}  ({n})"))
                        .size(15.0)
                        .strong();
                    ui.scope_builder(egui::UiBuilder::new().max_rect(rect), |ui| {
                        ui.add_space(4.0);
                        ui.label(text);
                    });
                }
                Row::Tiles(items) => {
                    for (col, &i) in items.iter().enumerate() {
                        let min = at + Vec2::new(col as f32 * (tile.x + GAP), 0.0);
                        let rect = Rect::from_min_size(min, tile);
                        on_screen.push(i);
                        if tile_ui(ui, g, i, rect) {
                            out.push(cmd(GalleryCommand::OpenTile(i)));
                        }
                    }
                }
            }
        }
    });
    g.scroll = output.state.clamped_offset().y;
    if let Some(t) = &mut g.thumbs {
        t.prioritise(&on_screen);
    }
}

/// Draws tile `i` in `rect`; true when clicked.
fn tile_ui(ui: &mut egui::Ui, g: &Gallery, i: usize, rect: Rect) -> bool {
    let t: &Tile = &g.tiles[i];
    let id = ui.scope_id().with(("gallery tile", i));
    let response = ui.interact(rect, id, Sense::click());
    let visuals = ui.visuals().clone();
    let painter = ui.painter_at(rect);
    let selected = g.selected == Some(i);
    let fill = if response.hovered() || selected {
        visuals.widgets.hovered.weak_bg_fill
    } else {
        visuals.faint_bg_color
    };
    painter.rect_filled(rect, 4.0, fill);
    if selected {
        painter.rect_stroke(
            rect,
            4.0,
            egui::Stroke::new(2.0, visuals.selection.stroke.color),
            egui::StrokeKind::Inside,
        );
    }
    let picture = Rect::from_min_size(rect.min, Vec2::splat(rect.width())).shrink(4.0);
    match g.thumbs.as_ref().and_then(|th| th.texture(i)) {
        Some(tex) => {
            let uv = Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            painter.image(tex.id(), picture, uv, Color32::WHITE);
        }
        None => {
            let pending = g.thumbs.as_ref().is_some_and(|th| th.is_pending(i));
            let text = if pending { "…" } else { t.kind.label() };
            painter.text(
                picture.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(14.0),
                visuals.weak_text_color(),
            );
        }
    }
    let name_at = egui::pos2(rect.min.x + 4.0, picture.max.y + 4.0);
    let mut job = egui::text::LayoutJob::single_section(
        t.name.clone(),
        egui::TextFormat::simple(egui::FontId::proportional(12.0), visuals.text_color()),
    );
    job.wrap = egui::text::TextWrapping {
        max_width: rect.width() - 8.0,
        max_rows: 1,
        break_anywhere: true,
        overflow_character: Some('…'),
    };
    let galley = ui.painter().layout_job(job);
    painter.galley(name_at, galley, visuals.text_color());
    painter.text(
        name_at + Vec2::new(0.0, 15.0),
        egui::Align2::LEFT_TOP,
        t.kind.label(),
        egui::FontId::proportional(10.0),
        visuals.weak_text_color(),
    );
    if t.error.is_some() {
        let c = rect.right_top();
        painter.add(egui::Shape::convex_polygon(
            vec![
                c,
                c + Vec2::new(0.0, ERROR_CORNER),
                c - Vec2::new(ERROR_CORNER, 0.0),
            ],
            Color32::from_rgb(220, 40, 40),
            egui::Stroke::NONE,
        ));
    }
    let hover = match &t.error {
        Some(e) => format!("{}\n\nCould not load: {e}", g.label(t)),
        None => g.label(t),
    };
    let name = t.name.clone();
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
    let clicked = response.clicked();
    response.on_hover_text(hover);
    clicked
}

/// Arrow keys, Home and End move the focus through the grid; Enter opens the focused
/// tile. True when the focus moved.
fn keys(ui: &egui::Ui, g: &mut Gallery, rows: &[Row], out: &mut Vec<AppCommand>) -> bool {
    if ui.ctx().egui_wants_keyboard_input() {
        return false;
    }
    let order: Vec<&Vec<usize>> = rows
        .iter()
        .filter_map(|r| match r {
            Row::Tiles(t) => Some(t),
            Row::Heading(..) => None,
        })
        .collect();
    let flat: Vec<usize> = order.iter().flat_map(|r| r.iter().copied()).collect();
    if flat.is_empty() {
        return false;
    }
    let pos = g.selected.and_then(|s| flat.iter().position(|&i| i == s));
    let (row, col) = pos
        .and_then(|p| {
            let mut seen = 0;
            order.iter().enumerate().find_map(|(r, items)| {
                let found = (p < seen + items.len()).then_some((r, p - seen));
                seen += items.len();
                found
            })
        })
        .unwrap_or((0, 0));
    let target = ui.ctx().input_mut(|i| {
        let none = egui::Modifiers::NONE;
        let step = |r: usize, c: usize| order.get(r).map(|items| items[c.min(items.len() - 1)]);
        let (_, what, _) = grid_keys()
            .into_iter()
            .find(|(key, _, _)| i.consume_key(none, *key))?;
        match what {
            GridMove::Open => {
                if let Some(s) = g.selected {
                    out.push(cmd(GalleryCommand::OpenTile(s)));
                }
                None
            }
            GridMove::Right => Some(pos.map_or(flat[0], |p| flat[(p + 1).min(flat.len() - 1)])),
            GridMove::Left => Some(pos.map_or(flat[0], |p| flat[p.saturating_sub(1)])),
            GridMove::Down => step((row + 1).min(order.len() - 1), col).or(Some(flat[0])),
            GridMove::Up => step(row.saturating_sub(1), col),
            GridMove::First => Some(flat[0]),
            GridMove::Last => flat.last().copied(),
        }
    });
    if let Some(t) = target {
        g.selected = Some(t);
    }
    target.is_some()
}

/// In the viewer, while a gallery is open: a strip to go back, the position in the list
/// and previous / next.
pub fn browse_bar_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let Some(g) = &state.panels.gallery else {
        return out;
    };
    let list = super::browse_list(
        state.panels.gallery.as_ref(),
        state.document.open.as_ref(),
        &state.services.files,
    );
    let at = state
        .document
        .open
        .as_ref()
        .and_then(|d| list.iter().position(|f| *f == d.path));
    ui.horizontal(|ui| {
        if ui
            .button(format!("Back to {}", g.title))
            .on_hover_text("Back to the gallery (Esc)")
            .clicked()
        {
            out.push(cmd(GalleryCommand::Back));
        }
        if let Some(at) = at {
            ui.separator();
            if ui
                .add_enabled(at > 0, egui::Button::new("Previous"))
                .on_hover_text("Page Up, or the mouse's back button")
                .clicked()
            {
                out.push(cmd(GalleryCommand::Step(-1)));
            }
            ui.label(format!("{} / {}", at + 1, list.len()));
            if ui
                .add_enabled(at + 1 < list.len(), egui::Button::new("Next"))
                .on_hover_text("Page Down, or the mouse's forward button")
                .clicked()
            {
                out.push(cmd(GalleryCommand::Step(1)));
            }
        }
    });
    out
}

/// What a key does in the gallery's grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GridMove {
    /// Open the selected tile.
    Open,
    /// Select the next tile.
    Right,
    /// Select the previous tile.
    Left,
    /// Select the tile below.
    Down,
    /// Select the tile above.
    Up,
    /// Select the first tile.
    First,
    /// Select the last tile.
    Last,
}

/// The gallery grid's keys: what the grid reads and the Help window lists.
pub fn grid_keys() -> [(Key, GridMove, &'static str); 7] {
    [
        (Key::Enter, GridMove::Open, "Open the selected model"),
        (Key::ArrowRight, GridMove::Right, "Select the next model"),
        (Key::ArrowLeft, GridMove::Left, "Select the previous model"),
        (Key::ArrowDown, GridMove::Down, "Select the model below"),
        (Key::ArrowUp, GridMove::Up, "Select the model above"),
        (Key::Home, GridMove::First, "Select the first model"),
        (Key::End, GridMove::Last, "Select the last model"),
    ]
}

/// What a browse key asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Browse {
    /// Back to the gallery (once nothing is selected: Esc clears a selection first).
    Back,
    /// The next (+1) or previous (−1) model of the gallery, or of the model's folder.
    Step(i32),
}

/// The viewer's browse keys, with the mouse button that does the same: what
/// [`viewer_keys`] reads and the Help window lists.
pub fn browse_keys() -> [(Key, Option<egui::PointerButton>, Browse, &'static str); 3] {
    [
        (
            Key::Escape,
            None,
            Browse::Back,
            "Back to the gallery at the same scroll (after clearing a selection)",
        ),
        (
            Key::PageDown,
            Some(egui::PointerButton::Extra2),
            Browse::Step(1),
            "Next model of the gallery or folder (also the mouse's forward button)",
        ),
        (
            Key::PageUp,
            Some(egui::PointerButton::Extra1),
            Browse::Step(-1),
            "Previous model (also the mouse's back button)",
        ),
    ]
}

/// Keys of the viewer while it shows a model: Esc back to the gallery (once nothing is
/// selected); Page Up / Page Down and the mouse's back / forward buttons step through the
/// models of the gallery (or of the model's folder). See [`browse_keys`].
pub fn viewer_keys(ctx: &egui::Context, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    if ctx.egui_wants_keyboard_input() {
        return out;
    }
    let gallery_hidden = state.panels.gallery.as_ref().is_some_and(|g| !g.shown);
    // Esc clears a selection first (the viewer's own use of it).
    let selection = state.document.inspect.selected.is_some();
    ctx.input_mut(|i| {
        let none = egui::Modifiers::NONE;
        for (key, button, what, _) in browse_keys() {
            let usable = match what {
                Browse::Back => gallery_hidden && !selection,
                Browse::Step(_) => state.document.open.is_some(),
            };
            if !usable {
                continue;
            }
            let pressed =
                i.consume_key(none, key) || button.is_some_and(|b| i.pointer.button_pressed(b));
            if pressed {
                out.push(cmd(match what {
                    Browse::Back => GalleryCommand::Back,
                    Browse::Step(n) => GalleryCommand::Step(n),
                }));
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bar_counts_models_and_maps() {
        for (shown, all, maps, said) in [
            (9, 9, 0, "9 models"),
            (1, 1, 0, "1 model"),
            (3, 9, 0, "3 of 9 models"),
            (141, 141, 39, "102 models, 39 maps"),
            (39, 39, 39, "39 maps"),
            (1, 1, 1, "1 map"),
            (39, 141, 39, "39 of 141 tiles"),
        ] {
            assert_eq!(super::count_label(shown, all, maps), said);
        }
    }
}
