//! The Export animation window and the progress window of a running export.

use super::{AnimationDialog, ExportCommand, RunningExport, Source, with_format};
use crate::commands::AppCommand;
use crate::document::Document;
use crate::export::animation::{Format, FramePlan, MAX_FPS, MAX_SIDE, MAX_TURNTABLE_SECONDS};

/// Size presets offered.
const PRESETS: [[u32; 2]; 4] = [[256, 256], [512, 512], [800, 600], [1024, 1024]];

fn cmd(c: ExportCommand) -> AppCommand {
    AppCommand::Export(c)
}

/// The Export animation window; edits `d` in place and returns its commands.
/// `plan` is what the current settings give (frame count, rate), or why they cannot.
pub fn dialog_ui(
    ctx: &egui::Context,
    d: &mut AnimationDialog,
    doc: &Document,
    plan: Result<FramePlan, String>,
    busy: bool,
) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let mut open = true;
    egui::Window::new("Export animation")
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            source_ui(ui, d, doc);
            ui.separator();
            picture_ui(ui, d);
            ui.separator();
            format_ui(ui, d);
            ui.separator();
            ui.horizontal(|ui| {
                let l = ui.label("Save as");
                ui.add(egui::TextEdit::singleline(&mut d.output).desired_width(300.0))
                    .labelled_by(l.id);
                if ui.button("Browse…").clicked() {
                    out.push(cmd(ExportCommand::Browse));
                }
            });
            let ok = match &plan {
                Ok(p) => {
                    let [w, h] = d.options.size;
                    ui.weak(format!(
                        "{} frames at {} fps, {:.2} s, {w}×{h}{}",
                        p.count,
                        fps_text(p.fps),
                        p.duration(),
                        if d.options.crop { ", then cropped" } else { "" }
                    ));
                    true
                }
                Err(e) => {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                    false
                }
            };
            ui.horizontal(|ui| {
                let export = ui
                    .add_enabled(ok && !busy, egui::Button::new("Export"))
                    .on_disabled_hover_text(if busy {
                        "An export is running"
                    } else {
                        "These settings cannot be exported"
                    });
                if export.clicked() {
                    out.push(cmd(ExportCommand::Export));
                }
                if ui.button("Cancel").clicked() {
                    out.push(cmd(ExportCommand::Close));
                }
            });
        });
    if !open {
        out.push(cmd(ExportCommand::Close));
    }
    out
}

