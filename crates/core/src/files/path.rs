//! [`FileRef`]: a file or folder on disk or inside a zip archive, and the
//! `archive.wz!/path/inside` syntax that names one on the command line.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

/// Separates an archive's path from the path of an entry inside it:
/// `mods/tanks.wz!/components/bodies/drlbod01.pie`.
pub const ARCHIVE_SEPARATOR: &str = "!/";

/// File extensions read as zip archives (Warzone 2100 mods and data, plain zips).
pub const ARCHIVE_EXTENSIONS: &[&str] = &["wz", "zip"];

/// A file or folder Vitrine can read: on disk, or an entry of a zip archive.
///
/// Entry paths use `/`, have no leading `/`, no `.` or `..` components, and keep the
/// archive's own spelling; `""` is the archive's root folder.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FileRef {
    /// A file or folder on disk.
    Disk(PathBuf),
    /// A file or folder inside the zip archive at `archive`.
    Entry {
        /// The archive on disk.
        archive: PathBuf,
        /// The path inside it (`components/bodies/drlbod01.pie`; `""` = the root).
        path: String,
    },
    /// Bytes held inside another file: an image packed in a `.glb`'s binary chunk or in
    /// a glTF buffer, or a `data:` URI's base64 text inside a `.gltf` (then `base64` is
    /// set and reading decodes it). Read through [`super::Files::read`] like any file.
    Embedded {
        /// The file holding the bytes.
        file: Box<FileRef>,
        /// Byte offset of the first byte in `file`.
        offset: u64,
        /// Number of bytes (of base64 text when `base64`).
        len: u64,
        /// The bytes are base64 text to decode.
        base64: bool,
        /// The name shown for it (`page-90-scratch-tank.png`); its extension says the
        /// image format when the bytes do not.
        name: String,
    },
}

/// Whether `path` names a zip archive by its extension.
pub fn is_archive_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ARCHIVE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

impl FileRef {
    /// Reads a command-line or settings path: `a.wz!/x/y.pie` is an entry, `a.wz` (an
    /// archive, if `is_file` says it is a file) is the archive's root folder, anything
    /// else a plain path ([`super::Files::parse`] asks its source).
    pub fn parse_with(arg: &Path, is_file: impl FnOnce(&Path) -> bool) -> FileRef {
        if let Some(s) = arg.to_str() {
            let mut search = 0;
            while let Some(i) = s[search..].find('!').map(|i| i + search) {
                let (archive, rest) = (&s[..i], &s[i + 1..]);
                let archive = Path::new(archive);
                if (rest.starts_with('/') || rest.starts_with('\\') || rest.is_empty())
                    && is_archive_path(archive)
                {
                    return FileRef::Entry {
                        archive: archive.to_path_buf(),
                        path: normalise_entry(rest.trim_start_matches(['/', '\\']))
                            .unwrap_or_default(),
                    };
                }
                search = i + 1;
            }
        }
        if is_archive_path(arg) && is_file(arg) {
            return FileRef::Entry {
                archive: arg.to_path_buf(),
                path: String::new(),
            };
        }
        FileRef::Disk(arg.to_path_buf())
    }

    /// The archive root folder of the archive at `archive`.
    pub fn archive_root(archive: &Path) -> FileRef {
        FileRef::Entry {
            archive: archive.to_path_buf(),
            path: String::new(),
        }
    }

    /// The last component (`drlbod01.pie`); an archive root gives the archive's name.
    pub fn file_name(&self) -> String {
        match self {
            FileRef::Disk(p) => super::file_name(p),
            FileRef::Entry { archive, path } if path.is_empty() => super::file_name(archive),
            FileRef::Entry { path, .. } => path.rsplit('/').next().unwrap_or(path).to_string(),
            FileRef::Embedded { name, .. } => name.clone(),
        }
    }

    /// The file name without its last extension.
    pub fn stem(&self) -> String {
        let name = self.file_name();
        match name.rfind('.') {
            Some(i) if i > 0 => name[..i].to_string(),
            _ => name,
        }
    }

