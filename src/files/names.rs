//! Output file names made from names a package or a mod chose (a level's, a template's,
//! a package's): one rule for every command that writes a file per name (`render
//! --all-maps`, `render --all-templates`, `maptools package genpreview` of a folder,
//! `publish`'s thumbnails).
//!
//! A name is made safe ([`safe_stem`]) and then unique among the batch's ([`UniqueNames`]):
//! two names that make the same file (`a/b` and `a_b`, `Rush` and `rush` on a file system
//! that ignores case) never write over each other; the later one gets `-2`, `-3`… and a
//! note says so. Not a goal: keeping names unique across runs (a second run into the same
//! folder replaces the first run's pictures, as it is meant to).

use std::collections::HashMap;

/// The longest stem [`safe_stem`] keeps, in bytes: room below the 255 bytes most file
/// systems allow for the `-N` suffix, the extension and the temporary name an atomic
/// write uses (`.NAME.XXXXXX.tmp`).
pub const MAX_STEM_BYTES: usize = 120;

/// Windows' device names, which name a device in any folder and with any extension
/// (`CON.png` is the console).
const DEVICES: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// `name` as a file name's stem on every system: ASCII letters, digits, `-`, `_` and `.`
/// kept, anything else (`/`, `\`, `:`, spaces, control characters, non-ASCII) `_`; no
/// leading `.` (a hidden file, or `..`); at most [`MAX_STEM_BYTES`]; a Windows device
/// name (`CON`, `nul`, `COM1`) gets `_` after it; `fallback` where nothing is left.
pub fn safe_stem(name: &str, fallback: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(MAX_STEM_BYTES)
        .collect();
    if s.starts_with('.') {
        s.replace_range(..1, "_");
    }
    if s.trim_matches(['.', '_']).is_empty() {
        return fallback.to_string();
    }
    let device = s.split('.').next().unwrap_or_default();
    if DEVICES.iter().any(|d| d.eq_ignore_ascii_case(device)) {
        s.insert(device.len(), '_');
    }
    s
}

/// The file names of one batch, each once whatever the case (one folder on every file
/// system): what each name was taken for, to say so when a later one must differ.
#[derive(Debug, Default)]
pub struct UniqueNames {
    /// Each file name given, lower-cased, and the name it was given for.
    taken: HashMap<String, String>,
}

/// A file name [`UniqueNames::take`] gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The file name (`a_b-2.png`).
    pub file: String,
    /// Where the name had to get a suffix: what to tell the user (`a_b.png is "a/b"'s`).
    pub note: Option<String>,
}

impl UniqueNames {
    /// No name taken yet.
    pub fn new() -> UniqueNames {
        UniqueNames::default()
    }

    /// The file name for `name` with extension `ext` (`png`): its [`safe_stem`] (or
    /// `fallback`), with `-2`, `-3`… where another name of the batch has that file (any
    /// case), and then a note naming both.
    pub fn take(&mut self, name: &str, ext: &str, fallback: &str) -> Named {
        let stem = safe_stem(name, fallback);
        let first = format!("{stem}.{ext}");
        let mut file = first.clone();
        let mut n = 1;
        while self.taken.contains_key(&file.to_ascii_lowercase()) {
            n += 1;
            file = format!("{stem}-{n}.{ext}");
        }
        let note = (n > 1).then(|| {
            let owner = self
                .taken
                .get(&first.to_ascii_lowercase())
                .cloned()
                .unwrap_or_default();
            format!("{name:?} is written to {file}: {first} is {owner:?}'s")
        });
        self.taken
            .insert(file.to_ascii_lowercase(), name.to_string());
        Named { file, note }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_safe_stems() {
        for (name, want) in [
            ("Sk-Rush", "Sk-Rush"),
            ("a/b c", "a_b_c"),
            ("..", "map"),
            ("../../etc/passwd", "_._.._etc_passwd"),
            (".hidden", "_hidden"),
            ("C:\\x", "C__x"),
            ("CON", "CON_"),
            ("nul.txt", "nul_.txt"),
            ("com1", "com1_"),
            ("CONSOLE", "CONSOLE"),
            ("", "map"),
            ("\u{1b}]0;x\u{7}", "__0_x_"),
            ("Éa", "_a"),
        ] {
            assert_eq!(safe_stem(name, "map"), want, "{name:?}");
        }
        let long = "x".repeat(1000);
        assert_eq!(safe_stem(&long, "map").len(), MAX_STEM_BYTES);
    }

    #[test]
    fn a_name_two_levels_make_gets_a_suffix_and_a_note() {
        let mut names = UniqueNames::new();
        let got: Vec<Named> = ["a/b", "a_b", "A_B", "a_b-2", "Rush"]
            .iter()
            .map(|n| names.take(n, "png", "map"))
            .collect();
        let files: Vec<&str> = got.iter().map(|n| n.file.as_str()).collect();
        assert_eq!(
            files,
            [
                "a_b.png",
                "a_b-2.png",
                "A_B-3.png",
                "a_b-2-2.png",
                "Rush.png"
            ]
        );
        assert_eq!(got[0].note, None);
        assert_eq!(
            got[1].note.as_deref(),
            Some("\"a_b\" is written to a_b-2.png: a_b.png is \"a/b\"'s")
        );
        assert!(
            got[3]
                .note
                .as_deref()
                .unwrap()
                .contains("a_b-2.png is \"a_b\"'s")
        );
        assert_eq!(got[4].note, None);
    }
}
