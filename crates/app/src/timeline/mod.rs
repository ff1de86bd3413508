//! The timeline: a full-width bar along the bottom of the window, shown when the model
//! has an animation (or PIE event models).
//!
//! Top row: the event-model selector (PIE: base / active / firing / dying), the clip
//! selector (each clip, and each motion of a clip as a range of it), first / previous /
//! play-pause / next / last, speed 0.1×–4×, loop / once / ping-pong, and the readout
//! (time and frame / frame count). Below: the scrubber over the whole clip, with motion
//! ranges as bands, the author's keyframes as ticks, event markers (hover: their text)
//! and the playhead. The scrubber can be dragged while playing; playback continues from
//! where it is let go.
//!
//! Keys (unless a text field has the focus): Space play / pause, ← / → one frame,
//! Home / End first / last frame.
//!
//! Like the other panels it reads [`AppState`] and returns commands; [`apply`] and
//! [`tick`] are the only places playback changes, and both sample the pose again.

pub mod event_models;
pub mod playback;

use super::commands::{AppCommand, DocumentCommand};
use super::document::Document;
use super::state::AppState;
use super::timeline::event_models::event_label;
use super::timeline::playback::{LoopMode, MAX_SPEED, MIN_SPEED, Span, TimelineCommand};
use crate::model::{Clip, Model};

/// Height of the scrubber bar, points.
const BAR_HEIGHT: f32 = 30.0;
/// Colour of event markers.
const MARKER: egui::Color32 = egui::Color32::from_rgb(250, 190, 60);
/// Colour of the playhead.
const PLAYHEAD: egui::Color32 = egui::Color32::from_rgb(235, 80, 70);
/// Colour of "missing" marks.
const MISSING: egui::Color32 = egui::Color32::from_rgb(230, 90, 80);
/// Longest frame time taken into one playback step (a stalled window does not jump).
const MAX_STEP: f32 = 0.1;

/// Whether the timeline is shown: the open model has a clip or PIE event models.
pub fn wanted(state: &AppState) -> bool {
    state
        .document
        .open
        .as_ref()
        .is_some_and(|d| !d.model.clips.is_empty() || !d.base_model().events.is_empty())
}

/// Carries out `cmd` on the open document's playback and samples the pose again with
/// team colour `team`.
pub fn apply(document: Option<&mut Document>, team: usize, cmd: TimelineCommand) {
    if let Some(doc) = document {
        doc.playback.apply(&doc.model, cmd);
        doc.resample(team);
    }
}

/// Advances playback by `dt` seconds (capped at 0.1 s) and samples the pose at the new
/// time; called once per frame. Returns whether it is playing (the window must then
/// draw again).
pub fn tick(state: &mut AppState, dt: f32) -> bool {
    let team = state.view_settings().team;
    let Some(doc) = &mut state.document.open else {
        return false;
    };
    doc.playback.advance(&doc.model, dt.min(MAX_STEP));
    doc.resample(team);
    doc.playback.playing
}

/// The timeline's keys, consumed unless a text field has the focus; on a map (`map`)
/// the arrows are the game camera's ([`crate::game_camera`]), not frame steps.
fn keys(ctx: &egui::Context, map: bool) -> Vec<TimelineCommand> {
    if ctx.text_edit_focused() {
        return Vec::new();
    }
    let mut out = Vec::new();
    ctx.input_mut(|i| {
        let none = egui::Modifiers::NONE;
        for (key, cmd, _) in timeline_keys() {
            let arrow = matches!(key, egui::Key::ArrowLeft | egui::Key::ArrowRight);
            if map && arrow {
                continue;
            }
            while i.consume_key(none, key) {
                out.push(cmd.clone());
            }
        }
    });
    out
}

