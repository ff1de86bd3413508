use super::data::{relative_path, split};
use super::numbered;

#[test]
fn level_and_connector_names_are_numbered_as_blender_writes_them() {
    assert_eq!(numbered("level 2", "level"), Some(2));
    assert_eq!(numbered("Level_3", "level"), Some(3));
    assert_eq!(numbered("connector 1.001", "connector"), Some(1));
    assert_eq!(numbered("levels", "level"), None);
    assert_eq!(numbered("level x", "level"), None);
    assert_eq!(numbered("é", "level"), None);
}

#[test]
fn uris_that_leave_the_folder_are_refused() {
    assert_eq!(relative_path("tex/a%20b.png").unwrap(), "tex/a b.png");
    assert_eq!(relative_path("tex/../a.bin").unwrap(), "a.bin");
    for bad in [
        "../a.bin",
        "/etc/passwd",
        "file:///x",
        "http://x/y",
        "a/../../b",
        "%2E%2E/a",
    ] {
        assert!(relative_path(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_truncated_glb_names_the_offset() {
    let mut glb = b"glTF".to_vec();
    glb.extend(2u32.to_le_bytes());
    glb.extend(100u32.to_le_bytes());
    let e = split(&glb).err().expect("refused");
    assert!(e.to_string().contains("declares 100 bytes"), "{e}");
    // A chunk longer than the file.
    let mut glb = b"glTF".to_vec();
    glb.extend(2u32.to_le_bytes());
    glb.extend(28u32.to_le_bytes());
    glb.extend(64u32.to_le_bytes());
    glb.extend(0x4E4F_534Au32.to_le_bytes());
    glb.extend(b"{}  {}  ");
    let e = split(&glb).err().expect("refused");
    assert!(e.to_string().contains("@0xc"), "{e}");
}
