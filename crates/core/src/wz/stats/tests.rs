use super::*;

fn layer(root: &std::path::Path, files: &[(&str, &str)]) -> FileRef {
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    FileRef::Disk(root.to_path_buf())
}

#[test]
fn first_layer_wins_whole_file_then_diffs_patch_entries() {
    let dir = tempfile::tempdir().unwrap();
    let base = layer(
        &dir.path().join("base"),
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
        &dir.path().join("mod"),
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
    let (s, w) = Stats::load(&[modded, base]);
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
    let dir = tempfile::tempdir().unwrap();
    let root = layer(
        dir.path(),
        &[
            (
                "stats/body.json",
                r#"{"B1": {"model": "a.pie"}, "Bad": 7, "Worse": {"propulsionExtraModels": 3}}"#,
            ),
            ("stats/templates.json", "{ not json"),
        ],
    );
    let (s, w) = Stats::load(&[root]);
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
