//! Hostile archives, one test per hole found by attacking the archive reader (issue 23,
//! deliverable 7). Every archive is built here, byte by byte where the `zip` writer would
//! refuse (duplicate names, entries sharing bytes); none is committed.
//!
//! - a folder per entry: listing is indexed, so `check` of 60,000 folders finishes
//!   (before, each folder's listing scanned the whole archive: quadratic, minutes here);
//! - entries sharing one DEFLATE kernel, and Fifield's nested layout: refused, naming the
//!   archive, the entry and the entry it overlaps;
//! - an archive inflating more than its limit: refused, naming archive and entry;
//! - duplicate names: the first wins, the others are warnings in `info`, `export`,
//!   `check` (a finding) and the gallery;
//! - `export` and `render` of one archive print the same counts, and write nothing
//!   outside their output folders.
//!
//! Sizes bound the time (a regression makes a test run for minutes), never a clock.

use crate::common;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vitrine::files::{self, EntryKind, FileRef};
use vitrine_test_needs::vitrine_test;

const PIE: &str = "PIE 3\nTYPE 200\nLEVELS 1\nLEVEL 1\nPOINTS 3\n\t0 0 0\n\t40 0 0\n\t0 40 0\n\
                   POLYGONS 1\n\t200 3 0 1 2 0 0 1 0 0 1\n";

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

