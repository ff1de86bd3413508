//! View ▸ Messages…: a window listing the session's messages, newest first — every
//! toast (info and error) and every failed load, with the time each appeared — which
//! stay after the toasts in the corner are gone (the last
//! [`state::MAX_MESSAGES`]). Copy all puts them on the clipboard as lines of text for a
//! bug report; Clear forgets them. The menu item counts the errors kept.

pub mod state;

pub use state::{MessageLog, MessagesCommand};

use crate::commands::AppCommand;

/// Red for an error's kind column, readable on the dark and the light theme.
const ERROR_RED: egui::Color32 = egui::Color32::from_rgb(220, 70, 70);

/// The View menu's item: `Messages…`, with the errors kept counted.
pub fn menu_item_ui(ui: &mut egui::Ui, log: &MessageLog) -> Option<AppCommand> {
    let label = match log.errors() {
        0 => "Messages…".to_string(),
        n => format!("Messages… ({})", count(n, "error")),
    };
    ui.button(label)
        .on_hover_text("Every toast and failed load of this session, with its time")
        .clicked()
        .then_some(AppCommand::Messages(MessagesCommand::Show(true)))
}

/// The Messages window, when open.
pub fn window_ui(ctx: &egui::Context, log: &MessageLog) -> Vec<AppCommand> {
    if !log.open {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new("Messages")
        .collapsible(false)
        .resizable(true)
        .default_width(560.0)
        .default_height(360.0)
        // Right of the side panel, below the menu bar and the load-error banner.
        .default_pos([380.0, 90.0])
        .open(&mut open)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                let any = !log.is_empty();
                if ui
                    .add_enabled(any, egui::Button::new("Copy all"))
                    .on_hover_text("Every message as a line of text, newest first")
                    .clicked()
                {
                    out.push(AppCommand::Messages(MessagesCommand::CopyAll));
                }
                if ui.add_enabled(any, egui::Button::new("Clear")).clicked() {
                    out.push(AppCommand::Messages(MessagesCommand::Clear));
                }
                ui.weak(format!(
                    "{}, {} (times in UTC)",
                    count(log.len(), "message"),
                    count(log.errors(), "error")
                ));
            });
            ui.separator();
            list_ui(ui, log);
        });
    if !open {
        out.push(AppCommand::Messages(MessagesCommand::Show(false)));
    }
    out
}

/// `n` and `noun`, plural but for one (`1 error`, `3 errors`).
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The messages, newest first: time, kind, text.
fn list_ui(ui: &mut egui::Ui, log: &MessageLog) {
    if log.is_empty() {
        ui.weak("No messages in this session yet.");
        return;
    }
    egui::ScrollArea::vertical()
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("messages")
                .num_columns(3)
                .striped(true)
                .show(ui, |ui| {
                    for m in log.newest_first() {
                        ui.monospace(state::clock_text(m.at));
                        if m.error {
                            ui.colored_label(ERROR_RED, "error");
                        } else {
                            ui.weak("info");
                        }
                        ui.add(egui::Label::new(&m.text).wrap());
                        ui.end_row();
                    }
                });
        });
}
