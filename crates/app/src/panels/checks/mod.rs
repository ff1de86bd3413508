//! The Checks panel: the open model's `vitrine check` findings (a map's: `vitrine check
//! MAP`'s) grouped by level, counts (and a red badge when there are errors) in its
//! header; picking a finding selects its node (a map's object), scrolls the hierarchy to
//! it and marks the polygon or point in the view.

pub mod state;

pub use state::{ChecksCommand, ChecksState};

use crate::check::{self, Counts, Element, Finding, Level};
use crate::commands::AppCommand;
use crate::document::{Document, DocumentState};
use crate::inspect::state::InspectCommand;
use crate::model::Model;
use crate::panels::sections::Sections;
use crate::state::AppState;

/// Error colour (badge and error rows).
pub const ERROR: egui::Color32 = egui::Color32::from_rgb(220, 50, 60);
/// Warning colour.
pub const WARNING: egui::Color32 = egui::Color32::from_rgb(235, 170, 40);
/// Note colour.
pub const NOTE: egui::Color32 = egui::Color32::from_rgb(120, 170, 230);

/// The node an element belongs to.
pub fn element_node(model: &Model, e: Element) -> Option<usize> {
    match e {
        Element::Node { node } => Some(node),
        Element::Polygon { mesh, .. } | Element::Point { mesh, .. } => model.mesh_node(mesh),
        Element::File
        | Element::Texture { .. }
        | Element::Material { .. }
        | Element::Object { .. } => None,
    }
}

/// Carries out `cmd` on the document's checks; picking a finding returns the selection
/// of its node as a follow-up.
pub fn apply(document: &mut DocumentState, cmd: ChecksCommand) -> Vec<AppCommand> {
    let mut then = Vec::new();
    match cmd {
        ChecksCommand::Select(i) => {
            let i = i.filter(|&i| i < document.checks.findings.len());
            document.checks.selected = i;
            let node = document.open.as_ref().and_then(|d| {
                i.and_then(|i| element_node(&d.model, document.checks.findings[i].element))
            });
            if i.is_some() {
                then.push(AppCommand::Inspect(InspectCommand::Select(node)));
            }
            document.checks.scroll_to = node;
        }
        ChecksCommand::Scrolled => document.checks.scroll_to = None,
    }
    then
}

/// The section header: `Checks` and the counts, errors on a red badge.
pub fn header(counts: Counts) -> egui::WidgetText {
    use egui::text::{LayoutJob, TextFormat};
    let mut job = LayoutJob::default();
    let plain = TextFormat::default();
    job.append("Checks  ", 0.0, plain.clone());
    if counts.errors > 0 {
        job.append(
            &format!(" {} ", counts.errors),
            0.0,
            TextFormat {
                background: ERROR,
                color: egui::Color32::WHITE,
                ..plain.clone()
            },
        );
        job.append(
            if counts.errors == 1 {
                " error  "
            } else {
                " errors  "
            },
            0.0,
            plain.clone(),
        );
    }
    let rest = format!(
        "{} warning{} · {} note{}",
        counts.warnings,
        if counts.warnings == 1 { "" } else { "s" },
        counts.notes,
        if counts.notes == 1 { "" } else { "s" }
    );
    job.append(&rest, 0.0, plain);
    job.into()
}

fn level_colour(l: Level) -> egui::Color32 {
    match l {
        Level::Error => ERROR,
        Level::Warning => WARNING,
        Level::Note => NOTE,
    }
}

/// The row text of a finding: `line 12 · pie/normals-count: message`.
pub fn row_text(f: &Finding) -> String {
    let place = match f.location {
        crate::model::Location::Line(l) => format!("line {l} · "),
        crate::model::Location::Offset(o) => format!("@0x{o:x} · "),
        crate::model::Location::File => String::new(),
    };
    format!("{place}{}: {}", f.rule, f.message)
}

/// The panel (a collapsible section of the side panel).
/// Open by default when there are errors or warnings; opened or closed by hand, it stays
/// so (across sessions) for models with problems and for clean ones separately, as the
/// Warnings section does.
pub fn checks_ui(ui: &mut egui::Ui, s: &mut Sections<'_>, state: &AppState, _doc: &Document) {
    let checks = &state.document.checks;
    let counts = checks.counts();
    let problems = counts.errors + counts.warnings > 0;
    let key = if problems { "checks" } else { "checks clean" };
    s.show(ui, key, header(counts), problems, |ui| {
        let mut out = Vec::new();
        if checks.findings.is_empty() {
            ui.weak("No findings: the game accepts this file as it is.");
        }
        for level in [Level::Error, Level::Warning, Level::Note] {
            let rows: Vec<(usize, &Finding)> = checks
                .findings
                .iter()
                .enumerate()
                .filter(|(_, f)| f.level == level)
                .collect();
            if rows.is_empty() {
                continue;
            }
            ui.label(
                egui::RichText::new(format!("{}s ({})", capitalised(level.name()), rows.len()))
                    .strong()
                    .color(level_colour(level)),
            );
            for (i, f) in rows {
                let picked = checks.selected == Some(i);
                let r = ui
                    .add(
                        egui::Button::selectable(
                            picked,
                            egui::RichText::new(row_text(f)).color(level_colour(level)),
                        )
                        .wrap(),
                    )
                    .on_hover_text(hover(f));
                if r.clicked() {
                    out.push(AppCommand::Checks(ChecksCommand::Select(
                        (!picked).then_some(i),
                    )));
                }
            }
        }
        out
    });
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn hover(f: &Finding) -> String {
    match check::rule(f.rule) {
        Some(r) => format!("{}\n\n{}\n\nSource: {}", r.summary, r.explanation, r.source),
        None => f.rule.to_string(),
    }
}
