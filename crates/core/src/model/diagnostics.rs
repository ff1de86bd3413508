//! Warnings with the place in the file they refer to.

use std::fmt;

/// A place in a file: a 1-based line for text formats, a byte offset for binary ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Location {
    /// The file as a whole.
    #[default]
    File,
    /// 1-based line number.
    Line(u32),
    /// Byte offset from the start of the file.
    Offset(u64),
}

impl fmt::Display for Location {
    /// `:37` for a line, ` @0x1a4` for an offset, nothing for the whole file, so that
    /// `format!("{file}{location}: {message}")` reads `blbhq.pie:37: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File => Ok(()),
            Location::Line(l) => write!(f, ":{l}"),
            Location::Offset(o) => write!(f, " @0x{o:x}"),
        }
    }
}

/// A non-fatal problem found while loading.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Where it is.
    pub location: Location,
    /// What it is.
    pub message: String,
    /// The `vitrine check` rule this is an instance of (`"pie/normals-count"`), when the
    /// loader knows; the checker gives it a level and an explanation.
    pub rule: Option<&'static str>,
}

impl Diagnostic {
    /// A warning.
    pub fn warning(location: Location, message: impl Into<String>) -> Self {
        Diagnostic {
            location,
            message: message.into(),
            rule: None,
        }
    }

    /// A warning that is an instance of the check rule `rule`.
    pub(crate) fn coded(
        rule: &'static str,
        location: Location,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            location,
            message: message.into(),
            rule: Some(rule),
        }
    }

    /// `file:line: message` (or `file @0x1a: message`).
    pub fn display_with(&self, file: &str) -> String {
        format!("{file}{}: {}", self.location, self.message)
    }
}