    /// The lower-case extension, without the dot.
    pub fn extension(&self) -> Option<String> {
        let name = self.file_name();
        let i = name.rfind('.')?;
        (i > 0).then(|| name[i + 1..].to_ascii_lowercase())
    }

    /// The folder this is in: for an entry, the folder inside the archive (the archive's
    /// root has none); on disk, the parent path (`.` for a bare name).
    pub fn parent(&self) -> Option<FileRef> {
        match self {
            FileRef::Disk(p) => {
                let parent = p.parent()?;
                Some(FileRef::Disk(if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                }))
            }
            FileRef::Entry { path, .. } if path.is_empty() => None,
            FileRef::Entry { archive, path } => Some(FileRef::Entry {
                archive: archive.clone(),
                path: path.rsplit_once('/').map(|(d, _)| d).unwrap_or("").into(),
            }),
            // Beside the file that holds it.
            FileRef::Embedded { file, .. } => file.parent(),
        }
    }

    /// `self` and each of its ancestors, innermost first (inside an archive: up to its
    /// root, not beyond).
    pub(crate) fn ancestors(&self) -> Vec<FileRef> {
        let mut out = vec![self.clone()];
        while let Some(p) = out.last().and_then(FileRef::parent) {
            if out.last() == Some(&p) {
                break;
            }
            out.push(p);
        }
        out
    }

    /// A child of this folder: `name` may hold several `/`-separated components.
    pub fn join(&self, name: &str) -> FileRef {
        match self {
            FileRef::Disk(p) => FileRef::Disk(p.join(name)),
            FileRef::Entry { archive, path } => {
                let name = name.trim_matches('/');
                FileRef::Entry {
                    archive: archive.clone(),
                    path: if path.is_empty() {
                        name.to_string()
                    } else if name.is_empty() {
                        path.clone()
                    } else {
                        format!("{path}/{name}")
                    },
                }
            }
            FileRef::Embedded { file, .. } => file
                .parent()
                .unwrap_or_else(|| FileRef::Disk(PathBuf::from(".")))
                .join(name),
        }
    }

    /// The path on disk, for a file that is not inside an archive.
    pub fn as_disk(&self) -> Option<&Path> {
        match self {
            FileRef::Disk(p) => Some(p),
            FileRef::Entry { .. } | FileRef::Embedded { .. } => None,
        }
    }

    /// The file on disk that holds this one: itself, or its archive (what a file watcher
    /// watches).
    pub fn disk_file(&self) -> &Path {
        match self {
            FileRef::Disk(p) => p,
            FileRef::Entry { archive, .. } => archive,
            FileRef::Embedded { file, .. } => file.disk_file(),
        }
    }

    /// This file with the file on disk that holds it ([`FileRef::disk_file`]) named
    /// `rename(that path)`: the same entry or embedded bytes of the renamed holder.
    pub fn with_disk_file(&self, rename: &impl Fn(&Path) -> PathBuf) -> FileRef {
        match self {
            FileRef::Disk(p) => FileRef::Disk(rename(p)),
            FileRef::Entry { archive, path } => FileRef::Entry {
                archive: rename(archive),
                path: path.clone(),
            },
            FileRef::Embedded {
                file,
                offset,
                len,
                base64,
                name,
            } => FileRef::Embedded {
                file: Box::new(file.with_disk_file(rename)),
                offset: *offset,
                len: *len,
                base64: *base64,
                name: name.clone(),
            },
        }
    }

    /// The path relative to `base` (a folder that contains it), with `/` separators;
    /// `None` when `base` does not contain it.
    pub fn relative_to(&self, base: &FileRef) -> Option<String> {
        match (self, base) {
            (FileRef::Disk(p), FileRef::Disk(b)) => {
                let rel = p.strip_prefix(b).ok()?;
                Some(
                    rel.components()
                        .map(|c| c.as_os_str().to_string_lossy())
                        .collect::<Vec<_>>()
                        .join("/"),
                )
            }
            (
                FileRef::Entry { archive, path },
                FileRef::Entry {
                    archive: a2,
                    path: base,
                },
            ) if archive == a2 => {
                if base.is_empty() {
                    Some(path.clone())
                } else {
                    path.strip_prefix(base.as_str())?
                        .strip_prefix('/')
                        .map(str::to_string)
                }
            }
            _ => None,
        }
    }
}

