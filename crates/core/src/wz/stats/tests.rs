use super::*;
use crate::files::MemorySource;

/// A data root `root` holding `files`, in memory.
fn layer(source: &mut MemorySource, root: &str, files: &[(&str, &str)]) -> FileRef {
    for (path, text) in files {
        source.insert(std::path::Path::new(root).join(path), text.as_bytes());
    }
    FileRef::Disk(root.into())
}

#[test]
fn first_layer_wins_whole_file_then_diffs_patch_entries() {
    let mut source = MemorySource::new();
    let base = layer(
        &mut source,
        "base",
        &[
            (
                "stats/body.json",
                r#"{"B1": {"name": "Base body", "model": "a.pie", "weaponSlots": 1},
                        "B2": {"name": "Only in base", "model": "b.pie"}}"#,
            ),
            (
                "stats/weapons.json",
                r#"{"W": {"name": "Gun", "model": "g.pie"}}"#,
            ),
        ],
    );
    let modded = layer(
        &mut source,
        "mod",
        &[
            (
                "stats/body.json",
                r#"{"B1": {"name": "Mod body", "model": "m.pie", "future": [1, 2]}}"#,
            ),
            (
                "diffs/10-fix/stats/weapons.json",
                r#"{"W": {"maxElevation": "45", "mountModel": "t.pie"}, "X": {"name": "New"}}"#,
            ),
            ("diffs/20-drop/stats/weapons.json", r#"{"X": null}"#),
        ],
    );
    let (s, w) = Stats::load(&Files::new(source), &[modded, base]);
    // Whole-file override: the mod's body.json has no B2.
    assert_eq!(s.bodies.len(), 1);
    assert_eq!(s.bodies.get("B1").unwrap().model.as_deref(), Some("m.pie"));
    assert!(
        s.bodies
            .source
            .as_ref()
            .unwrap()
            .to_string()
            .contains("mod")
    );
    // Merge patches in name order: W patched key by key, X added then deleted.
    let g = s.weapons.get("W").unwrap();
    assert_eq!(g.model.as_deref(), Some("g.pie"));
    assert_eq!(g.mount_model.as_deref(), Some("t.pie"));
    assert_eq!(g.max_elevation, Some(45.0));
    assert!(s.weapons.get("X").is_none());
    // Lookups by name and by model file.
    assert_eq!(s.bodies.find("mod BODY").unwrap().id, "B1");
    assert_eq!(s.weapons.find("G.PIE").unwrap().id, "W");
    // Missing files are warnings naming the file; nothing else is wrong.
    assert!(
        w.iter().all(|w| w.message == "not found in any data root"),
        "{w:?}"
    );
    assert!(w.iter().any(|w| w.file == "stats/templates.json"));
    assert!(!w.iter().any(|w| w.file.contains("body.json")));
}

#[test]
fn malformed_files_and_entries_are_warnings_with_file_and_key() {
    let mut source = MemorySource::new();
    let root = layer(
        &mut source,
        "data",
        &[
            (
                "stats/body.json",
                r#"{"B1": {"model": "a.pie"}, "Bad": 7, "Worse": {"propulsionExtraModels": 3}}"#,
            ),
            ("stats/templates.json", "{ not json"),
        ],
    );
    let (s, w) = Stats::load(&Files::new(source), &[root]);
    assert_eq!(s.bodies.len(), 1);
    let text: Vec<String> = w.iter().map(|w| w.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("body.json: Bad: entry is not a JSON object")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("body.json: Worse: malformed entry")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("templates.json: invalid JSON at line 1")),
        "{text:?}"
    );
    assert!(s.templates.is_empty());
}
