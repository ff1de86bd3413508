//! The renderer never branches on the file format: everything it needs from a model is a
//! format-neutral property the loader filled in (e.g. `Model::grid_unit`). This reads the
//! crate's own sources, outside their `#[cfg(test)]` parts (tests build models of a
//! format), and fails on any read of the model's format.

#![allow(
    clippy::disallowed_methods,
    reason = "a test of the crate's sources reads them (crates/clippy.toml bans it in the crate)"
)]

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// What in one line of code reads the core's format: the `Format` type named (wgpu's
/// `TextureFormat` is another word), or a `.format` field read on anything but `self`
/// (the pipelines' own texture format); `class.format()` is a method call, not the field.
fn format_read(code: &str) -> Option<&'static str> {
    let word = |at: usize, len: usize| {
        let before = code[..at].chars().next_back();
        let after = code[at + len..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    };
    if code
        .match_indices("Format")
        .any(|(at, m)| word(at, m.len()))
    {
        return Some("names the core's `Format`");
    }
    for (at, m) in code.match_indices(".format") {
        let after = code[at + m.len()..].trim_start();
        let is_field = word(at + 1, m.len() - 1) && !after.starts_with('(');
        let receiver: String = code[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if is_field && receiver != "fles" {
            return Some("reads a `.format` field (the model's format?)");
        }
    }
    None
}

#[test]
fn the_renderer_never_reads_the_models_format() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(
        files.len() > 10,
        "found the renderer's sources in {}",
        src.display()
    );
    let mut found = Vec::new();
    for path in &files {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let next = lines.get(n + 1).map_or("", |l| l.trim_start());
            if line.trim_start() == "#[cfg(test)]" && next.starts_with("mod tests {") {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            if let Some(why) = format_read(code) {
                found.push(format!(
                    "{}:{}: {why}: {}",
                    path.display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the renderer branches on the format:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_the_reads_it_forbids() {
    assert!(format_read("    view.grid_unit = model.format.grid_unit();").is_some());
    assert!(format_read("if m.format == Format::Pie {").is_some());
    assert!(format_read("use vitrine_core::model::{Format, Model};").is_some());
    assert!(format_read("match scene.model.format {").is_some());
    assert_eq!(
        format_read("let target = (self.format, self.samples);"),
        None
    );
    assert_eq!(format_read("format: class.format(),"), None);
    assert_eq!(
        format_read("format: wgpu::TextureFormat::Rgba8Unorm,"),
        None
    );
    assert_eq!(format_read("let label = format!(\"{x}\");"), None);
}