impl fmt::Display for FileRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileRef::Disk(p) => write!(f, "{}", p.display()),
            FileRef::Entry { archive, path } => {
                write!(f, "{}{ARCHIVE_SEPARATOR}{path}", archive.display())
            }
            FileRef::Embedded { file, name, .. } => write!(f, "{file}#{name}"),
        }
    }
}

impl From<PathBuf> for FileRef {
    fn from(p: PathBuf) -> FileRef {
        FileRef::Disk(p)
    }
}

impl From<&Path> for FileRef {
    fn from(p: &Path) -> FileRef {
        FileRef::Disk(p.to_path_buf())
    }
}

/// Decodes the `%XX` escapes of a URI, a URL's path or a link's value (`%20` → space); a
/// malformed escape stays as it is and bytes that are not UTF-8 are replaced. The one
/// decoder of glTF image URIs, the page's fetched paths and the app's links.
pub fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// What a fragment's value keeps as it is: letters, digits and `-._~/:@!$'()*,;`; the
/// rest (`&`, `=`, `#`, `%`, spaces, non-ASCII…) is percent-encoded.
const KEPT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/')
    .remove(b':')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b',')
    .remove(b';');

/// Percent-encodes what a link's fragment value cannot hold as it is (`&`, `=`, `#`, `%`,
/// spaces, non-ASCII…): the app's view links and `vitrine publish`'s tile links.
pub fn percent_encode(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, KEPT).to_string()
}

/// Why an archive entry's name is refused ([`entry_name`]). The rules are the same on
/// every system: a name that is harmless where Vitrine runs may be a drive, a stream or a
/// device where a published or exported copy of it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameError {
    /// Nothing is left once `.` and empty components are dropped (`.`, ``, `./`).
    Empty,
    /// Longer than [`super::MAX_ENTRY_NAME_BYTES`] (its length in bytes).
    TooLong(usize),
    /// More components than [`super::MAX_ENTRY_DEPTH`] (at least this many).
    TooDeep(usize),
    /// Starts with `/` or `\` (absolute, or a UNC share `\\server\share`).
    Absolute,
    /// Has a `..` component.
    Climbs,
    /// Has a `:` (a drive, `C:x.pie` or `C:/x`, or an NTFS stream, `a.pie:s`).
    Colon,
    /// Holds a control character (terminal escape sequences, line breaks, NUL).
    Control,
    /// A component is a Windows device name (`CON`, `NUL`, `COM1.pie`, …).
    Device(String),
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::{MAX_ENTRY_DEPTH, MAX_ENTRY_NAME_BYTES};
        match self {
            NameError::Empty => write!(f, "the name is empty (or only `.`): it names no file"),
            NameError::TooLong(n) => write!(
                f,
                "the name is {n} bytes long, over the limit of {MAX_ENTRY_NAME_BYTES}"
            ),
            NameError::TooDeep(n) => write!(
                f,
                "the name is {n} or more folders deep, over the limit of {MAX_ENTRY_DEPTH}"
            ),
            NameError::Absolute => write!(
                f,
                "the name leaves the archive: it is absolute (starts with `/` or `\\`)"
            ),
            NameError::Climbs => write!(f, "the name leaves the archive: it has a `..`"),
            NameError::Colon => write!(
                f,
                "the name has a `:` (a drive such as `C:`, or a file stream, on Windows)"
            ),
            NameError::Control => write!(f, "the name holds a control character"),
            NameError::Device(d) => write!(f, "`{d}` is a device name on Windows"),
        }
    }
}

/// Windows device names: a file component with one of these stems opens the device.
const DEVICES: &[&str] = &[
    "con", "prn", "aux", "nul", "conin$", "conout$", "com0", "com1", "com2", "com3", "com4",
    "com5", "com6", "com7", "com8", "com9", "lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6",
    "lpt7", "lpt8", "lpt9",
];