/// The timeline's keys (no modifier), for its input and the Help window.
pub fn timeline_keys() -> [(egui::Key, TimelineCommand, &'static str); 5] {
    [
        (egui::Key::Space, TimelineCommand::PlayPause, "Play / pause"),
        (
            egui::Key::ArrowLeft,
            TimelineCommand::Step(-1),
            "Previous frame",
        ),
        (
            egui::Key::ArrowRight,
            TimelineCommand::Step(1),
            "Next frame",
        ),
        (egui::Key::Home, TimelineCommand::First, "First frame"),
        (egui::Key::End, TimelineCommand::Last, "Last frame"),
    ]
}

/// The timeline's contents (the caller puts them in a bottom [`egui::Panel`]).
pub fn timeline_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let Some(doc) = &state.document.open else {
        return Vec::new();
    };
    let mut cmds = Vec::new();
    let model = &doc.model;
    let span = doc.playback.span(model);
    if span.is_some() {
        cmds.extend(keys(ui.ctx(), doc.map().is_some()));
    }
    let mut out = Vec::new();
    ui.horizontal_wrapped(|ui| {
        if !doc.base_model().events.is_empty() {
            out.extend(event_selector_ui(ui, doc));
            ui.separator();
        }
        if model.clips.is_empty() {
            ui.weak(if doc.base_model().events.is_empty() {
                "This model has no animation."
            } else {
                "No animation of its own: pick an event model to see it play."
            });
            return;
        }
        clip_selector_ui(ui, doc, &mut cmds);
        ui.separator();
        transport_ui(ui, doc, &mut cmds);
        if icon_button_ui(ui, Icon::Record, "Export animation… (Ctrl+Shift+E)").clicked() {
            out.push(AppCommand::Export(
                super::dialogs::export_animation::state::ExportCommand::Show,
            ));
        }
        if let Some(span) = span {
            ui.separator();
            readout_ui(ui, doc, span);
        }
        ui.separator();
        egui::ComboBox::from_label("At the end")
            .selected_text(doc.playback.mode.label())
            .width(90.0)
            .show_ui(ui, |ui| {
                for mode in LoopMode::ALL {
                    if ui
                        .selectable_label(doc.playback.mode == mode, mode.label())
                        .clicked()
                    {
                        cmds.push(TimelineCommand::SetMode(mode));
                    }
                }
            });
        ui.separator();
        ui.spacing_mut().slider_width = 70.0;
        let mut speed = doc.playback.speed;
        let r = ui.add(
            egui::Slider::new(&mut speed, MIN_SPEED..=MAX_SPEED)
                .logarithmic(true)
                .max_decimals(2)
                .suffix("×")
                .text("Speed"),
        );
        if r.changed() {
            cmds.push(TimelineCommand::SetSpeed(speed));
        }
        if r.double_clicked() {
            cmds.push(TimelineCommand::SetSpeed(1.0));
        }
    });
    if let (Some(clip), Some(span)) = (doc.playback.clip(model), span) {
        cmds.extend(scrubber_ui(ui, doc, clip, span));
        ui.add_space(2.0);
    }
    out.extend(cmds.into_iter().map(AppCommand::Timeline));
    out
}

/// Base model / active / firing / dying; a missing file is listed, disabled and marked.
fn event_selector_ui(ui: &mut egui::Ui, doc: &Document) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let base = doc.base_model();
    let shown = doc.shown_event();
    let selected = shown.map_or_else(|| "base model".to_string(), |i| event_label(base, i));
    egui::ComboBox::from_label("Model")
        .selected_text(selected)
        .width(140.0)
        .truncate()
        .show_ui(ui, |ui| {
            if ui.selectable_label(shown.is_none(), "base model").clicked() {
                out.push(AppCommand::Document(DocumentCommand::ShowEvent(None)));
            }
            for (i, e) in base.events.iter().enumerate() {
                let label = event_label(base, i);
                let found = e.resolved.is_some();
                let r = ui.add_enabled(
                    found,
                    egui::Button::selectable(shown == Some(i), label.clone()),
                );
                let r = match &e.resolved {
                    Some(p) => r.on_hover_text(p.to_string()),
                    None => r.on_disabled_hover_text(format!(
                        "{} was not found in the model search path",
                        e.file
                    )),
                };
                if r.clicked() {
                    out.push(AppCommand::Document(DocumentCommand::ShowEvent(Some(i))));
                }
            }
        });
    for e in base.events.iter().filter(|e| e.resolved.is_none()) {
        ui.colored_label(
            MISSING,
            format!("{} model {} MISSING", e.kind_name(), e.file),
        )
        .on_hover_text("Not found in the model search path; it cannot be shown.");
    }
    out
}

