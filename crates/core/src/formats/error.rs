//! The one load error type: what went wrong, where, in which file.

use crate::model::Location;
use std::fmt;

/// Category of a load failure; the UI and the tests act on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Zero-byte file.
    EmptyFile,
    /// Magic or header is not this format.
    BadMagic,
    /// A version this viewer does not read.
    UnsupportedVersion,
    /// A format or feature not supported.
    Unsupported,
    /// Text that does not follow the grammar.
    Syntax,
    /// A number that does not parse or makes no sense.
    BadValue,
    /// A NaN or infinite float.
    NonFiniteFloat,
    /// The data ends inside a record.
    Truncated,
    /// A count larger than the remaining input can hold.
    CountTooLarge,
    /// A binary section claims more bytes than the file has.
    SectionPastEof,
    /// An index past the end of what it indexes.
    IndexOutOfRange,
    /// A hierarchy with a cycle.
    BoneCycle,
    /// Text that is not valid in the file's encoding.
    Encoding,
    /// A block that is opened and never closed.
    UnterminatedBlock,
    /// A required block or field is missing.
    Missing,
    /// The model breaks a rule of the format (a limit, an ordering).
    Invalid,
    /// The file could not be read.
    Io,
}

/// A failed load: `file:line: message` or `file @0x1a4: message`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct LoadError {
    /// Category.
    pub kind: ErrorKind,
    /// File name (set by `LoadError::in_file`).
    pub file: Option<String>,
    /// Where in the file.
    pub location: Location,
    /// What was being read and what was wrong.
    pub message: String,
    /// The `vitrine check` rule this refusal is an instance of (`"pie/version"`), when
    /// the loader knows which game rule the input breaks.
    pub rule: Option<&'static str>,
}

impl LoadError {
    /// An error not yet tied to a file name.
    pub fn new(kind: ErrorKind, location: Location, message: impl Into<String>) -> Self {
        LoadError {
            kind,
            file: None,
            location,
            message: message.into(),
            rule: None,
        }
    }

    /// The same error, tagged as an instance of the check rule `rule`.
    pub(crate) fn with_rule(mut self, rule: &'static str) -> Self {
        self.rule = Some(rule);
        self
    }

    /// The same error, naming `file` (keeps a name set earlier).
    pub(crate) fn in_file(mut self, file: &str) -> Self {
        if self.file.is_none() {
            self.file = Some(file.to_string());
        }
        self
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.as_deref().unwrap_or("<input>");
        write!(f, "{file}{}: {}", self.location, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_and_place() {
        let e = LoadError::new(
            ErrorKind::IndexOutOfRange,
            Location::Line(37),
            "polygon 12 uses point 52, but POINTS declared 40",
        )
        .in_file("blbhq.pie");
        assert_eq!(
            e.to_string(),
            "blbhq.pie:37: polygon 12 uses point 52, but POINTS declared 40"
        );
        let e = LoadError::new(ErrorKind::Truncated, Location::Offset(0x1a4), "x").in_file("a.pet");
        assert_eq!(e.to_string(), "a.pet @0x1a4: x");
    }
}