/// Whether a component names a Windows device (`nul`, `Com1.pie`, `aux .txt`).
fn is_device(part: &str) -> bool {
    let stem = part.split('.').next().unwrap_or(part);
    let stem = stem.trim_end_matches(' ').to_ascii_lowercase();
    DEVICES.contains(&stem.as_str())
}

/// An archive entry's name as stored (`\` or `/` separated) → Vitrine's form (`/`
/// separated, no empty or `.` component), or why it is refused: it would leave the
/// archive or write outside an output folder on some system, it is longer or deeper
/// than the limits, or it holds what a terminal would act on. Same answer on every
/// system.
///
/// # Errors
/// The first rule the name breaks.
pub fn entry_name(name: &str) -> Result<String, NameError> {
    if name.len() > super::MAX_ENTRY_NAME_BYTES {
        return Err(NameError::TooLong(name.len()));
    }
    if name.starts_with(['/', '\\']) {
        return Err(NameError::Absolute);
    }
    if name.chars().any(char::is_control) {
        return Err(NameError::Control);
    }
    let mut parts = Vec::new();
    for c in name.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => return Err(NameError::Climbs),
            c if c.contains(':') => return Err(NameError::Colon),
            c if is_device(c) => return Err(NameError::Device(c.to_string())),
            c => parts.push(c),
        }
        if parts.len() > super::MAX_ENTRY_DEPTH {
            return Err(NameError::TooDeep(parts.len()));
        }
    }
    if parts.is_empty() {
        return Err(NameError::Empty);
    }
    Ok(parts.join("/"))
}

/// [`entry_name`], without the reason: `None` for a refused name.
pub fn normalise_entry(name: &str) -> Option<String> {
    entry_name(name).ok()
}

/// `text` safe to print on a terminal: control characters (escape sequences, line
/// breaks, NUL) and the invisible characters that reorder or hide text (bidirectional
/// overrides, zero-width marks) written as `\u{…}` escapes; everything else as it is.
/// For a name; [`printable_text`] keeps line breaks and tabs.
pub fn printable(text: &str) -> Cow<'_, str> {
    escape_hostile(text, |_| false)
}

/// [`printable`] for whole lines of output: line breaks and tabs are kept.
pub fn printable_text(text: &str) -> Cow<'_, str> {
    escape_hostile(text, |c| c == '\n' || c == '\t')
}

