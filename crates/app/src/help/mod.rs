//! The Help menu and the Help window: the keyboard and mouse reference (`reference`,
//! built from the input code's own tables), the formats with links to their
//! specifications, and About (version, licence, GPU adapter, with a Copy button for bug
//! reports). F1 or `?` opens the window on the reference (and closes it again).

pub mod about;
pub mod reference;
pub mod state;

pub use state::{HelpCommand, HelpTab};

use super::commands::AppCommand;
use super::state::AppState;
use egui::{self, Key, KeyboardShortcut, Modifiers};

/// F1: the keyboard and mouse reference.
pub const HELP: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F1);
/// `?` (Shift+/ on most layouts): the same.
pub const QUESTION_MARK: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::NONE, Key::Questionmark);

/// The Help keys: for [`shortcuts`] and the reference.
pub fn help_keys() -> [(KeyboardShortcut, HelpCommand, &'static str); 2] {
    let toggle = HelpCommand::Toggle(HelpTab::Keys);
    [
        (HELP, toggle, "This keyboard and mouse reference"),
        (QUESTION_MARK, toggle, "This keyboard and mouse reference"),
    ]
}

/// F1 and `?` (`?` not while typing, where it is a character).
pub fn shortcuts(ctx: &egui::Context) -> Vec<AppCommand> {
    let typing = ctx.text_edit_focused();
    let mut out = Vec::new();
    ctx.input_mut(|i| {
        for (shortcut, cmd, _) in help_keys() {
            if (shortcut == HELP || !typing) && i.consume_shortcut(&shortcut) {
                out.push(AppCommand::Help(cmd));
            }
        }
    });
    out
}

/// The Help menu's contents.
pub fn help_menu_ui(ui: &mut egui::Ui) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let f1 = reference::shortcut_text(ui.ctx(), &HELP);
    for tab in HelpTab::ALL {
        let mut button = egui::Button::new(format!("{}…", tab.label()));
        if tab == HelpTab::Keys {
            button = button.shortcut_text(&f1);
        }
        if ui.add(button).clicked() {
            out.push(AppCommand::Help(HelpCommand::Show(tab)));
        }
    }
    out
}

/// The Help window, when open.
pub fn help_window_ui(ctx: &egui::Context, state: &AppState) -> Vec<AppCommand> {
    let Some(tab) = state.dialogs.help else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new("Help")
        .collapsible(false)
        .resizable(true)
        .default_width(600.0)
        .default_height(640.0)
        .open(&mut open)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                for t in HelpTab::ALL {
                    if ui.selectable_label(t == tab, t.label()).clicked() && t != tab {
                        out.push(AppCommand::Help(HelpCommand::Show(t)));
                    }
                }
            });
            ui.separator();
            egui::ScrollArea::vertical()
                .auto_shrink([false, true])
                .show(ui, |ui| match tab {
                    HelpTab::Keys => keys_ui(ui),
                    HelpTab::Formats => formats_ui(ui),
                    HelpTab::About => out.extend(about_ui(ui)),
                });
        });
    if !open {
        out.push(AppCommand::Help(HelpCommand::Close));
    }
    out
}

/// Width of the keys column, the same in every section so the actions line up.
const KEYS_COLUMN: f32 = 250.0;

fn keys_ui(ui: &mut egui::Ui) {
    for section in reference::sections(ui.ctx()) {
        ui.strong(section.title);
        egui::Grid::new(section.title)
            .num_columns(2)
            .striped(true)
            .min_col_width(KEYS_COLUMN)
            .show(ui, |ui| {
                for b in &section.bindings {
                    ui.monospace(&b.keys);
                    ui.label(&b.action);
                    ui.end_row();
                }
            });
        ui.add_space(6.0);
    }
    ui.weak("Plain-letter keys work while no text field has the keyboard.");
}

fn formats_ui(ui: &mut egui::Ui) {
    for f in about::FORMATS {
        ui.horizontal(|ui| {
            ui.strong(f.name);
            ui.monospace(f.extensions);
        });
        ui.label(f.origin);
        for (text, url) in f.specs {
            ui.hyperlink_to(*text, *url);
        }
        ui.add_space(6.0);
    }
    ui.separator();
    ui.label(format!("Texture pages: {}.", about::TEXTURES));
}

fn about_ui(ui: &mut egui::Ui) -> Vec<AppCommand> {
    let text = about::about_text(crate::crash::adapter().as_deref());
    ui.heading(format!("Vitrine {}", env!("CARGO_PKG_VERSION")));
    egui::Grid::new("about").num_columns(2).show(ui, |ui| {
        for line in text.lines().skip(2) {
            if let Some((k, v)) = line.split_once(": ") {
                ui.label(k);
                ui.label(v);
                ui.end_row();
            }
        }
    });
    ui.add_space(6.0);
    if ui
        .button("Copy")
        .on_hover_text("Copy these lines for a bug report")
        .clicked()
    {
        ui.ctx().copy_text(text);
        return vec![AppCommand::Help(HelpCommand::Copied)];
    }
    Vec::new()
}
