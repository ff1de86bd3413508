//! `vitrine convert`'s work on the whole Warzone 2100 corpus (`../shared/corpus/wz2100/
//! data`, 855 models) → PIE 4, single-threaded: parse the bytes (read once, before
//! timing), write PIE 4 (`export::pie`), read the text back and check it with the
//! `vitrine check` rules (texture pages and EVENT models looked up in the corpus on
//! disk, page headers read once per run of the checker), and write the file through
//! `files::atomic` (no fsync per file, as a batch does) into a temporary folder.
//! Throughput is models per second. `vitrine convert` runs this on one thread per core.
//!
//! Run: `cargo bench --no-default-features --bench pie_convert` (no renderer needed).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::{Path, PathBuf};
use vitrine::check::{CheckOptions, Checker};
use vitrine::export::pie::{self, PieOptions, PieVersion};
use vitrine::files::{self, FileRef, atomic, walk::walk};
use vitrine::formats::{self, LoadOptions};
use vitrine::model::Format;

/// A corpus model: where it is, its path under `data/`, its bytes.
type Input = (FileRef, String, Vec<u8>);

fn corpus() -> Option<(PathBuf, Vec<Input>)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("VITRINE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../shared"));
    let data = shared.join("corpus/wz2100/data");
    if !data.is_dir() {
        eprintln!("SKIPPED: {} not found (the shared corpus)", data.display());
        return None;
    }
    let found = walk(std::slice::from_ref(&data), |n| {
        n.to_ascii_lowercase().ends_with(".pie")
    });
    let base = FileRef::parse(&data);
    let files = found
        .files
        .iter()
        .map(|f| {
            let rel = f.relative_to(&base).unwrap_or_else(|| f.file_name());
            (f.clone(), rel, files::read(f).unwrap())
        })
        .collect();
    Some((data, files))
}

fn convert(c: &mut Criterion) {
    let Some((data, models)) = corpus() else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let options = PieOptions {
        version: PieVersion::V4,
        ..PieOptions::default()
    };
    let roots = vec![
        FileRef::parse(&data.join("mp")),
        FileRef::parse(&data.join("base")),
    ];
    let mut group = c.benchmark_group("pie_convert");
    group.sample_size(10);
    group.throughput(Throughput::Elements(models.len() as u64));
    group.bench_function("corpus_to_pie4", |b| {
        b.iter(|| {
            let mut checker = Checker::new(CheckOptions {
                data_roots: roots.clone(),
                allow: Vec::new(),
            });
            for (file, rel, bytes) in &models {
                let model =
                    formats::parse(Format::Pie, bytes, rel, &LoadOptions::default()).unwrap();
                let written = pie::write(&model, &options).unwrap();
                let target = out.path().join(rel);
                let shown = target.display().to_string();
                let near = [file.clone(), FileRef::parse(&target)];
                let checked =
                    checker.check_bytes(Format::Pie, written.text.as_bytes(), &shown, &near);
                assert!(checked.model.is_some(), "{rel}");
                atomic::write_unsynced(&target, written.text.as_bytes()).unwrap();
            }
        });
    });
    group.finish();
}

criterion_group!(benches, convert);
criterion_main!(benches);
