//! Desktop integration for Linux and the other freedesktop.org desktops: the launcher
//! (`applications/vitrine.desktop`), the model MIME types (`mime/packages/vitrine.xml`,
//! so file managers know `.pie`, `.pmf`, `.pet`/`.apet`/`.bpet`/`.mpet` and `.tpm` and
//! offer Vitrine for them; `.glb`, `.gltf` and `.obj` are shared-mime-info's own
//! `model/gltf-binary`, `model/gltf+json` and `model/obj`, which the launcher lists so
//! that Vitrine is offered for them too — beside Blender or whatever opens them now:
//! nothing here sets a default) and the icon (`icons/hicolor/256x256/apps/vitrine.png`), all
//! under the user's data folder (`$XDG_DATA_HOME`, else `~/.local/share`, from the
//! `directories` crate). `vitrine install-desktop` writes them (through
//! [`crate::files::atomic`]) and `--uninstall` removes them; packagers can ship
//! `packaging/linux/` as it is.
//!
//! The window uses the same icon ([`ICON_PNG`]).

#[cfg(feature = "gui")]
pub mod window;

use crate::files::atomic;
use std::path::{Path, PathBuf};

/// The application icon, 256×256 RGBA PNG (the demo tank, rendered by Vitrine).
pub const ICON_PNG: &[u8] = include_bytes!("../../assets/icon/vitrine-256.png");
/// The launcher as packaged (`Exec=vitrine %f`).
pub const DESKTOP_ENTRY: &str = include_str!("../../packaging/linux/vitrine.desktop");
/// The shared-mime-info package of the model formats.
pub const MIME_PACKAGE: &str = include_str!("../../packaging/linux/vitrine-mime.xml");

/// The file managers' thumbnailer (`Exec=vitrine thumbnail %i %o %s`), which packages
/// install as `/usr/share/thumbnailers/vitrine.thumbnailer` (`vitrine` on `PATH`).
pub const THUMBNAILER: &str = include_str!("../../packaging/linux/vitrine.thumbnailer");

/// The files `install-desktop` writes, relative to the data folder.
pub const FILES: [&str; 3] = [
    "applications/vitrine.desktop",
    "mime/packages/vitrine.xml",
    "icons/hicolor/256x256/apps/vitrine.png",
];

/// The user's data folder (`$XDG_DATA_HOME` or `~/.local/share`), `None` without a home.
pub fn data_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|b| b.data_dir().to_path_buf())
}