/// The clip selector: each clip, and under it each of its motions as a range.
fn clip_selector_ui(ui: &mut egui::Ui, doc: &Document, cmds: &mut Vec<TimelineCommand>) {
    let model = &doc.model;
    let p = &doc.playback;
    let selected = match p.clip(model) {
        Some(c) => match p.motion.and_then(|m| c.motions.get(m)) {
            Some(m) => format!("{} / {}", c.name, m.name),
            None => c.name.clone(),
        },
        None => "none".into(),
    };
    egui::ComboBox::from_label("Clip")
        .selected_text(selected)
        .width(150.0)
        .truncate()
        .show_ui(ui, |ui| {
            for (ci, c) in model.clips.iter().enumerate() {
                let whole = p.clip == Some(ci) && p.motion.is_none();
                let text = format!("{} ({} frames)", c.name, c.frame_count);
                if ui.selectable_label(whole, text).clicked() {
                    cmds.push(TimelineCommand::SelectClip {
                        clip: ci,
                        motion: None,
                    });
                }
                for (mi, m) in c.motions.iter().enumerate() {
                    let on = p.clip == Some(ci) && p.motion == Some(mi);
                    let text =
                        format!("    {} / {} (frames {}–{})", c.name, m.name, m.start, m.end);
                    if ui.selectable_label(on, text).clicked() {
                        cmds.push(TimelineCommand::SelectClip {
                            clip: ci,
                            motion: Some(mi),
                        });
                    }
                }
            }
        });
}

/// A transport icon, drawn with shapes (the default fonts lack the media glyphs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Icon {
    First,
    Previous,
    Play,
    Pause,
    Next,
    Last,
    Record,
}

/// First, previous, play / pause, next, last.
fn transport_ui(ui: &mut egui::Ui, doc: &Document, cmds: &mut Vec<TimelineCommand>) {
    let playing = doc.playback.playing;
    let buttons = [
        (Icon::First, "First frame (Home)", TimelineCommand::First),
        (
            Icon::Previous,
            "Previous frame (Left arrow)",
            TimelineCommand::Step(-1),
        ),
        if playing {
            (Icon::Pause, "Pause (Space)", TimelineCommand::PlayPause)
        } else {
            (Icon::Play, "Play (Space)", TimelineCommand::PlayPause)
        },
        (
            Icon::Next,
            "Next frame (Right arrow)",
            TimelineCommand::Step(1),
        ),
        (Icon::Last, "Last frame (End)", TimelineCommand::Last),
    ];
    for (icon, name, cmd) in buttons {
        if icon_button_ui(ui, icon, name).clicked() {
            cmds.push(cmd);
        }
    }
}