/// `16.67`, `25`.
fn fps_text(fps: f32) -> String {
    let s = format!("{fps:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Clip / range / turntable, and the frame rate.
fn source_ui(ui: &mut egui::Ui, d: &mut AnimationDialog, doc: &Document) {
    let o = &mut d.options;
    let model = &doc.model;
    let clip = doc.playback.clip(model);
    ui.strong("What");
    ui.add_enabled_ui(clip.is_some(), |ui| {
        let clip_text = match clip {
            Some(c) => format!("Clip {:?} once through ({} frames)", c.name, c.frame_count),
            None => "Clip once through (this model has no animation)".into(),
        };
        ui.radio_value(&mut o.source, Source::Clip, clip_text);
        let range_text = match doc.playback.span(model) {
            Some(s) => format!(
                "The range playing: frames {}–{}",
                s.first_frame, s.last_frame
            ),
            None => "The range playing".into(),
        };
        ui.radio_value(&mut o.source, Source::Range, range_text)
            .on_hover_text("The motion picked in the timeline's clip list, else the whole clip");
    });
    ui.horizontal(|ui| {
        ui.radio_value(&mut o.source, Source::Turntable, "Turntable: one turn in");
        ui.add(
            egui::DragValue::new(&mut o.turntable_seconds)
                .range(0.5..=MAX_TURNTABLE_SECONDS)
                .speed(0.1)
                .suffix(" s"),
        )
        .on_hover_text("Seconds for the camera to orbit 360° from the current view");
    });
    if o.source == Source::Turntable {
        ui.add_enabled(
            clip.is_some(),
            egui::Checkbox::new(&mut o.turntable_plays_clip, "Play the clip while turning"),
        );
    }
    ui.horizontal(|ui| {
        let own = clip.map_or("25 fps".to_string(), |c| format!("{} fps", fps_text(c.fps)));
        ui.checkbox(&mut o.own_fps, format!("Clip's own frame rate ({own})"));
        if !o.own_fps {
            let l = ui.label("Frame rate");
            ui.add(
                egui::DragValue::new(&mut o.fps)
                    .range(1.0..=MAX_FPS)
                    .speed(0.5)
                    .suffix(" fps"),
            )
            .labelled_by(l.id)
            .on_hover_text(
                "At most 50: GIF delays are in 1/100 s and browsers slow anything faster",
            );
        }
    });
}

/// Size, background, crop, overlays, framing.
fn picture_ui(ui: &mut egui::Ui, d: &mut AnimationDialog) {
    let o = &mut d.options;
    ui.strong("Picture");
    ui.horizontal(|ui| {
        for [w, h] in PRESETS {
            let label = if w == h {
                format!("{w}²")
            } else {
                format!("{w}×{h}")
            };
            if ui.selectable_label(o.size == [w, h], label).clicked() {
                o.size = [w, h];
            }
        }
    });
    ui.horizontal(|ui| {
        let l = ui.label("Width");
        ui.add(
            egui::DragValue::new(&mut o.size[0])
                .range(16..=MAX_SIDE)
                .suffix(" px"),
        )
        .labelled_by(l.id);
        let l = ui.label("Height");
        ui.add(
            egui::DragValue::new(&mut o.size[1])
                .range(16..=MAX_SIDE)
                .suffix(" px"),
        )
        .labelled_by(l.id);
    });
    ui.horizontal(|ui| {
        ui.label("Background");
        ui.radio_value(&mut o.transparent, false, "View colour");
        ui.radio_value(&mut o.transparent, true, "Transparent");
    });
    ui.horizontal(|ui| {
        ui.checkbox(&mut o.crop, "Crop to content")
            .on_hover_text("One box around the model over all frames, so it does not jump");
        if o.crop {
            let l = ui.label("Margin");
            ui.add(
                egui::DragValue::new(&mut o.margin)
                    .range(0..=512)
                    .suffix(" px"),
            )
            .labelled_by(l.id);
        }
    });
    ui.checkbox(&mut o.fit, "Frame the model to fit the picture")
        .on_hover_text("Off: the view's camera exactly as it is");
    ui.checkbox(
        &mut o.overlays,
        "Show overlays and selection (as in the view)",
    );
}

/// Format and its settings.
fn format_ui(ui: &mut egui::Ui, d: &mut AnimationDialog) {
    ui.strong("Format");
    let before = d.options.format;
    ui.horizontal(|ui| {
        for f in Format::ALL {
            ui.add_enabled_ui(f.available(), |ui| {
                ui.radio_value(&mut d.options.format, f, f.label())
                    .on_disabled_hover_text(f.unavailable().unwrap_or_default());
            });
        }
    });
    // Why the greyed-out formats are (the chosen one's reason shows below, in red).
    for f in Format::ALL {
        if let Some(why) = f.unavailable().filter(|_| f != d.options.format) {
            ui.weak(why);
        }
    }
    if d.options.format != before {
        d.output = with_format(&d.output, d.options.format);
    }
    let o = &mut d.options;
    match o.format {
        Format::Gif => {
            ui.checkbox(&mut o.dither, "Dither (smooth shading, larger file)");
            if o.transparent {
                ui.horizontal(|ui| {
                    ui.label("Edges blended over").on_hover_text(
                        "GIF has on/off transparency: half-covered edge pixels are blended \
                         over the colour of the page the GIF will be shown on",
                    );
                    ui.color_edit_button_srgb(&mut o.matte);
                });
            }
        }
        f if !f.available() => {
            ui.colored_label(
                ui.visuals().error_fg_color,
                f.unavailable().unwrap_or_default(),
            );
        }
        Format::Webp => {
            ui.horizontal(|ui| {
                ui.checkbox(&mut o.webp_lossless, "Lossless");
                if !o.webp_lossless {
                    ui.add(egui::Slider::new(&mut o.webp_quality, 0.0..=100.0).text("Quality"));
                }
            });
        }
        Format::Apng | Format::PngSequence => {}
    }
    if o.format == Format::PngSequence {
        ui.weak("One PNG per frame: name_0001.png, name_0002.png, … (or {n} in the name)");
    } else {
        ui.horizontal(|ui| {
            let mut forever = o.loops == 0;
            ui.checkbox(&mut forever, "Loop forever");
            if !forever {
                o.loops = o.loops.max(1);
                let l = ui.label("Plays");
                ui.add(
                    egui::DragValue::new(&mut o.loops)
                        .range(1..=1000)
                        .suffix(" times"),
                )
                .labelled_by(l.id);
            } else {
                o.loops = 0;
            }
        });
    }
}

/// The progress window of a running export: frames done / total and Cancel.
pub fn progress_ui(ctx: &egui::Context, run: &RunningExport) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let (done, total) = run.progress.get();
    let cancelled = run.progress.is_cancelled();
    egui::Window::new("Exporting animation")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-12.0, -60.0))
        .show(ctx, |ui| {
            ui.label(run.output.display().to_string());
            let fraction = if total > 0 {
                done as f32 / total as f32
            } else {
                0.0
            };
            let text = if total == 0 {
                "Preparing…".to_string()
            } else {
                format!("{done} / {total} frames")
            };
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(280.0)
                    .text(text),
            );
            if ui
                .add_enabled(!cancelled, egui::Button::new("Cancel export"))
                .clicked()
            {
                out.push(cmd(ExportCommand::Cancel));
            }
        });
    // Keep the bar moving.
    ctx.request_repaint_after(std::time::Duration::from_millis(100));
    out
}
