//! The menu bar (File, View, Settings, Help) and the window-wide keyboard shortcuts.

use super::commands::{
    AppCommand, DocumentCommand, GltfCommand, ScreenshotCommand, SettingsCommand, ShareCommand,
    ViewCommand,
};
use super::dialogs::export_animation::state::ExportCommand;
use super::effect::ScreenshotRequest;
use super::state::AppState;
pub use crate::dialogs::NO_FOLDERS;
use crate::files::file_name;
use egui::{self, Key, KeyboardShortcut, Modifiers};

/// Ctrl+O.
pub const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
/// Ctrl+Shift+O.
pub const OPEN_FOLDER: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::O);
/// F12.
pub const SCREENSHOT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F12);
/// Ctrl+F12.
pub const CLEAN_SCREENSHOT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::F12);
/// Ctrl+Shift+E.
pub const EXPORT_ANIMATION: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::E);
/// F5.
pub const RELOAD: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F5);
/// Ctrl+E.
pub const EXPORT_GLTF: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::E);
/// Ctrl+Q.
pub const QUIT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Q);

/// A screenshot of the view at its on-screen size.
const VIEW_SHOT: ScreenshotRequest = ScreenshotRequest {
    size: None,
    clean: false,
};
/// A clean screenshot at the view's size.
const CLEAN_SHOT: ScreenshotRequest = ScreenshotRequest {
    size: None,
    clean: true,
};