fn escape_hostile(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let hostile = |c: char| {
        !keep(c)
            && (c.is_control()
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'))
    };
    if !text.chars().any(hostile) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hostile(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_archive_paths() {
        let cases: &[(&str, FileRef)] = &[
            (
                "mods/tanks.wz!/components/bodies/drlbod01.pie",
                FileRef::Entry {
                    archive: "mods/tanks.wz".into(),
                    path: "components/bodies/drlbod01.pie".into(),
                },
            ),
            (
                "C:\\Mods\\x.ZIP!\\a\\b.pie",
                FileRef::Entry {
                    archive: "C:\\Mods\\x.ZIP".into(),
                    path: "a/b.pie".into(),
                },
            ),
            ("odd!name/x.pie", FileRef::Disk("odd!name/x.pie".into())),
            ("plain/file.pie", FileRef::Disk("plain/file.pie".into())),
            (
                "a.wz!/",
                FileRef::Entry {
                    archive: "a.wz".into(),
                    path: String::new(),
                },
            ),
        ];
        for (arg, want) in cases {
            assert_eq!(
                &FileRef::parse_with(Path::new(arg), |_| false),
                want,
                "{arg}"
            );
        }
    }

    #[test]
    fn display_round_trips() {
        let f = FileRef::Entry {
            archive: "m.wz".into(),
            path: "texpages/page-1.png".into(),
        };
        assert_eq!(f.to_string(), "m.wz!/texpages/page-1.png");
        assert_eq!(FileRef::parse_with(Path::new(&f.to_string()), |_| false), f);
    }

    #[test]
    fn names_and_parents() {
        let f = FileRef::parse_with(Path::new("m.wz!/components/bodies/Body.PIE"), |_| false);
        assert_eq!(f.file_name(), "Body.PIE");
        assert_eq!(f.stem(), "Body");
        assert_eq!(f.extension().as_deref(), Some("pie"));
        let names: Vec<String> = f.ancestors().iter().map(|a| a.to_string()).collect();
        assert_eq!(
            names,
            [
                "m.wz!/components/bodies/Body.PIE",
                "m.wz!/components/bodies",
                "m.wz!/components",
                "m.wz!/"
            ]
        );
        assert_eq!(
            f.relative_to(&FileRef::archive_root(Path::new("m.wz")))
                .as_deref(),
            Some("components/bodies/Body.PIE")
        );
    }

    #[test]
    fn hostile_entry_names_are_refused() {
        assert_eq!(normalise_entry("../../etc/passwd"), None);
        assert_eq!(normalise_entry("a/../../b"), None);
        assert_eq!(normalise_entry("C:/windows/x.pie"), None);
        assert_eq!(normalise_entry("/abs/x.pie"), None);
        assert_eq!(normalise_entry("a\\b.pie").as_deref(), Some("a/b.pie"));
    }

    /// Issue 31, item 6: every name that could leave an output folder on some system is
    /// refused on all of them, and so are names that hide the others or act on a terminal.
    #[test]
    fn entry_names_are_judged_the_same_on_every_system() {
        use super::super::{MAX_ENTRY_DEPTH, MAX_ENTRY_NAME_BYTES};
        let deep = "d/".repeat(MAX_ENTRY_DEPTH) + "x.pie";
        let long = "a".repeat(MAX_ENTRY_NAME_BYTES + 1);
        let refused: &[(&str, NameError)] = &[
            ("", NameError::Empty),
            (".", NameError::Empty),
            ("./", NameError::Empty),
            ("a/./..", NameError::Climbs),
            ("a\\..\\..\\b.pie", NameError::Climbs),
            ("/abs/x.pie", NameError::Absolute),
            ("\\\\server\\share\\x.pie", NameError::Absolute),
            ("\\\\?\\C:\\x.pie", NameError::Absolute),
            ("C:d.pie", NameError::Colon),
            ("c:\\windows\\x.pie", NameError::Colon),
            ("a/b.pie:stream", NameError::Colon),
            ("a/\u{1b}[2Jx.pie", NameError::Control),
            ("line\nbreak.pie", NameError::Control),
            ("nul\u{0}.pie", NameError::Control),
            ("a/CON", NameError::Device("CON".into())),
            ("com1.pie", NameError::Device("com1.pie".into())),
            ("aux .txt", NameError::Device("aux .txt".into())),
            (&deep, NameError::TooDeep(MAX_ENTRY_DEPTH + 1)),
            (&long, NameError::TooLong(MAX_ENTRY_NAME_BYTES + 1)),
        ];
        for (name, want) in refused {
            assert_eq!(entry_name(name).as_ref(), Err(want), "{name:?}");
            assert!(!want.to_string().is_empty());
        }
        let kept = [
            ("a\\b.pie", "a/b.pie"),
            ("./a//b.pie", "a/b.pie"),
            ("console.pie", "console.pie"),
            ("com10.pie", "com10.pie"),
            ("nullify/x.pie", "nullify/x.pie"),
            ("café/ü.pie", "café/ü.pie"),
        ];
        for (name, want) in kept {
            assert_eq!(entry_name(name).as_deref(), Ok(want), "{name:?}");
        }
        let just_deep_enough = "d/".repeat(MAX_ENTRY_DEPTH - 1) + "x.pie";
        assert!(entry_name(&just_deep_enough).is_ok());
    }

    #[test]
    fn printed_names_cannot_reach_the_terminal_raw() {
        assert_eq!(
            printable("a\u{1b}[31mred\u{7}.pie"),
            "a\\u{1b}[31mred\\u{7}.pie"
        );
        assert_eq!(printable("\u{202e}gnp.pie"), "\\u{202e}gnp.pie");
        assert_eq!(printable("x\ny"), "x\\u{a}y");
        assert_eq!(printable_text("x\n\ty\u{9b}"), "x\n\ty\\u{9b}");
        assert!(matches!(printable("plain/café.pie"), Cow::Borrowed(_)));
    }
}
