//! The window's layout: menu bar, load-error banner, side panel, the view in the middle,
//! the Screenshot… dialog; plus window-wide input (shortcuts, dropped files).
//!
//! The view is passed in as a function so that tests can lay out the real window with a
//! stand-in view and no GPU.

use super::commands::{AppCommand, DocumentCommand, ScreenshotCommand};
use super::dialogs::screenshot_dialog::ScreenshotDialog;
use super::document::LoadFailure;
use super::effect::{MAX_SCREENSHOT_SIDE, ScreenshotRequest};
use super::menu::{menu_bar_ui, shortcuts};
use super::panels::side_panel::side_panel_ui;
use super::state::AppState;
use crate::files::file_name;

/// Default width of the side panel, points.
const SIDE_PANEL_WIDTH: f32 = 360.0;
/// Narrowest the user can make the side panel.
const SIDE_PANEL_MIN: f32 = 220.0;
/// Widest the side panel gets (long values wrap instead).
const SIDE_PANEL_MAX: f32 = 640.0;

/// Lays out the whole window; returns the commands of this frame.
pub fn window_ui(
    ui: &mut egui::Ui,
    state: &mut AppState,
    view_ui: impl FnOnce(&mut egui::Ui, &AppState) -> Vec<AppCommand>,
) -> Vec<AppCommand> {
    super::dialogs::export_animation::poll(&mut state.services, &mut state.dialogs.running_export);
    let gallery_shown = state.panels.gallery.as_ref().is_some_and(|g| g.shown);
    // Before the shortcuts: Esc goes back to the gallery when nothing is selected.
    let mut out = if gallery_shown {
        Vec::new()
    } else {
        super::gallery::ui::viewer_keys(ui.ctx(), state)
    };
    out.extend(shortcuts(ui.ctx()));
    out.extend(dropped_files(ui.ctx(), &state.services.files));

    if !state.view.embedded {
        egui::Panel::top("menu bar").show(ui, |ui| out.extend(menu_bar_ui(ui, state)));
    }
    if !state.services.work.idle() {
        // What runs in the background, for how long, with Cancel; the view below keeps
        // drawing the document open until the new one is ready.
        egui::Panel::top("jobs").show(ui, |ui| {
            out.extend(super::loading::progress_ui(ui, &state.services.work))
        });
    }
    if gallery_shown {
        // The gallery takes the window below the menu bar.
        egui::CentralPanel::default().show(ui, |ui| {
            out.extend(super::gallery::ui::gallery_ui(ui, state))
        });
        hovered_files_ui(ui.ctx());
        return out;
    }
    // Embedded: the view and the timeline only, a gallery behind or not.
    if state.panels.gallery.is_some() && !state.view.embedded {
        egui::Panel::top("browse bar").show(ui, |ui| {
            out.extend(super::gallery::ui::browse_bar_ui(ui, state))
        });
    }
    if let Some(err) = &state.document.load_error {
        egui::Panel::top("load error")
            .frame(
                egui::Frame::new()
                    .fill(egui::Color32::from_rgb(120, 28, 28))
                    .inner_margin(8.0),
            )
            .show(ui, |ui| out.extend(error_banner_ui(ui, err)));
    }
    if super::timeline::wanted(state) {
        egui::Panel::bottom("timeline")
            .show(ui, |ui| out.extend(super::timeline::timeline_ui(ui, state)));
    }
    if !state.view.embedded {
        egui::Panel::left("side panel")
            .resizable(true)
            .default_size(SIDE_PANEL_WIDTH)
            .size_range(SIDE_PANEL_MIN..=SIDE_PANEL_MAX)
            .show(ui, |ui| out.extend(side_panel_ui(ui, state)));
    }
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(ui, |ui| out.extend(view_ui(ui, state)));

    hovered_files_ui(ui.ctx());
    if let Some(mut dialog) = state.dialogs.screenshot {
        out.extend(screenshot_dialog_ui(ui.ctx(), &mut dialog));
        // The dialog edits its own fields; commands may still close it.
        if let Some(d) = &mut state.dialogs.screenshot {
            *d = dialog;
        }
    }
    out.extend(animation_windows_ui(ui.ctx(), state));
    out.extend(super::dialogs::export_pie::window_ui(ui.ctx(), state));
    out.extend(super::dialogs::published_sites::window_ui(ui.ctx(), state));
    out.extend(super::help::help_window_ui(ui.ctx(), state));
    out.extend(super::messages::window_ui(ui.ctx(), &state.panels.messages));
    out
}