/// The menu bar's contents.
pub fn menu_bar_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let fmt = |s: &KeyboardShortcut| crate::keys::shortcut_text(ui.ctx(), s);
    let (open, shot, clean, quit) = (
        fmt(&OPEN),
        fmt(&SCREENSHOT),
        fmt(&CLEAN_SCREENSHOT),
        fmt(&QUIT),
    );
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui
                .add(egui::Button::new("Open…").shortcut_text(open))
                .clicked()
            {
                out.push(AppCommand::Document(DocumentCommand::OpenDialog));
            }
            let open_folder = crate::keys::shortcut_text(ui.ctx(), &OPEN_FOLDER);
            if ui
                .add_enabled(
                    state.services.host.has_folders(),
                    egui::Button::new("Open Folder…").shortcut_text(open_folder),
                )
                .on_hover_text("Every model of a folder as a gallery of thumbnails")
                .on_disabled_hover_text(NO_FOLDERS)
                .clicked()
            {
                out.push(AppCommand::Document(DocumentCommand::OpenFolderDialog));
            }
            ui.menu_button("Open Recent", |ui| {
                if state.services.settings.recent_files.is_empty() {
                    ui.weak("No recent files");
                }
                for path in &state.services.settings.recent_files {
                    let r = ui
                        .button(file_name(path))
                        .on_hover_text(path.display().to_string());
                    if r.clicked() {
                        out.push(AppCommand::Document(DocumentCommand::Open(
                            state.services.files.parse(path),
                        )));
                    }
                }
                if !state.services.settings.recent_files.is_empty() {
                    ui.separator();
                    if ui.button("Clear recent files").clicked() {
                        out.push(AppCommand::Settings(SettingsCommand::ClearRecent));
                    }
                }
            });
            let reload = crate::keys::shortcut_text(ui.ctx(), &RELOAD);
            let has_model = state.document.open.is_some();
            if ui
                .add_enabled(has_model, egui::Button::new("Reload").shortcut_text(reload))
                .on_hover_text("Load the file again from disk, keeping the clip, time and camera")
                .clicked()
            {
                out.push(AppCommand::Document(DocumentCommand::Reload));
            }
            ui.separator();
            let r = ui.add_enabled(
                has_model,
                egui::Button::new("Screenshot").shortcut_text(shot),
            );
            if r.clicked() {
                out.push(AppCommand::Screenshot(ScreenshotCommand::Take(VIEW_SHOT)));
            }
            let r = ui.add_enabled(
                has_model,
                egui::Button::new("Clean screenshot (transparent)").shortcut_text(clean),
            );
            if r.clicked() {
                out.push(AppCommand::Screenshot(ScreenshotCommand::Take(CLEAN_SHOT)));
            }
            if ui
                .add_enabled(has_model, egui::Button::new("Screenshot…"))
                .clicked()
            {
                out.push(AppCommand::Screenshot(ScreenshotCommand::ShowDialog));
            }
            let export = crate::keys::shortcut_text(ui.ctx(), &EXPORT_ANIMATION);
            if ui
                .add_enabled(
                    has_model,
                    egui::Button::new("Export animation…").shortcut_text(export),
                )
                .on_hover_text("A GIF, APNG, WebP or PNG sequence of the clip or a turntable")
                .clicked()
            {
                out.push(AppCommand::Export(ExportCommand::Show));
            }
            // Without folders (a browser) screenshots are downloads.
            if let Some(folder) = state
                .services
                .settings
                .screenshot_folder(&*state.services.host)
                && state.services.host.has_folders()
                && ui
                    .button("Screenshot folder…")
                    .on_hover_text(format!("Now: {}", folder.display()))
                    .clicked()
            {
                out.push(AppCommand::Screenshot(ScreenshotCommand::ChooseFolder));
            }
            ui.separator();
            let export = crate::keys::shortcut_text(ui.ctx(), &EXPORT_GLTF);
            if ui
                .add_enabled(
                    has_model,
                    egui::Button::new("Export glTF…").shortcut_text(export),
                )
                .on_hover_text(
                    "Save the model as glTF 2.0 (.glb or .gltf) for Blender, game engines \
                     and the web: hierarchy, textures with the current team colour, skins \
                     and every clip",
                )
                .clicked()
            {
                out.push(AppCommand::Gltf(GltfCommand::Dialog));
            }
            if ui
                .add_enabled(has_model, egui::Button::new("Export PIE…"))
                .on_hover_text(
                    "Save the model as a Warzone 2100 PIE 3 or 4 for the game, checked \
                     with the game's rules before it is written",
                )
                .clicked()
            {
                out.push(AppCommand::ExportPie(
                    super::dialogs::export_pie::state::PieCommand::Show,
                ));
            }
            ui.separator();
            if ui
                .add(egui::Button::new("Quit").shortcut_text(quit))
                .clicked()
            {
                out.push(AppCommand::Quit);
            }
        });
        ui.menu_button("View", |ui| {
            let has_model = state.document.open.is_some();
            if ui
                .add_enabled(
                    has_model,
                    egui::Button::new("Frame model").shortcut_text("F"),
                )
                .clicked()
            {
                out.push(AppCommand::View(ViewCommand::Frame));
            }
            ui.separator();
            for (label, key, preset) in crate::viewport::preset_buttons() {
                if ui
                    .add(egui::Button::new(label).shortcut_text(key))
                    .clicked()
                {
                    out.push(AppCommand::View(ViewCommand::Preset(preset)));
                }
            }
            ui.separator();
            let ortho = state.view.camera.orthographic;
            if ui
                .add(
                    egui::Button::new("Orthographic")
                        .selected(ortho)
                        .shortcut_text("5"),
                )
                .clicked()
            {
                out.push(AppCommand::View(ViewCommand::ToggleOrtho));
            }
            out.extend(super::inspect::overlay_menu::overlay_menu_ui(ui, state));
            ui.separator();
            ui.menu_button("Lighting", |ui| {
                out.extend(super::lighting::lighting_ui(ui, state));
            });
            let watch = state.services.settings.watch_files;
            if ui
                .add(egui::Button::new("Watch files").selected(watch))
                .on_hover_text(
                    "Reload the model when its file, parts or textures change on disk, \
                     keeping the camera, clip and selection",
                )
                .clicked()
            {
                out.push(AppCommand::Settings(SettingsCommand::SetWatchFiles(!watch)));
            }
            ui.separator();
            ui.menu_button("Colour mode", |ui| {
                out.extend(super::panels::format_panels::colour_mode_menu_ui(
                    ui,
                    state.view.colour_mode,
                ));
            });
            ui.separator();
            out.extend(super::messages::menu_item_ui(ui, &state.panels.messages));
        });
        // A page is its own site: Share ▸ Copy link is the web link there.
        let page = state.services.host.has_links();
        ui.menu_button("Settings", |ui| {
            ui.menu_button("Data roots", |ui| {
                ui.set_max_width(520.0);
                out.extend(super::panels::data_roots::data_roots_ui(ui, state));
            });
            if !page
                && ui
                    .button("Published sites…")
                    .on_hover_text("Mods published as web sites, for Share ▸ Copy web link")
                    .clicked()
            {
                out.push(AppCommand::Share(ShareCommand::ShowPublishedSites(true)));
            }
        });
        ui.menu_button("Share", |ui| {
            if page {
                let r = ui.add_enabled(
                    state.document.open.is_some(),
                    egui::Button::new("Copy link"),
                );
                let r =
                    r.on_hover_text("The address of this view: model, team, clip, time, camera");
                if r.clicked() {
                    out.push(AppCommand::Share(ShareCommand::CopyLink));
                }
            } else {
                let link = super::share::web_link(
                    &state.services,
                    state.document.open.as_ref(),
                    &state.view,
                );
                let r = ui.add_enabled(link.is_ok(), egui::Button::new("Copy web link"));
                let r = match &link {
                    Ok(url) => r.on_hover_text(format!(
                        "The address of this view on the mod's published site: {url}"
                    )),
                    Err(why) => r.on_disabled_hover_text(why),
                };
                if r.clicked() {
                    out.push(AppCommand::Share(ShareCommand::CopyWebLink));
                }
            }
        });
        ui.menu_button("Help", |ui| out.extend(super::help::help_menu_ui(ui)));
    });
    out
}

