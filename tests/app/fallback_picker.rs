//! Issue 31 item 9: where the system has no file dialog (no zenity, no desktop portal),
//! File ▸ Open, Open folder and the save dialogs show Vitrine's own picker in the window
//! instead of doing nothing: with the real menu, layout, command handling and the
//! window's dialog controller (egui_kittest, no GPU), told that no system dialog exists.

use crate::{app_support, common};

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{self, Queryable};
use std::path::PathBuf;
use vitrine::app::commands::{AppCommand, Effect, GltfCommand};
use vitrine::app::frame::FrontEnd;
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::app::viewport::camera_input;
use vitrine::desktop::window::dialogs::backend::Backend;
use vitrine::desktop::window::dialogs::{Dialogs, FALLBACK_NOTICE};

/// The window as the shell runs it, with the dialogs the front-end performs.
struct Window {
    state: AppState,
    dialogs: Dialogs,
}

/// The desktop window's dialog part as a front-end of the app's frame: Vitrine's picker
/// drawn and its answer taken first, dialog effects performed by [`Dialogs`], the 3D view
/// a plain area.
struct WithDialogs<'a> {
    dialogs: &'a mut Dialogs,
}

impl FrontEnd for WithDialogs<'_> {
    fn arrived(&mut self, ctx: &egui::Context, _state: &mut AppState) -> Vec<AppCommand> {
        self.dialogs.ui(ctx);
        self.dialogs.poll().into_iter().collect()
    }

    fn view(&mut self, ui: &mut egui::Ui, _state: &AppState) -> Vec<AppCommand> {
        let rect = ui.available_rect_before_wrap();
        let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
        camera_input(ui, &response)
    }

    fn perform(
        &mut self,
        effect: Effect,
        ctx: &egui::Context,
        state: &mut AppState,
    ) -> Option<AppCommand> {
        // Only dialogs are expected here; anything else would be the GPU's or the OS's.
        assert!(
            self.dialogs.perform(ctx, effect).is_none(),
            "an effect that is not a dialog"
        );
        if let Some(notice) = self.dialogs.take_notice() {
            state.services.toasts.info(notice);
        }
        None
    }
}

/// One frame of the app ([`vitrine::app::frame::run`]) with the window's dialogs.
fn frame(ui: &mut egui::Ui, w: &mut Window) {
    let mut front = WithDialogs {
        dialogs: &mut w.dialogs,
    };
    vitrine::app::frame::run(ui, &mut w.state, &mut front);
}

/// Whether some text shown contains `needle`.
fn shows_text(h: &Harness<'static, Window>, needle: &str) -> bool {
    h.query_all(kittest::By::new().predicate(|n| n.value().is_some_and(|v| v.contains(needle))))
        .next()
        .is_some()
}

fn window(settings: Settings) -> Harness<'static, Window> {
    let state = AppState::new(settings, vitrine::desktop::window::DesktopHost::new(None));
    let w = Window {
        state,
        dialogs: Dialogs::with_backend(Backend::Fallback),
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1100.0, 800.0))
        .build_ui_state(frame, w);
    vitrine::desktop::window::fonts::install(&h.ctx);
    h.run_steps(3);
    h
}

