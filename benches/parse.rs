//! Parse throughput: every `.pie` of the Warzone 2100 corpus (`../shared/corpus/wz2100`),
//! read into memory first, parsed single-threaded with `formats::parse` (no file system,
//! no texture lookup). Reports bytes per second. Without the corpus it says so and
//! measures the test fixtures instead.
//!
//! Run: `cargo bench --bench parse`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use vitrine::formats;
use vitrine::model::Format;

fn pie_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            pie_files(&p, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pie")) {
            out.push(p);
        }
    }
}

fn corpus() -> (String, Vec<Vec<u8>>) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("VITRINE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../shared"));
    let mut files = Vec::new();
    let mut label = "wz2100 corpus";
    pie_files(&shared.join("corpus/wz2100"), &mut files);
    if files.is_empty() {
        eprintln!(
            "NOTE: {} has no wz2100 corpus; benchmarking the PIE test fixtures instead",
            shared.display()
        );
        label = "pie fixtures";
        pie_files(&manifest.join("tests/fixtures/pie"), &mut files);
    }
    let data = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    (label.to_string(), data)
}

fn parse_corpus(c: &mut Criterion) {
    let (label, files) = corpus();
    let total: usize = files.iter().map(Vec::len).sum();
    eprintln!("{label}: {} files, {total} bytes", files.len());
    let options = formats::LoadOptions::default();
    let mut group = c.benchmark_group("pie");
    group.throughput(Throughput::Bytes(total as u64));
    group.bench_function(format!("parse {label}"), |b| {
        b.iter(|| {
            for f in &files {
                // Errors are results too (the fixtures include broken files).
                let _ = black_box(formats::parse(
                    Format::Pie,
                    black_box(f),
                    "bench.pie",
                    &options,
                ));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, parse_corpus);
criterion_main!(benches);