/// The launcher for the program at `exe` (its `Exec` line names it by full path, so the
/// launcher works whether or not the program is on `PATH`).
pub fn desktop_entry(exe: &Path) -> String {
    let exec = format!("Exec={} %f", exec_quote(&exe.to_string_lossy()));
    DESKTOP_ENTRY
        .lines()
        .map(|l| {
            if l.starts_with("Exec=") {
                exec.as_str()
            } else {
                l
            }
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Quotes a program path for a desktop entry's `Exec` key: inside double quotes `"`,
/// `` ` ``, `$` and `\` are escaped with `\`, and then (the string-value rule applied
/// first when reading) every `\` is doubled.
fn exec_quote(path: &str) -> String {
    let mut quoted = String::from("\"");
    for c in path.chars() {
        if matches!(c, '"' | '`' | '$' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted.replace('\\', "\\\\")
}

/// Writes the launcher (for `exe`), the MIME package and the icon under `data`; returns
/// the files written.
pub fn install(exe: &Path, data: &Path) -> std::io::Result<Vec<PathBuf>> {
    let entry = desktop_entry(exe);
    let contents: [&[u8]; 3] = [entry.as_bytes(), MIME_PACKAGE.as_bytes(), ICON_PNG];
    let mut written = Vec::new();
    for (rel, bytes) in FILES.iter().zip(contents) {
        let path = data.join(rel);
        atomic::write(&path, bytes)?;
        written.push(path);
    }
    Ok(written)
}

/// Removes what [`install`] wrote under `data`; returns the files that were there.
pub fn uninstall(data: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for rel in FILES {
        let path = data.join(rel);
        if crate::files::is_file(&crate::files::FileRef::Disk(path.clone())) {
            atomic::remove(&path)?;
            removed.push(path);
        }
    }
    Ok(removed)
}

/// The standard MIME types (shared-mime-info defines them) the launcher lists so that
/// Vitrine is offered for glTF and OBJ files; the package does not define them again.
pub const STANDARD_TYPES: [&str; 3] = ["model/gltf-binary", "model/gltf+json", "model/obj"];

/// The MIME types the launcher declares.
pub fn mime_types() -> Vec<&'static str> {
    DESKTOP_ENTRY
        .lines()
        .find_map(|l| l.strip_prefix("MimeType="))
        .map(|v| v.split(';').filter(|t| !t.is_empty()).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_lines_quote_paths_per_the_desktop_entry_spec() {
        let e = desktop_entry(Path::new("/opt/My Games/vitrine"));
        assert!(e.contains("Exec=\"/opt/My Games/vitrine\" %f\n"), "{e}");
        assert_eq!(e.matches("Exec=").count(), 1);
        assert_eq!(exec_quote("/a$b\"c"), r#""/a\\$b\\"c""#);
    }

    #[test]
    fn every_model_extension_has_a_mime_type_the_launcher_declares() {
        let types = mime_types();
        assert_eq!(types.len(), 8, "{types:?}");
        for t in &types {
            let defined = MIME_PACKAGE.contains(&format!("<mime-type type=\"{t}\">"));
            // Vitrine's own formats are defined by its package; glTF and OBJ are the
            // standard types, never redefined (that would take them over).
            assert_eq!(defined, !STANDARD_TYPES.contains(t), "{t}");
        }
        for t in STANDARD_TYPES {
            assert!(types.contains(&t), "{t} not listed");
        }
        let globs: Vec<&str> = MIME_PACKAGE
            .split("<glob pattern=\"*.")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .collect();
        for ext in ["pie", "pmf", "pet", "apet", "bpet", "mpet", "tpm"] {
            assert!(crate::formats::is_model_name(&format!("a.{ext}")));
            assert!(globs.contains(&ext), ".{ext} has no glob: {globs:?}");
        }
        // A .wz is no model but an archive of them (the viewer's gallery, a thumbnail of
        // its first model).
        for g in globs.iter().filter(|g| **g != "wz") {
            assert!(crate::formats::is_model_name(&format!("a.{g}")), "*.{g}");
        }
        assert!(globs.contains(&"wz"));
    }

    /// The Windows program's icon (`assets/icon/vitrine.ico`, built into `vitrine.exe` by
    /// build.rs) is the same picture as the Linux one at every size Explorer asks for: its
    /// 256×256 entry holds exactly the pixels of `vitrine-256.png`.
    #[test]
    fn the_windows_icon_is_the_linux_icon_at_every_size() {
        let ico = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/icon/vitrine.ico"
        ))
        .unwrap();
        let u16_at = |o: usize| u16::from_le_bytes([ico[o], ico[o + 1]]);
        let u32_at = |o: usize| u32::from_le_bytes(ico[o..o + 4].try_into().unwrap());
        assert_eq!((u16_at(0), u16_at(2)), (0, 1), "an ICO header");
        let mut sizes = Vec::new();
        let mut big = None;
        for i in 0..usize::from(u16_at(4)) {
            let e = 6 + 16 * i;
            let side = if ico[e] == 0 { 256 } else { u32::from(ico[e]) };
            sizes.push(side);
            let (len, at) = (u32_at(e + 8) as usize, u32_at(e + 12) as usize);
            assert!(at + len <= ico.len(), "entry {i} lies past the file's end");
            if side == 256 {
                big = Some(&ico[at..at + len]);
            }
        }
        sizes.sort_unstable();
        assert_eq!(sizes, [16, 32, 48, 64, 256]);
        let big = image::load_from_memory(big.expect("a 256×256 entry")).unwrap();
        let png = image::load_from_memory(ICON_PNG).unwrap();
        assert_eq!(
            big.to_rgba8(),
            png.to_rgba8(),
            "remake it: convert vitrine-256.png -define icon:auto-resize=256,64,48,32,16 vitrine.ico"
        );
    }

    #[test]
    fn install_writes_three_files_and_uninstall_removes_them() {
        let dir = tempfile::tempdir().unwrap();
        let written = install(Path::new("/usr/bin/vitrine"), dir.path()).unwrap();
        assert_eq!(written.len(), 3);
        let entry = std::fs::read_to_string(dir.path().join(FILES[0])).unwrap();
        assert!(entry.contains("Exec=\"/usr/bin/vitrine\" %f"));
        let icon =
            image::load_from_memory(&std::fs::read(dir.path().join(FILES[2])).unwrap()).unwrap();
        assert_eq!((icon.width(), icon.height()), (256, 256));
        // Installing again replaces, never duplicates.
        install(Path::new("/usr/bin/vitrine"), dir.path()).unwrap();
        let removed = uninstall(dir.path()).unwrap();
        assert_eq!(removed, written);
        assert!(FILES.iter().all(|f| !dir.path().join(f).exists()));
        assert!(
            uninstall(dir.path()).unwrap().is_empty(),
            "nothing left to remove"
        );
    }
}
