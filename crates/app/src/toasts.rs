//! Short messages shown in the bottom-right corner for a few seconds ("Saved tank-1.png
//! to …", "Could not save settings…"), some with a button ("Open folder"). A button
//! carries the [`Effect`] it asks of the front-end, not a command: the toasts know no
//! part of the app.

use super::effect::Effect;

/// Seconds an info toast stays up.
const INFO_SECONDS: f64 = 6.0;
/// Seconds an error toast stays up.
const ERROR_SECONDS: f64 = 12.0;
/// How many messages wait to be taken ([`Toasts::take_new`]) at most: the session's log
/// keeps no more.
const MAX_NEW: usize = 200;

/// One message.
#[derive(Debug, Clone, PartialEq)]
pub struct Toast {
    /// The text.
    pub text: String,
    /// Whether it reports a failure (red, stays longer).
    pub error: bool,
    /// A button: its label and what the front-end does when it is clicked.
    pub action: Option<(String, Effect)>,
    /// egui time when first shown (`None` until drawn).
    shown_at: Option<f64>,
}

/// The messages currently up, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Toasts {
    /// Messages, oldest first.
    pub items: Vec<Toast>,
    /// Each message added and not yet taken (text, error), oldest first, for the
    /// session's log ([`crate::messages`]); kept apart from `items`, which expire.
    new: Vec<(String, bool)>,
}

impl Toasts {
    /// Adds an informational message.
    pub fn info(&mut self, text: impl Into<String>) {
        self.push(text.into(), false);
    }

    /// Adds an error message.
    pub fn error(&mut self, text: impl Into<String>) {
        self.push(text.into(), true);
    }

    /// Adds an informational message with a button.
    pub fn info_with_action(
        &mut self,
        text: impl Into<String>,
        label: impl Into<String>,
        effect: Effect,
    ) {
        self.push(text.into(), false);
        if let Some(t) = self.items.last_mut() {
            t.action = Some((label.into(), effect));
        }
    }

    /// The messages added since the last call (text, error), oldest first.
    pub fn take_new(&mut self) -> Vec<(String, bool)> {
        std::mem::take(&mut self.new)
    }

    fn push(&mut self, text: String, error: bool) {
        if self.new.len() < MAX_NEW {
            self.new.push((text.clone(), error));
        }
        self.items.push(Toast {
            text,
            error,
            action: None,
            shown_at: None,
        });
        // Keep the corner readable.
        if self.items.len() > 5 {
            self.items.remove(0);
        }
    }

    /// Draws the messages, drops the expired ones and returns the effects of the
    /// buttons clicked.
    pub fn ui(&mut self, ctx: &egui::Context) -> Vec<Effect> {
        let mut out = Vec::new();
        let now = ctx.input(|i| i.time);
        self.items.retain_mut(|t| {
            let start = *t.shown_at.get_or_insert(now);
            // Errors, and messages with a button, stay longer.
            let life = if t.error || t.action.is_some() {
                ERROR_SECONDS
            } else {
                INFO_SECONDS
            };
            now - start < life
        });
        if self.items.is_empty() {
            return out;
        }
        // Wake up again to expire the oldest one.
        ctx.request_repaint_after(std::time::Duration::from_millis(500));
        egui::Area::new(egui::Id::unique("vitrine toasts"))
            .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-12.0, -12.0))
            .order(egui::Order::Foreground)
            .interactable(self.items.iter().any(|t| t.action.is_some()))
            .show(ctx, |ui| {
                ui.set_max_width(460.0);
                for t in &self.items {
                    let (fill, text) = if t.error {
                        (egui::Color32::from_rgb(110, 24, 24), egui::Color32::WHITE)
                    } else {
                        (egui::Color32::from_rgb(30, 60, 40), egui::Color32::WHITE)
                    };
                    egui::Frame::new()
                        .fill(fill)
                        .corner_radius(4.0)
                        .inner_margin(8.0)
                        .show(ui, |ui| {
                            ui.label(egui::RichText::new(&t.text).color(text));
                            if let Some((label, effect)) = &t.action
                                && ui.button(label).clicked()
                            {
                                out.push(effect.clone());
                            }
                        });
                    ui.add_space(4.0);
                }
            });
        out
    }
}