/// A folder holding a model, a file Vitrine does not open and a sub-folder.
fn models_folder() -> tempfile::TempDir {
    let dir = app_support::temp_dir("fallback-picker");
    std::fs::copy(
        common::fixtures().join("pie/cube.pie"),
        dir.path().join("cube.pie"),
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a model").unwrap();
    std::fs::create_dir(dir.path().join("more")).unwrap();
    dir
}

#[test]
fn file_open_without_a_system_dialog_opens_the_model_through_vitrines_picker() {
    let dir = models_folder();
    let settings = Settings {
        last_folder: Some(dir.path().to_path_buf()),
        ..Settings::default()
    };
    let mut h = window(settings);
    assert!(h.state().state.document.open.is_none(), "nothing open yet");
    h.get_by_label("File").click();
    h.run_steps(2);
    // The menu item (the hint in the empty view names it too).
    h.get(
        kittest::By::new()
            .role(egui::accesskit::Role::Button)
            .label_contains("Open…"),
    )
    .click();
    h.run_steps(3);

    // The picker, titled as the system dialog would be, starts in the remembered folder
    // and lists what Vitrine opens (and folders), not the text file.
    h.get_by_label_contains("Open model");
    let folder = dir.path().display().to_string();
    h.get(
        kittest::By::new()
            .role(egui::accesskit::Role::TextInput)
            .value(&folder),
    );
    h.get_by_label_contains("more");
    assert!(
        h.query_by_label_contains("notes.txt").is_none(),
        "the models filter hides notes.txt"
    );
    // Said once: what to install for the system's dialogs.
    assert!(shows_text(&h, FALLBACK_NOTICE), "the notice is shown");

    h.get_by_label_contains("cube.pie").click();
    h.run_steps(2);
    h.get_by_label("Open").click();
    h.run_steps(6);
    assert!(!h.state().dialogs.is_open(), "the picker closed");
    assert!(
        h.query_by_label_contains("Open model").is_none(),
        "the picker is no longer drawn"
    );
    let doc = h
        .state()
        .state
        .document
        .open
        .as_ref()
        .expect("a model is open");
    assert_eq!(doc.file_name(), "cube.pie");
    assert!(h.state().state.document.load_error.is_none());
}

/// The picker alone, as the shell draws it, keeping what it answers.
struct PickerOnly {
    dialogs: Dialogs,
    answers: Vec<AppCommand>,
}

/// Runs `effect`'s dialog in the picker, clicks `button`, and returns the command.
fn pick(effect: vitrine::app::commands::Effect, button: &str) -> Option<AppCommand> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1100.0, 800.0))
        .build_ui_state(
            |ui, p: &mut PickerOnly| {
                p.dialogs.ui(ui.ctx());
                p.answers.extend(p.dialogs.poll());
            },
            PickerOnly {
                dialogs: Dialogs::with_backend(Backend::Fallback),
                answers: Vec::new(),
            },
        );
    vitrine::desktop::window::fonts::install(&h.ctx);
    let ctx = h.ctx.clone();
    assert!(h.state_mut().dialogs.perform(&ctx, effect).is_none());
    h.run_steps(3);
    assert!(h.state().dialogs.is_open());
    h.get_by_label(button).click();
    h.run_steps(3);
    assert!(!h.state().dialogs.is_open(), "{button} closes the picker");
    let answers = std::mem::take(&mut h.state_mut().answers);
    assert!(answers.len() <= 1, "{answers:?}");
    answers.into_iter().next()
}

#[test]
fn save_and_folder_dialogs_without_a_system_dialog_answer_through_vitrines_picker() {
    use vitrine::app::commands::Effect;
    let dir = models_folder();
    let d = dir.path().to_path_buf();

    // glTF export: the suggested name in the remembered folder; a name without an
    // extension gets `.glb`, as with the system dialog.
    match pick(
        Effect::PickExportPath(Some(d.clone()), "tank".into()),
        "Save",
    ) {
        Some(AppCommand::Gltf(GltfCommand::Export(path))) => assert_eq!(path, d.join("tank.glb")),
        other => panic!("glTF export answered {other:?}"),
    }
    // PIE export: the suggested file, in its folder.
    match pick(Effect::PickPiePath(d.join("cube_out.pie")), "Save") {
        Some(AppCommand::ExportPie(vitrine::app::dialogs::export_pie::PieCommand::SetOutput(
            path,
        ))) => assert_eq!(path, d.join("cube_out.pie")),
        other => panic!("PIE export answered {other:?}"),
    }
    // Open folder: the folder the picker shows.
    match pick(Effect::PickGalleryFolder(Some(d.clone())), "Open") {
        Some(AppCommand::Gallery(vitrine::app::gallery::GalleryCommand::OpenSource(src))) => {
            assert_eq!(src, vitrine::files::FileRef::Disk(d.clone()))
        }
        other => panic!("Open folder answered {other:?}"),
    }
    // Cancel answers nothing and closes the picker.
    assert!(
        pick(
            Effect::PickScreenshotFolder(Some(PathBuf::from(&d))),
            "Cancel"
        )
        .is_none()
    );
}