/// A button showing `icon`, with `name` as its accessible name and tooltip.
fn icon_button_ui(ui: &mut egui::Ui, icon: Icon, name: &str) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(28.0, 22.0), egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, name));
    let style = ui.style().interact(&response);
    let painter = ui.painter();
    painter.rect(
        rect,
        style.corner_radius,
        style.weak_bg_fill,
        style.bg_stroke,
        egui::StrokeKind::Inside,
    );
    let c = rect.center();
    let colour = style.fg_stroke.color;
    let tri = |dir: f32, x: f32| {
        // A triangle pointing right (dir 1) or left (dir −1) whose point is at c.x + x.
        egui::Shape::convex_polygon(
            vec![
                egui::pos2(c.x + x, c.y),
                egui::pos2(c.x + x - dir * 8.0, c.y - 6.0),
                egui::pos2(c.x + x - dir * 8.0, c.y + 6.0),
            ],
            colour,
            egui::Stroke::NONE,
        )
    };
    let bar = |x: f32| {
        egui::Shape::rect_filled(
            egui::Rect::from_center_size(egui::pos2(c.x + x, c.y), egui::vec2(2.5, 12.0)),
            0.0,
            colour,
        )
    };
    let shapes = match icon {
        Icon::First => vec![bar(-5.0), tri(-1.0, -3.0)],
        Icon::Previous => vec![tri(-1.0, -4.0), bar(5.0)],
        Icon::Play => vec![tri(1.0, 5.0)],
        Icon::Pause => vec![bar(-3.0), bar(3.0)],
        Icon::Next => vec![bar(-5.0), tri(1.0, 4.0)],
        Icon::Last => vec![tri(1.0, 3.0), bar(5.0)],
        Icon::Record => vec![egui::Shape::circle_filled(
            c,
            5.5,
            egui::Color32::from_rgb(220, 60, 50),
        )],
    };
    painter.extend(shapes);
    response.on_hover_text(name)
}

/// `0.27 s / 1.00 s` and `frame 4 / 16`.
fn readout_ui(ui: &mut egui::Ui, doc: &Document, span: Span) {
    let model = &doc.model;
    let Some(clip) = doc.playback.clip(model) else {
        return;
    };
    let t = doc.playback.sample_time(model);
    let frame = doc.playback.frame(model);
    // One group, so that a narrow window wraps it as a whole.
    ui.horizontal(|ui| {
        ui.monospace(format!("{t:.2} s / {:.2} s", clip.duration()));
        ui.monospace(format!("frame {frame} / {}", clip.frame_count))
            .on_hover_text(format!(
                "Frames are numbered from 0; {:.3} fps. Playing frames {}–{}.",
                clip.fps, span.first_frame, span.last_frame
            ));
        if let Some((text, why)) = between_keys_text(clip) {
            ui.monospace(text).on_hover_text(why);
        }
    });
}

/// What the readout says about motion between keys (`blended` / `held`), with its
/// tooltip; `None` for a clip with no node tracks (texture animation only).
pub fn between_keys_text(clip: &Clip) -> Option<(String, &'static str)> {
    let (blending, holding) = clip.between_keys();
    let text = match (blending, holding) {
        (0, 0) => return None,
        (_, 0) => "blended".to_string(),
        (0, _) => "held".to_string(),
        (b, h) => format!("blended on {b} of {}", b + h),
    };
    Some((
        format!("between keys: {text}"),
        "Blended: parts move smoothly from one key to the next (PIE: INTERPOLATE 1, the \
         default). Held: each key is shown until the next one (PIE: INTERPOLATE 0), as \
         the game draws it.",
    ))
}

