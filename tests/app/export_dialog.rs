//! The Export animation dialog driven through egui_kittest with the real layout and
//! command handling; exports run on the worker thread with a headless GPU (marked
//! `#[vitrine_test(gpu)]`: ignored where the build found no adapter).

use crate::animation_support;
use crate::app_support;
use crate::common;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use vitrine::app::commands::{AppCommand, DocumentCommand, Effect};
use vitrine::app::dialogs::export_animation::{AnimationOptions, ExportCommand, Source, start};
use vitrine::app::dispatch::apply;
use vitrine::app::settings::Settings;
use vitrine::app::state::AppState;
use vitrine::export::animation::Format;
use vitrine::render::Gpu;
use vitrine_test_needs::vitrine_test;

/// The window's state, the GPU exports run on, and the effects the window would perform.
struct World {
    state: AppState,
    gpu: Gpu,
    effects: Vec<Effect>,
}

/// One frame as the window shell runs it ([`app_support::run_frame`]); an export effect
/// then starts the worker thread, as the shell's would.
fn frame(ui: &mut egui::Ui, w: &mut World) {
    let effects = app_support::run_frame(ui, &mut w.state, |ui, _| {
        let rect = ui.available_rect_before_wrap();
        ui.allocate_rect(rect, egui::Sense::hover());
        Vec::new()
    });
    for effect in effects {
        match effect {
            Effect::ExportAnimation(job) => {
                let (d, q) = (w.gpu.device.clone(), w.gpu.queue.clone());
                start(
                    &mut w.state.services,
                    &mut w.state.dialogs.running_export,
                    d,
                    q,
                    *job,
                    || {},
                );
            }
            e => w.effects.push(e),
        }
    }
}

/// The window on the animated fixture, exports going to `folder`.
fn harness(folder: PathBuf, options: AnimationOptions) -> Harness<'static, World> {
    let gpu = crate::common::gpu();
    let settings = Settings {
        screenshot_folder: Some(folder),
        animation: options,
        ..Settings::default()
    };
    let mut state = AppState::new(settings, vitrine::desktop::window::DesktopHost::new(None));
    apply(
        &mut state,
        AppCommand::Document(DocumentCommand::Open(vitrine::files::FileRef::Disk(
            common::fixtures().join("pie/animobject_hidden.pie"),
        ))),
    );
    assert!(state.document.open.is_some());
    let world = World {
        state,
        gpu,
        effects: Vec::new(),
    };
    Harness::builder()
        .with_size(egui::vec2(1100.0, 800.0))
        .build_ui_state(frame, world)
}

/// Steps the window until the export has ended (at most two minutes).
fn wait_for_export(h: &mut Harness<'static, World>) {
    let start = Instant::now();
    while h.state().state.dialogs.running_export.is_some() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the export never ended"
        );
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    h.run_steps(2);
}

#[vitrine_test(gpu)]
fn export_a_gif_from_the_dialog() {
    let dir_guard = app_support::temp_dir("export-gif");
    let dir = dir_guard.path().to_path_buf();
    let options = AnimationOptions {
        format: Format::Apng,
        ..AnimationOptions::default()
    };
    let mut h = harness(dir.clone(), options);
    h.run();
    // Ctrl+Shift+E opens it, with the clip selected (the model has one).
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::E,
    );
    h.run();
    h.get_by_label("Export animation");
    let dialog = h
        .state()
        .state
        .dialogs
        .animation
        .clone()
        .expect("the dialog is open");
    assert_eq!(dialog.options.source, Source::Clip);
    assert!(
        dialog.output.ends_with("animobject_hidden.apng"),
        "{}",
        dialog.output
    );
    h.get_by_label_contains("3 frames at 4 fps, 0.75 s");

    // Pick GIF: the file name follows. Then the smallest size preset, and Export.
    h.get_by_label("GIF").click();
    h.run();
    let output = h
        .state()
        .state
        .dialogs
        .animation
        .as_ref()
        .unwrap()
        .output
        .clone();
    assert!(output.ends_with("animobject_hidden.gif"), "{output}");
    h.get_by_label("256²").click();
    h.run();
    h.get_by_label("Export").click();
    h.run_steps(2);
    assert!(
        h.state().state.dialogs.animation.is_none(),
        "the dialog closes"
    );
    wait_for_export(&mut h);

    // The toast names the file and its size, with a button to its folder.
    let gif = dir.join("animobject_hidden.gif");
    h.get_by_label_contains(&format!("Exported {}", gif.display()));
    h.get_by_label_contains("MB, 3 frames, 256×256, 0.75 s");
    h.get_by_label("Open folder").click();
    h.run_steps(2);
    assert_eq!(h.state().effects, [Effect::OpenFolder(dir.clone())]);
    let d = animation_support::decode(&gif);
    assert_eq!(d.frames.len(), 3);
    assert_eq!(d.frames[0].dimensions(), (256, 256));
    // The dialog's choices are kept for next time.
    let kept = &h.state().state.services.settings.animation;
    assert_eq!((kept.format, kept.size), (Format::Gif, [256, 256]));
    assert_eq!(kept.folder.as_deref(), Some(dir.as_path()));
}

#[vitrine_test(gpu)]
fn cancel_from_the_progress_window_leaves_nothing() {
    let dir_guard = app_support::temp_dir("export-cancel");
    let dir = dir_guard.path().to_path_buf();
    let options = AnimationOptions {
        source: Source::Turntable,
        turntable_seconds: 4.0,
        format: Format::Apng,
        size: [256, 256],
        ..AnimationOptions::default()
    };
    let mut h = harness(dir.clone(), options);
    h.run();
    h.state_mut().state.dialogs.animation = None;
    apply(
        &mut h.state_mut().state,
        AppCommand::Export(ExportCommand::Show),
    );
    h.run();
    h.get_by_label_contains("100 frames at 25 fps");
    h.get_by_label("Export").click();
    h.run_steps(2);
    // The progress window counts frames while the window keeps drawing.
    let start = Instant::now();
    while h
        .state()
        .state
        .dialogs
        .running_export
        .as_ref()
        .unwrap()
        .progress
        .get()
        .0
        < 2
    {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.get_by_label("Exporting animation");
    h.get_by_label_contains("/ 100 frames");
    h.get_by_label("Cancel export").click();
    wait_for_export(&mut h);
    h.get_by_label_contains("cancelled; nothing was written");
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "the cancelled export left a file"
    );
}