fn run(args: &[&std::ffi::OsStr]) -> (Output, String, String) {
    let out = vitrine().args(args).output().expect("vitrine runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, stdout, stderr)
}

/// A zip written field by field, so that it can say what the `zip` writer refuses to:
/// two entries of one name, central records pointing at shared bytes.
#[derive(Default)]
struct RawZip {
    bytes: Vec<u8>,
    central: Vec<u8>,
    records: u16,
}

/// What a local header or central record says about an entry.
#[derive(Clone, Copy)]
struct Fields {
    method: u16,
    crc: u32,
    compressed: u32,
    size: u32,
}

impl Fields {
    fn stored(data: &[u8]) -> Fields {
        Fields {
            method: 0,
            crc: crc32fast::hash(data),
            compressed: data.len() as u32,
            size: data.len() as u32,
        }
    }

    /// `data` deflated: the fields, and the compressed bytes.
    fn deflated(data: &[u8]) -> (Fields, Vec<u8>) {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        let packed = e.finish().unwrap();
        let f = Fields {
            method: 8,
            crc: crc32fast::hash(data),
            compressed: packed.len() as u32,
            size: data.len() as u32,
        };
        (f, packed)
    }
}

impl RawZip {
    fn put(&mut self, v: &[u8]) {
        self.bytes.extend_from_slice(v);
    }

    /// Appends a local header and `data`; returns the header's offset.
    fn local(&mut self, name: &str, f: Fields, data: &[u8]) -> u32 {
        let at = self.bytes.len() as u32;
        self.put(&0x0403_4b50u32.to_le_bytes());
        self.put(&[20, 0, 0, 0]); // version needed, flags
        self.put(&f.method.to_le_bytes());
        self.put(&[0; 4]); // time, date
        for v in [f.crc, f.compressed, f.size] {
            self.put(&v.to_le_bytes());
        }
        self.put(&(name.len() as u16).to_le_bytes());
        self.put(&[0, 0]);
        self.put(name.as_bytes());
        self.put(data);
        at
    }

    /// A central directory record for an entry whose local header is at `offset`.
    fn record(&mut self, name: &str, f: Fields, offset: u32) {
        let c = &mut self.central;
        c.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        c.extend_from_slice(&[20, 0, 20, 0, 0, 0]); // made by, needed, flags
        c.extend_from_slice(&f.method.to_le_bytes());
        c.extend_from_slice(&[0; 4]);
        for v in [f.crc, f.compressed, f.size] {
            c.extend_from_slice(&v.to_le_bytes());
        }
        c.extend_from_slice(&(name.len() as u16).to_le_bytes());
        c.extend_from_slice(&[0; 12]); // extra, comment, disk, internal, external
        c.extend_from_slice(&offset.to_le_bytes());
        c.extend_from_slice(name.as_bytes());
        self.records += 1;
    }

    /// An ordinary stored entry.
    fn stored(&mut self, name: &str, data: &[u8]) {
        let f = Fields::stored(data);
        let at = self.local(name, f, data);
        self.record(name, f, at);
    }

    fn finish(mut self) -> Vec<u8> {
        let start = self.bytes.len() as u32;
        let central = std::mem::take(&mut self.central);
        self.put(&central);
        self.put(&0x0605_4b50u32.to_le_bytes());
        self.put(&[0; 4]);
        self.put(&self.records.to_le_bytes());
        self.put(&self.records.to_le_bytes());
        self.put(&(central.len() as u32).to_le_bytes());
        self.put(&start.to_le_bytes());
        self.put(&[0, 0]);
        self.bytes
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn a_folder_per_entry_is_listed_once_not_once_per_folder() {
    // 60,000 folders of one file each, and one model: the old listing scanned every file
    // for every folder (3.6 billion steps here); the index makes it one pass.
    const FOLDERS: usize = 60_000;
    let tmp = common::temp_dir("many-folders");
    let mut z = RawZip::default();
    z.stored("Components/Bodies/Body.pie", PIE.as_bytes());
    for i in 0..FOLDERS {
        z.stored(&format!("F{i:05}/a.txt"), b"x");
    }
    let wz = write(tmp.path(), "many.wz", &z.finish());

    let root = FileRef::Entry {
        archive: wz.clone(),
        path: String::new(),
    };
    let top = files::list(&root).unwrap();
    assert_eq!(top.len(), FOLDERS + 1);
    for (name, dir, kind) in &top {
        assert_eq!(*kind, EntryKind::Dir, "{name}");
        let inside = files::list(dir).unwrap();
        let want = if name == "Components" {
            "Bodies"
        } else {
            "a.txt"
        };
        assert_eq!(inside.len(), 1, "{name}: {inside:?}");
        assert_eq!(
            inside[0].0, want,
            "{name}: the name as the archive spells it"
        );
    }
    // Any case finds a folder, and it lists its children as spelled.
    let bodies = FileRef::Entry {
        archive: wz.clone(),
        path: "components/BODIES".into(),
    };
    assert_eq!(files::list(&bodies).unwrap()[0].0, "Body.pie");

    // `check` walks the whole tree for texture folders and `stats/`: it finishes.
    let (out, stdout, stderr) = run(&["check".as_ref(), wz.as_os_str()]);
    assert!(
        stdout.contains("checked 1 file"),
        "{stdout}\n{stderr}\n{:?}",
        out.status
    );
}

/// A `.wz` whose `entries` central records all point at one local header and one
/// deflated kernel of `kernel` bytes (the overlapping-entry zip bomb).
fn shared_kernel_bomb(entries: usize, kernel: usize) -> Vec<u8> {
    let (f, packed) = Fields::deflated(&vec![0u8; kernel]);
    let mut z = RawZip::default();
    let at = z.local("k000.pie", f, &packed);
    for i in 0..entries {
        z.record(&format!("k{i:03}.pie"), f, at);
    }
    z.finish()
}

#[test]
fn entries_sharing_one_kernel_are_refused_by_name() {
    // 1,000 names over one 8 MiB kernel: inflated in full, 8 GB (minutes); refused, none.
    let tmp = common::temp_dir("bomb");
    let wz = write(tmp.path(), "bomb.wz", &shared_kernel_bomb(1000, 8 << 20));
    let (out, stdout, stderr) = run(&["info".as_ref(), wz.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // The refusals on standard error, the count on standard output.
    for i in [0, 1, 500, 999] {
        let line = stderr
            .lines()
            .find(|l| l.contains(&format!("bomb.wz!/k{i:03}.pie: ")))
            .unwrap_or_else(|| panic!("k{i:03}.pie not reported:\n{stderr}"));
        assert!(
            line.contains("refused") && line.contains("overlap those of entry k"),
            "{line}"
        );
    }
    assert!(
        stdout.contains("1000 files: 0 loaded, 1000 failed"),
        "{stdout}"
    );
}

#[test]
fn fifields_nested_entries_are_refused() {
    // Fifield's construction: each entry's compressed data holds the next entry's local
    // header and data, so the first inflates them all again. Here: outer's stored data is
    // inner's local header and data. Outer is refused when read (its data runs past the
    // next local header), without opening the archive reading every local header.
    let tmp = common::temp_dir("fifield");
    let inner = PIE.as_bytes();
    let mut z = RawZip::default();
    let inner_header_len = 30 + "inner.pie".len();
    let outer_data_len = inner_header_len + inner.len();
    let outer = Fields {
        compressed: outer_data_len as u32,
        size: outer_data_len as u32,
        ..Fields::stored(inner)
    };
    let outer_at = z.local("outer.pie", outer, &[]);
    let inner_at = z.local("inner.pie", Fields::stored(inner), inner);
    z.record("outer.pie", outer, outer_at);
    z.record("inner.pie", Fields::stored(inner), inner_at);
    z.stored("fine.pie", inner);
    let wz = write(tmp.path(), "nested.wz", &z.finish());

    let (_, stdout, stderr) = run(&["info".as_ref(), wz.as_os_str()]);
    let line = |name: &str| {
        stderr
            .lines()
            .find(|l| l.contains(&format!("nested.wz!/{name}: error")))
            .unwrap_or_else(|| panic!("{name} not refused:\n{stderr}"))
            .to_string()
    };
    assert!(line("outer.pie").contains("overlap those of entry inner.pie"));
    // The nested entry's bytes are its own (only the entry holding it would read them
    // twice): it reads like any other.
    assert!(stdout.contains("nested.wz!/inner.pie: PIE"), "{stdout}");
    assert!(stdout.contains("nested.wz!/fine.pie: PIE"), "{stdout}");
}

#[test]
fn an_archive_inflates_at_most_its_limit() {
    // Three 120 MiB entries of zeros in a ~360 KB archive: the limit is the floor,
    // 256 MiB, so two inflate and the third is refused before it is inflated.
    let tmp = common::temp_dir("inflate-limit");
    let (f, packed) = Fields::deflated(&vec![0u8; 120 << 20]);
    let mut z = RawZip::default();
    for i in 0..3 {
        let name = format!("z{i}.bin");
        let at = z.local(&name, f, &packed);
        z.record(&name, f, at);
    }
    let bytes = z.finish();
    assert!(
        bytes.len() < 1 << 20,
        "100 × {} is under the floor",
        bytes.len()
    );
    let wz = write(tmp.path(), "zeros.wz", &bytes);
    let entry = |i: usize| FileRef::Entry {
        archive: wz.clone(),
        path: format!("z{i}.bin"),
    };
    assert_eq!(files::read(&entry(0)).unwrap().len(), 120 << 20);
    assert_eq!(files::read(&entry(1)).unwrap().len(), 120 << 20);
    let e = files::read(&entry(2)).unwrap_err().to_string();
    assert!(e.contains("zeros.wz!/z2.bin: refused"), "{e}");
    assert!(e.contains("over its limit of 256.0 MiB"), "{e}");
    // An entry already inflated counts once: reading it again is not refused.
    assert_eq!(files::read(&entry(0)).unwrap().len(), 120 << 20);
}

/// `dup.wz`: `dup/a.pie` (a model), `dup/a.pie` again and `DUP/A.PIE` (not models: were
/// either read, loading would fail), `other/b.pie`.
fn duplicates_archive(dir: &Path) -> PathBuf {
    let mut z = RawZip::default();
    z.stored("dup/a.pie", PIE.as_bytes());
    z.stored("dup/a.pie", b"not a model");
    z.stored("DUP/A.PIE", b"not a model either");
    z.stored("other/b.pie", PIE.as_bytes());
    write(dir, "dup.wz", &z.finish())
}

fn duplicate_warnings(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("warning: ") && l.contains("duplicate name"))
        .collect()
}

#[test]
fn duplicate_names_are_reported_and_the_first_wins() {
    let tmp = common::temp_dir("duplicates");
    let wz = duplicates_archive(tmp.path());

    let (out, stdout, stderr) = run(&["info".as_ref(), wz.as_os_str()]);
    assert!(
        out.status.success(),
        "the first dup/a.pie is read:\n{stdout}{stderr}"
    );
    assert!(stdout.contains("2 files: 2 loaded, 0 failed"), "{stdout}");
    let warned = duplicate_warnings(&stderr);
    assert_eq!(warned.len(), 2, "{stderr}");
    assert!(warned[0].contains("dup.wz!/dup/a.pie: duplicate name: dup/a.pie comes first"));
    assert!(warned[0].contains("different contents"), "{}", warned[0]);
    assert!(warned[1].contains("dup.wz!/DUP/A.PIE: duplicate name: dup/a.pie"));

    let out_dir = tmp.path().join("out");
    let (_, _, stderr) = run(&[
        "export".as_ref(),
        wz.as_os_str(),
        "-o".as_ref(),
        out_dir.as_os_str(),
    ]);
    assert_eq!(duplicate_warnings(&stderr).len(), 2, "{stderr}");
    assert!(stderr.contains("2 of 2 models exported"), "{stderr}");

    let (out, stdout, _) = run(&["check".as_ref(), wz.as_os_str()]);
    let findings: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("warning[archive/ignored-entry]: duplicate name"))
        .collect();
    assert_eq!(findings.len(), 2, "{stdout}");
    assert_eq!(
        out.status.code(),
        Some(0),
        "warnings do not fail a check: {stdout}"
    );

    let gallery = vitrine::app::gallery::Gallery::of_source(
        &*vitrine::desktop::window::DesktopHost::new(None),
        FileRef::Disk(wz.clone()),
    );
    assert_eq!(gallery.tiles.len(), 2);
    assert_eq!(
        gallery.listing_warnings.len(),
        2,
        "{:?}",
        gallery.listing_warnings
    );
    assert!(gallery.listing_errors.is_empty());
}

/// Every file under `dir`, relative.
fn files_under(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// `N of M models …` and `K failed:` of a batch's standard error.
fn counts(stderr: &str, verb: &str) -> (usize, usize, usize) {
    let line = stderr
        .lines()
        .find(|l| l.contains(&format!("models {verb} to")))
        .unwrap_or_else(|| panic!("no summary:\n{stderr}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let failed = stderr
        .lines()
        .find_map(|l| l.strip_suffix(" failed:"))
        .map_or(0, |n| n.parse().unwrap());
    (words[0].parse().unwrap(), words[2].parse().unwrap(), failed)
}

#[vitrine_test(gpu)]
fn export_and_render_count_inputs_the_same_way() {
    let tmp = common::temp_dir("batch-counts");
    let mut z = RawZip::default();
    z.stored("good/one.pie", PIE.as_bytes());
    z.stored("good/two.pie", PIE.as_bytes());
    z.stored("bad/broken.pie", b"PIE 3\nTYPE 200\nLEVELS 9\n");
    z.stored("../escape.pie", PIE.as_bytes());
    z.stored("../notes.txt", b"not a model: a warning, not an input");
    let wz = write(tmp.path(), "mixed.wz", &z.finish());

    let exported = tmp.path().join("exported");
    let (_, _, stderr) = run(&[
        "export".as_ref(),
        wz.as_os_str(),
        "-o".as_ref(),
        exported.as_os_str(),
    ]);
    // Inputs: two models, one broken, one entry that leaves the archive.
    let export_counts = counts(&stderr, "exported");
    assert_eq!(export_counts, (2, 4, 2), "{stderr}");
    assert!(
        stderr.contains("warning: ") && stderr.contains("mixed.wz!/../notes.txt"),
        "{stderr}"
    );

    let mut outputs = vec!["mixed.wz".to_string()];
    outputs.extend(
        files_under(&exported)
            .iter()
            .map(|f| format!("exported/{f}")),
    );
    crate::common::needs_gpu();
    {
        let rendered = tmp.path().join("rendered");
        let (_, _, stderr) = run(&[
            "render".as_ref(),
            wz.as_os_str(),
            "-o".as_ref(),
            rendered.as_os_str(),
            "--size".as_ref(),
            "64x64".as_ref(),
        ]);
        assert_eq!(counts(&stderr, "rendered"), export_counts, "{stderr}");
        outputs.extend(
            files_under(&rendered)
                .iter()
                .map(|f| format!("rendered/{f}")),
        );
        assert_eq!(files_under(&rendered).len(), 2, "{stderr}");
    }
    // Nothing was written outside the output folders, `../escape.pie` included.
    let mut found = files_under(tmp.path());
    found.sort();
    outputs.sort();
    assert_eq!(found, outputs);
    assert_eq!(files_under(&exported).len(), 2);
    assert!(!tmp.path().parent().unwrap().join("escape.pie").exists());
}

/// Issue 31, item 6: entry names that hid the other entries (`.`, empty), that Windows
/// reads as a drive or share (`C:d.pie`, `\\server\share`), and that hold terminal escape
/// sequences. Each is refused on every system, naming the entry by index and offset; the
/// good model is read; nothing reaches the terminal raw; `export` writes only the good one.
#[test]
fn hostile_entry_names_are_refused_everywhere_and_printed_escaped() {
    let tmp = common::temp_dir("hostile-names");
    let mut z = RawZip::default();
    z.stored(".", PIE.as_bytes());
    z.stored("", PIE.as_bytes());
    z.stored("good.pie", PIE.as_bytes());
    z.stored("C:d.pie", PIE.as_bytes());
    z.stored("\u{1b}[2J\u{1b}]0;pwned\u{7}evil.pie", PIE.as_bytes());
    z.stored("\\\\server\\share\\unc.pie", PIE.as_bytes());
    z.stored("sub\\..\\..\\up.pie", PIE.as_bytes());
    let wz = write(tmp.path(), "hostile.wz", &z.finish());

    let raw = |out: &Output| {
        out.stdout
            .iter()
            .chain(&out.stderr)
            .any(|b| *b == 0x1b || *b == 0x07)
    };
    let (out, stdout, stderr) = run(&["info".as_ref(), wz.as_os_str()]);
    let all = format!("{stdout}{stderr}");
    assert!(!raw(&out), "{all:?}");
    assert!(all.contains("hostile.wz!/good.pie: PIE version 3"), "{all}");
    assert!(
        all.contains("\\u{1b}[2J\\u{1b}]0;pwned\\u{7}evil.pie"),
        "{all}"
    );
    for (index, why) in [
        (0, "empty"),
        (1, "empty"),
        (3, "`:`"),
        (4, "control character"),
        (5, "absolute"),
        (6, "`..`"),
    ] {
        let line = all
            .lines()
            .find(|l| l.contains(&format!("entry {index} (local header at byte ")))
            .unwrap_or_else(|| panic!("entry {index} not reported: {all}"));
        assert!(line.contains(why), "{line}");
    }

    let (out, stdout, stderr) = run(&["check".as_ref(), wz.as_os_str()]);
    assert!(!raw(&out), "{stdout:?}{stderr:?}");
    assert!(stdout.contains("\\u{1b}[2J"), "{stdout}");

    let exported = tmp.path().join("exported");
    run(&[
        "export".as_ref(),
        wz.as_os_str(),
        "-o".as_ref(),
        exported.as_os_str(),
    ]);
    let written = files_under(&exported);
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(written[0].starts_with("good"), "{written:?}");
    let mut everywhere = files_under(tmp.path());
    everywhere.sort();
    assert_eq!(
        everywhere,
        ["exported/".to_string() + &written[0], "hostile.wz".into()]
    );
}
