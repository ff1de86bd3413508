//! The window's offer to show a crash report left by an earlier run ([`crate::crash`]):
//! a small window saying where the report is, with "Show report" (its text, selectable,
//! in a scroll area), "Copy" (to the clipboard, for a bug report) and "Dismiss". A report
//! is offered once: dismissing it records it as seen.

use crate::crash;
use crate::files::{self, FileRef};
use eframe::egui;
use std::path::{Path, PathBuf};

/// An unseen crash report and what the user has asked of it.
#[derive(Debug, Clone, PartialEq)]
pub struct CrashNotice {
    folder: PathBuf,
    /// The newest unseen report.
    pub report: PathBuf,
    /// How many unseen reports there are (the newest is shown).
    pub count: usize,
    /// The report's text, once "Show report" was pressed.
    pub text: Option<String>,
}

impl CrashNotice {
    /// The newest report in `folder` not offered yet, if any.
    pub fn find(folder: &Path) -> Option<CrashNotice> {
        let reports = crash::unseen_reports(folder);
        Some(CrashNotice {
            folder: folder.to_path_buf(),
            report: reports.last()?.clone(),
            count: reports.len(),
            text: None,
        })
    }

    /// Records every report up to this one as seen.
    pub fn dismiss(&self) -> std::io::Result<()> {
        crash::mark_seen(&self.folder, &self.report)
    }

    fn load_text(&mut self) {
        let text = files::read(&FileRef::Disk(self.report.clone()))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_else(|e| format!("Could not read the report: {e}"));
        self.text = Some(text);
    }
}

/// Draws the notice; returns `false` once the user dismissed it (the caller drops it).
/// "Copy" copies the report's text (read now if it was not shown).
pub fn ui(ctx: &egui::Context, notice: &mut CrashNotice) -> bool {
    let mut keep = true;
    egui::Window::new("Vitrine closed unexpectedly")
        .id(egui::Id::unique("vitrine crash notice"))
        .collapsible(false)
        .resizable(true)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 48.0))
        .default_width(520.0)
        .show(ctx, |ui| {
            let more = if notice.count > 1 {
                format!(" ({} reports; this is the newest)", notice.count)
            } else {
                String::new()
            };
            ui.label(format!(
                "The last run stopped because of a bug. A crash report was saved{more}:"
            ));
            ui.monospace(notice.report.display().to_string());
            ui.label("Attaching it to a bug report helps fix the problem.");
            ui.horizontal(|ui| {
                let label = if notice.text.is_some() {
                    "Hide report"
                } else {
                    "Show report"
                };
                if ui.button(label).clicked() {
                    if notice.text.is_some() {
                        notice.text = None;
                    } else {
                        notice.load_text();
                    }
                }
                if ui.button("Copy").clicked() {
                    if notice.text.is_none() {
                        notice.load_text();
                    }
                    let text = notice.text.clone().unwrap_or_default();
                    ui.ctx().copy_text(text);
                }
                if ui.button("Dismiss").clicked() {
                    if let Err(e) = notice.dismiss() {
                        log::warn!("could not record the crash report as seen: {e}");
                    }
                    keep = false;
                }
            });
            if let Some(text) = &notice.text {
                egui::ScrollArea::vertical()
                    .max_height(320.0)
                    .show(ui, |ui| {
                        let mut shown = text.as_str();
                        ui.add(
                            egui::TextEdit::multiline(&mut shown)
                                .font(egui::TextStyle::Monospace)
                                .desired_width(f32::INFINITY),
                        );
                    });
            }
        });
    keep
}
