//! The archive reader's index and its hostile names.

use super::*;
use std::io::Write;

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut buf = io::Cursor::new(Vec::new());
    let mut z = zip::ZipWriter::new(&mut buf);
    let deflate = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, body) in entries {
        if name.ends_with('/') {
            z.add_directory(*name, deflate).unwrap();
        } else {
            z.start_file(*name, deflate).unwrap();
            z.write_all(body).unwrap();
        }
    }
    z.finish().unwrap();
    buf.into_inner()
}

#[test]
fn folders_list_their_children_with_the_first_spelling() {
    let bytes = zip_of(&[
        ("Comp/Bodies/a.pie", b"a"),
        ("comp/bodies/B.pie", b"b"),
        ("comp/empty/", b""),
        ("top.txt", b"t"),
    ]);
    let a = Archive::from_bytes(bytes, Path::new("t.zip")).unwrap();
    assert_eq!(
        a.children(""),
        [
            ("Comp".to_string(), EntryKind::Dir),
            ("top.txt".to_string(), EntryKind::File)
        ]
    );
    assert_eq!(
        a.children("COMP"),
        [
            ("Bodies".to_string(), EntryKind::Dir),
            ("empty".to_string(), EntryKind::Dir)
        ]
    );
    assert_eq!(a.children("comp/bodies").len(), 2);
    assert_eq!(a.kind("comp/EMPTY"), Some(EntryKind::Dir));
    assert_eq!(
        a.read(Path::new("t.zip"), "COMP/BODIES/b.PIE").unwrap(),
        b"b"
    );
}

/// Issue 31, item 6: an entry named `.` or `` became the root as a file, and every other
/// entry was behind it ("not a model file").
#[test]
fn an_entry_named_dot_or_empty_hides_nothing() {
    let bytes = zip_of(&[
        (".", b"PIE 2"),
        ("", b"PIE 2"),
        ("a/b.pie", b"b"),
        ("./", b""),
    ]);
    let a = Archive::from_bytes(bytes, Path::new("t.zip")).unwrap();
    assert_eq!(a.kind(""), Some(EntryKind::Dir));
    assert_eq!(a.children(""), [("a".to_string(), EntryKind::Dir)]);
    assert_eq!(a.read(Path::new("t.zip"), "a/b.pie").unwrap(), b"b");
    let ignored: Vec<(usize, bool)> = a
        .ignored
        .iter()
        .map(|i| (i.index, i.why.contains("empty")))
        .collect();
    assert_eq!(ignored, [(0, true), (1, true)], "{:?}", a.ignored);
}

/// Issue 31, item 4: a name over the length or depth limit is refused, naming the entry by
/// index and offset, and the other entries are read.
#[test]
fn names_over_the_limits_are_refused_and_the_rest_read() {
    let long = "a/".repeat(600) + "x.pie";
    let deep = "b/".repeat(crate::files::MAX_ENTRY_DEPTH + 1) + "y.pie";
    let bytes = zip_of(&[
        ("ok/first.pie", b"1"),
        (&long, b"2"),
        (&deep, b"3"),
        ("ok/last.pie", b"4"),
    ]);
    let a = Archive::from_bytes(bytes, Path::new("t.zip")).unwrap();
    assert_eq!(a.files().len(), 2);
    assert_eq!(a.read(Path::new("t.zip"), "ok/last.pie").unwrap(), b"4");
    assert_eq!(a.children(""), [("ok".to_string(), EntryKind::Dir)]);
    assert_eq!(a.ignored.len(), 2, "{:?}", a.ignored);
    let (too_long, too_deep) = (&a.ignored[0], &a.ignored[1]);
    assert_eq!((too_long.index, too_deep.index), (1, 2));
    assert!(too_long.header > 0 && too_deep.header > too_long.header);
    assert!(too_long.why.contains("1205 bytes long"), "{}", too_long.why);
    assert!(too_deep.why.contains("folders deep"), "{}", too_deep.why);
    let message = too_long.message();
    assert!(
        message.contains("entry 1 ") && message.contains(&format!("byte {}", too_long.header)),
        "{message}"
    );
    // The name is shown shortened, with its end (the extension).
    assert!(too_long.name.len() < 200 && too_long.name.ends_with("x.pie"));
}

/// Issue 31, item 6: a control character in a name is refused, and the name kept for
/// messages is printable.
#[test]
fn a_name_with_an_escape_sequence_is_refused_and_shown_escaped() {
    let bytes = zip_of(&[("\u{1b}]0;owned\u{7}.pie", b"x"), ("C:d.pie", b"y")]);
    let a = Archive::from_bytes(bytes, Path::new("t.zip")).unwrap();
    assert!(a.files().is_empty());
    assert_eq!(a.ignored.len(), 2);
    assert_eq!(a.ignored[0].name, "\\u{1b}]0;owned\\u{7}.pie");
    assert!(a.ignored[1].why.contains("`:`"), "{}", a.ignored[1].why);
}
