//! The Messages window's own state ([`MessageLog`]: the session's messages, kept after
//! their toasts are gone, and whether the window is open) and its commands
//! ([`MessagesCommand`]).
//!
//! Toasts reach the log through [`take_toasts`], which the dispatcher calls after each
//! command and each round of finished jobs; failed loads come as
//! [`MessagesCommand::LoadFailed`], a follow-up of the document's life. Each message is
//! stamped with the wall clock ([`web_time::SystemTime`], which works in a browser) when
//! the log takes it. Not kept: a toast's button, and anything from before the session.

use crate::document::LoadFailure;
use crate::effect::Effect;
use crate::toasts::Toasts;
use std::collections::VecDeque;
use web_time::{SystemTime, UNIX_EPOCH};

/// How many messages the log keeps; the oldest goes first.
pub const MAX_MESSAGES: usize = 200;

/// One message of the session.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// When the log took it.
    pub at: SystemTime,
    /// Whether it reports a failure.
    pub error: bool,
    /// The text, as the toast or the load-error banner showed it.
    pub text: String,
}

impl Message {
    /// The message as one line of text (more where the text has several):
    /// `HH:MM:SS UTC  error  text`.
    pub fn line(&self) -> String {
        let kind = if self.error { "error" } else { "info" };
        format!("{} UTC  {kind}  {}", clock_text(self.at), self.text)
    }
}

/// The session's messages (the last [`MAX_MESSAGES`]) and the window's visibility.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MessageLog {
    /// Oldest first.
    entries: VecDeque<Message>,
    /// Whether View ▸ Messages… is open.
    pub open: bool,
}

impl MessageLog {
    /// Adds a message stamped now, dropping the oldest past [`MAX_MESSAGES`].
    pub fn record(&mut self, text: impl Into<String>, error: bool) {
        self.entries.push_back(Message {
            at: SystemTime::now(),
            error,
            text: text.into(),
        });
        while self.entries.len() > MAX_MESSAGES {
            self.entries.pop_front();
        }
    }

    /// The messages, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &Message> {
        self.entries.iter().rev()
    }

    /// How many messages are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no message is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many of the kept messages are errors (the menu item's badge).
    pub fn errors(&self) -> usize {
        self.entries.iter().filter(|m| m.error).count()
    }

    /// Every message as a line ([`Message::line`]), newest first, for the clipboard.
    pub fn text(&self) -> String {
        let lines: Vec<String> = self.newest_first().map(Message::line).collect();
        lines.join("\n")
    }
}

/// A Messages intent.
#[derive(Debug, Clone, PartialEq)]
pub enum MessagesCommand {
    /// Open (`true`) or close the window.
    Show(bool),
    /// Forget every message.
    Clear,
    /// Copy every message to the clipboard.
    CopyAll,
    /// A load failed (the document's life reports it; the banner can be dismissed).
    LoadFailed(LoadFailure),
}

/// Applies `cmd` to the log; Copy all asks the front-end for the clipboard.
pub fn apply(log: &mut MessageLog, cmd: MessagesCommand) -> Option<Effect> {
    match cmd {
        MessagesCommand::Show(open) => log.open = open,
        MessagesCommand::Clear => log.entries.clear(),
        MessagesCommand::CopyAll => return Some(Effect::CopyText(log.text())),
        MessagesCommand::LoadFailed(f) => {
            let text = format!("Could not open {}: {}", f.path.file_name(), f.message);
            log.record(text, true);
        }
    }
    None
}

/// Moves the toasts added since the last call into the log.
pub fn take_toasts(log: &mut MessageLog, toasts: &mut Toasts) {
    for (text, error) in toasts.take_new() {
        log.record(text, error);
    }
}

/// `at` as `HH:MM:SS` in UTC (the app knows no time zone).
pub fn clock_text(at: SystemTime) -> String {
    let secs = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) % 86_400;
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use web_time::Duration;

    #[test]
    fn the_clock_reads_hours_minutes_seconds_of_the_utc_day() {
        for (secs, text) in [
            (0, "00:00:00"),
            (59, "00:00:59"),
            (3_661, "01:01:01"),
            (86_399, "23:59:59"),
            (86_400 + 45_296, "12:34:56"),
        ] {
            let at = UNIX_EPOCH + Duration::from_secs(secs);
            assert_eq!(clock_text(at), text, "{secs} s");
        }
    }

    #[test]
    fn the_log_keeps_the_last_messages_newest_first() {
        let mut log = MessageLog::default();
        for i in 0..MAX_MESSAGES + 5 {
            log.record(format!("m{i}"), i % 2 == 0);
        }
        assert_eq!(log.len(), MAX_MESSAGES);
        let texts: Vec<&str> = log.newest_first().map(|m| m.text.as_str()).collect();
        assert_eq!(texts.first(), Some(&"m204"));
        assert_eq!(texts.last(), Some(&"m5"));
        assert_eq!(log.errors(), MAX_MESSAGES / 2);
    }

    #[test]
    fn toasts_are_taken_once() {
        let (mut log, mut toasts) = (MessageLog::default(), Toasts::default());
        toasts.info("saved");
        toasts.error("failed");
        take_toasts(&mut log, &mut toasts);
        take_toasts(&mut log, &mut toasts);
        let kinds: Vec<(&str, bool)> = log
            .newest_first()
            .map(|m| (m.text.as_str(), m.error))
            .collect();
        assert_eq!(kinds, [("failed", true), ("saved", false)]);
        assert_eq!(toasts.items.len(), 2, "the toasts stay up");
    }
}
