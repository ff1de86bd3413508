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

/// Model files under `dir`, through the app's one folder walk.
fn expand_inputs(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let walk = vitrine::files::walk::walk(dirs, formats::is_model_name);
    walk.files
        .into_iter()
        .filter_map(|f| f.as_disk().map(Path::to_path_buf))
        .collect()
}

fn corpus() -> (String, Vec<Vec<u8>>) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("VITRINE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../shared"));
    let mut files = Vec::new();
    let mut label = "wz2100 corpus";
    files.extend(expand_inputs(&[shared.join("corpus/wz2100")]));
    if files.is_empty() {
        eprintln!(
            "NOTE: {} has no wz2100 corpus; benchmarking the PIE test fixtures instead",
            shared.display()
        );
        label = "pie fixtures";
        files.extend(expand_inputs(&[manifest.join("tests/fixtures/pie")]));
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