/// The window-wide shortcuts, most specific first (egui ignores an unnamed Shift when
/// matching, so Ctrl+Shift+E comes before Ctrl+E, Ctrl+F12 before F12): what
/// [`shortcuts`] handles and the Help window lists.
pub fn shortcut_table() -> [(KeyboardShortcut, AppCommand, &'static str); 8] {
    [
        // Ctrl+Shift+O before Ctrl+O: egui ignores Shift when a shortcut does not name it.
        (
            OPEN_FOLDER,
            AppCommand::Document(DocumentCommand::OpenFolderDialog),
            "Open a folder or archive as a gallery…",
        ),
        (
            OPEN,
            AppCommand::Document(DocumentCommand::OpenDialog),
            "Open a model…",
        ),
        (
            CLEAN_SCREENSHOT,
            AppCommand::Screenshot(ScreenshotCommand::Take(CLEAN_SHOT)),
            "Clean screenshot (no overlays, transparent)",
        ),
        (
            SCREENSHOT,
            AppCommand::Screenshot(ScreenshotCommand::Take(VIEW_SHOT)),
            "Screenshot of the view",
        ),
        (
            EXPORT_ANIMATION,
            AppCommand::Export(ExportCommand::Show),
            "Export animation…",
        ),
        (
            EXPORT_GLTF,
            AppCommand::Gltf(GltfCommand::Dialog),
            "Export glTF…",
        ),
        (
            RELOAD,
            AppCommand::Document(DocumentCommand::Reload),
            "Reload the file from disk",
        ),
        (QUIT, AppCommand::Quit, "Quit"),
    ]
}

/// Window-wide shortcuts (work whatever has the focus).
pub fn shortcuts(ctx: &egui::Context) -> Vec<AppCommand> {
    let mut out = Vec::new();
    ctx.input_mut(|i| {
        for (shortcut, cmd, _) in shortcut_table() {
            if i.consume_shortcut(&shortcut) {
                out.push(cmd);
            }
        }
    });
    out.extend(super::help::shortcuts(ctx));
    out.extend(super::lighting::shortcuts(ctx));
    out.extend(super::inspect::overlay_menu::shortcuts(ctx));
    out
}