/// The Export animation dialog and the progress of a running export.
fn animation_windows_ui(ctx: &egui::Context, state: &mut AppState) -> Vec<AppCommand> {
    use super::dialogs::export_animation::{dialog_ui, job, progress_ui};
    let mut out = Vec::new();
    if let Some(run) = &state.dialogs.running_export {
        out.extend(progress_ui(ctx, run));
    }
    if let (Some(mut dialog), Some(doc)) = (state.dialogs.animation.clone(), &state.document.open) {
        let plan = job(&dialog, Some(doc), state.view_settings()).map(|j| j.plan);
        let busy = state.dialogs.running_export.is_some();
        out.extend(dialog_ui(ctx, &mut dialog, doc, plan, busy));
        if let Some(d) = &mut state.dialogs.animation {
            *d = dialog;
        }
    }
    out
}

/// The banner of a failed load: the full error text, the file, and a Dismiss button.
pub fn error_banner_ui(ui: &mut egui::Ui, err: &LoadFailure) -> Option<AppCommand> {
    let mut out = None;
    ui.horizontal(|ui| {
        if ui.button("Dismiss").clicked() {
            out = Some(AppCommand::Document(DocumentCommand::DismissError));
        }
        ui.vertical(|ui| {
            let white = egui::Color32::WHITE;
            ui.label(
                egui::RichText::new(format!("Could not open {}", err.path.file_name()))
                    .color(white)
                    .strong(),
            )
            .on_hover_text(err.path.to_string());
            ui.label(egui::RichText::new(&err.message).color(white).monospace());
        });
    });
    out
}

/// Files dropped on the window this frame: one file opens in the viewer, a folder or an
/// archive as a gallery of its models, several files as a gallery of them.
fn dropped_files(ctx: &egui::Context, files: &crate::files::Files) -> Option<AppCommand> {
    let files: Vec<crate::files::FileRef> = ctx.input(|i| {
        i.raw
            .dropped_files
            .iter()
            .map(|f| f.path().to_path_buf())
            .filter(|p| !p.as_os_str().is_empty())
            .map(|p| files.parse(&p))
            .collect()
    });
    match files.len() {
        0 => None,
        1 => files
            .into_iter()
            .next()
            .map(|f| AppCommand::Document(DocumentCommand::Open(f))),
        _ => Some(AppCommand::Gallery(
            super::gallery::command::GalleryCommand::OpenFiles(files),
        )),
    }
}

/// While files are dragged over the window, says what dropping will do.
fn hovered_files_ui(ctx: &egui::Context) {
    let names: Vec<String> = ctx.input(|i| {
        i.raw
            .hovered_files
            .iter()
            .filter_map(|f| f.path.as_deref().map(file_name))
            .collect()
    });
    let Some(first) = names.first() else {
        return;
    };
    let what = if names.len() > 1 {
        format!("Drop to open {} files as a gallery", names.len())
    } else {
        format!("Drop to open {first}")
    };
    let screen = ctx.content_rect();
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("drop overlay"),
    ));
    painter.rect_filled(screen, 0.0, egui::Color32::from_black_alpha(160));
    painter.text(
        screen.center(),
        egui::Align2::CENTER_CENTER,
        what,
        egui::FontId::proportional(24.0),
        egui::Color32::WHITE,
    );
}

/// The Screenshot… dialog: size up to 4096 × 4096, clean or not.
pub fn screenshot_dialog_ui(ctx: &egui::Context, d: &mut ScreenshotDialog) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new("Screenshot…")
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            egui::Grid::new("screenshot size").show(ui, |ui| {
                let max = 1..=MAX_SCREENSHOT_SIDE;
                let l = ui.label("Width");
                ui.add(
                    egui::DragValue::new(&mut d.width)
                        .range(max.clone())
                        .suffix(" px"),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Height");
                ui.add(egui::DragValue::new(&mut d.height).range(max).suffix(" px"))
                    .labelled_by(l.id);
                ui.end_row();
            });
            ui.horizontal(|ui| {
                for (w, h) in [(1024, 768), (1920, 1080), (2048, 2048), (4096, 4096)] {
                    if ui.button(format!("{w}×{h}")).clicked() {
                        (d.width, d.height) = (w, h);
                    }
                }
            });
            ui.checkbox(&mut d.clean, "Clean (transparent background, no overlays)");
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    out.push(AppCommand::Screenshot(ScreenshotCommand::Take(
                        ScreenshotRequest {
                            size: Some([d.width, d.height]),
                            clean: d.clean,
                        },
                    )));
                }
                if ui.button("Cancel").clicked() {
                    out.push(AppCommand::Screenshot(ScreenshotCommand::CloseDialog));
                }
            });
        });
    if !open {
        out.push(AppCommand::Screenshot(ScreenshotCommand::CloseDialog));
    }
    out
}
