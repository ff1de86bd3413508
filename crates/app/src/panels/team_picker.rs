//! The team-colour picker: Warzone 2100's 16 colours as swatches, each an accessible
//! button named by the colour (hover shows the name too).

use crate::commands::{AppCommand, SettingsCommand};
use crate::render::TEAM_COLOURS;

/// Side of one swatch, points.
const SWATCH: f32 = 22.0;
/// Swatches per row.
const PER_ROW: usize = 8;

/// Draws the swatches with `current` marked; returns the command of a clicked swatch.
pub fn team_picker_ui(ui: &mut egui::Ui, current: usize) -> Option<AppCommand> {
    let mut out = None;
    egui::Grid::new("team swatches")
        .spacing(egui::vec2(4.0, 4.0))
        .min_col_width(SWATCH)
        .show(ui, |ui| {
            for (i, team) in TEAM_COLOURS.iter().enumerate() {
                if swatch_ui(ui, team.name, team.rgb, i == current).clicked() {
                    out = Some(AppCommand::Settings(SettingsCommand::SetTeam(i)));
                }
                if (i + 1) % PER_ROW == 0 {
                    ui.end_row();
                }
            }
        });
    let name = TEAM_COLOURS.get(current).map_or("?", |t| t.name);
    ui.label(format!("Team colour: {name} ({current})"));
    out
}

/// One colour square; selected swatches get a bright outline.
fn swatch_ui(ui: &mut egui::Ui, name: &str, rgb: [u8; 3], selected: bool) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(SWATCH, SWATCH), egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, selected, name));
    if ui.is_rect_visible(rect) {
        let painter = ui.painter();
        let fill = egui::Color32::from_rgb(rgb[0], rgb[1], rgb[2]);
        painter.rect_filled(rect.shrink(2.0), 3.0, fill);
        let stroke = if selected {
            egui::Stroke::new(2.0, ui.visuals().strong_text_color())
        } else if response.hovered() {
            egui::Stroke::new(1.0, ui.visuals().text_color())
        } else {
            egui::Stroke::new(1.0, ui.visuals().widgets.noninteractive.bg_stroke.color)
        };
        painter.rect_stroke(rect.shrink(1.0), 3.0, stroke, egui::StrokeKind::Inside);
    }
    response.on_hover_text(name)
}