/// The scrubber over the whole clip: motion bands, keyframe ticks, event markers and
/// the playhead. Click or drag (also while playing) to move the time.
fn scrubber_ui(ui: &mut egui::Ui, doc: &Document, clip: &Clip, span: Span) -> Vec<TimelineCommand> {
    let mut out = Vec::new();
    let model: &Model = &doc.model;
    let width = ui.available_width();
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width, BAR_HEIGHT), egui::Sense::click_and_drag());
    let value = doc.playback.frame(model) as f64;
    response.widget_info(|| egui::WidgetInfo::slider(true, value, "Timeline"));
    // The bar runs from frame 0 to the clip's last frame; margins keep end markers whole.
    let bar = rect.shrink2(egui::vec2(6.0, 0.0));
    let last = clip.frame_count.saturating_sub(1).max(1) as f32;
    let x_of_frame = |f: f32| bar.left() + bar.width() * (f / last).clamp(0.0, 1.0);
    let frame_of_x = |x: f32| ((x - bar.left()) / bar.width()).clamp(0.0, 1.0) * last;

    if let Some(pos) = response.interact_pointer_pos()
        && (response.dragged() || response.clicked() || response.drag_started())
    {
        out.push(TimelineCommand::Seek(clip.frame_time(frame_of_x(pos.x))));
    }

    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(bar, 3.0, visuals.extreme_bg_color);
    // The span being played, and the motions as named bands.
    let played = egui::Rect::from_x_y_ranges(
        x_of_frame(span.first_frame as f32)..=x_of_frame(span.last_frame as f32),
        bar.y_range(),
    );
    painter.rect_filled(played, 3.0, visuals.selection.bg_fill.gamma_multiply(0.35));
    for (i, m) in clip.motions.iter().enumerate() {
        let band = egui::Rect::from_x_y_ranges(
            x_of_frame(m.start as f32)..=x_of_frame(m.end as f32),
            bar.top()..=bar.top() + 12.0,
        );
        let fill = if i % 2 == 0 {
            egui::Color32::from_rgba_unmultiplied(90, 140, 220, 70)
        } else {
            egui::Color32::from_rgba_unmultiplied(140, 90, 220, 70)
        };
        painter.rect_filled(band, 2.0, fill);
        painter.text(
            band.left_top() + egui::vec2(3.0, 0.0),
            egui::Align2::LEFT_TOP,
            &m.name,
            egui::FontId::proportional(10.0),
            visuals.text_color(),
        );
    }
    // Every frame a faint tick (when there is room), the author's keyframes a strong one.
    let text = visuals.weak_text_color();
    if bar.width() / last > 4.0 {
        for f in 0..clip.frame_count {
            let x = x_of_frame(f as f32);
            painter.vline(
                x,
                bar.bottom() - 4.0..=bar.bottom(),
                egui::Stroke::new(1.0, text),
            );
        }
    }
    for &k in &clip.keyframes {
        let x = x_of_frame(k as f32);
        painter.add(egui::Shape::convex_polygon(
            vec![
                egui::pos2(x, bar.bottom() - 9.0),
                egui::pos2(x + 3.5, bar.bottom() - 4.5),
                egui::pos2(x, bar.bottom()),
                egui::pos2(x - 3.5, bar.bottom() - 4.5),
            ],
            visuals.strong_text_color(),
            egui::Stroke::NONE,
        ));
    }
    // Event markers: a flag each, hover for the script / label.
    for (i, e) in clip.events.iter().enumerate() {
        let x = x_of_frame(e.frame as f32);
        let marker = egui::Rect::from_center_size(
            egui::pos2(x, bar.center().y),
            egui::vec2(9.0, bar.height()),
        );
        painter.vline(x, bar.y_range(), egui::Stroke::new(1.5, MARKER));
        painter.add(egui::Shape::convex_polygon(
            vec![
                egui::pos2(x, bar.top()),
                egui::pos2(x + 7.0, bar.top() + 4.0),
                egui::pos2(x, bar.top() + 8.0),
            ],
            MARKER,
            egui::Stroke::NONE,
        ));
        let label = format!("Event at frame {}: {}", e.frame, e.text);
        let r = ui.interact(
            marker,
            ui.scope_id().with(("event marker", i)),
            egui::Sense::hover(),
        );
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
        r.on_hover_text(label);
    }
    // The playhead.
    let f = clip.time_frame(doc.playback.sample_time(model)).min(last);
    let x = x_of_frame(f);
    painter.vline(x, bar.y_range(), egui::Stroke::new(2.0, PLAYHEAD));
    painter.add(egui::Shape::convex_polygon(
        vec![
            egui::pos2(x - 5.0, bar.bottom()),
            egui::pos2(x + 5.0, bar.bottom()),
            egui::pos2(x, bar.bottom() - 6.0),
        ],
        PLAYHEAD,
        egui::Stroke::NONE,
    ));
    out
}
