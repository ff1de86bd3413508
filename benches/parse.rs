//! Parse throughput per format, from memory, single-threaded with `formats::parse` (no
//! file system, no texture lookup): every `.pie` of the Warzone 2100 corpus
//! (`../shared/corpus/wz2100`) and every PMF, PET-family and TPM file of the synthetic
//! corpus (`../shared/corpus/synthetic/{pmf,pet,tpm}`; PET-family parts each parsed on
//! their own). Each format is measured twice over the same pass: `bytes` reports bytes
//! per second (so the formats compare per byte), `files` files per second. Without the
//! corpus it says so and measures the PIE test fixtures only.
//!
//! Run: `cargo bench --bench parse` (`-- pet` for one format); the loaders need no GPU:
//! `cargo bench --no-default-features --bench parse` skips building the renderer.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use vitrine::files::{self, walk::walk};
use vitrine::formats;

/// (file name, bytes) of each file.
type Files = Vec<(String, Vec<u8>)>;

/// (file name, bytes) of every model file below `dir` the loader of `ext` reads.
fn files_below(dir: &Path, exts: &[&str]) -> Files {
    let found = walk(&[dir.to_path_buf()], |n| {
        let n = n.to_ascii_lowercase();
        exts.iter().any(|e| n.ends_with(&format!(".{e}")))
    });
    found
        .files
        .iter()
        .map(|f| {
            let name = f.file_name().to_string();
            (name, files::read(f).unwrap())
        })
        .collect()
}

/// (bench group, corpus label, files) per format.
fn corpora() -> Vec<(&'static str, String, Files)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("VITRINE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../shared"));
    let synthetic = shared.join("corpus/synthetic");
    let mut out = vec![
        (
            "pie",
            "wz2100 corpus".to_string(),
            files_below(&shared.join("corpus/wz2100"), &["pie"]),
        ),
        (
            "pmf",
            "synthetic".to_string(),
            files_below(&synthetic.join("pmf"), &["pmf"]),
        ),
        (
            "pet",
            "synthetic".to_string(),
            files_below(&synthetic.join("pet"), &["pet", "bpet", "mpet", "apet"]),
        ),
        (
            "tpm",
            "synthetic".to_string(),
            files_below(&synthetic.join("tpm"), &["tpm"]),
        ),
    ];
    out.retain(|(_, _, files)| !files.is_empty());
    if out.is_empty() {
        eprintln!(
            "NOTE: {} has no corpus; benchmarking the PIE test fixtures instead",
            shared.display()
        );
        let fixtures = files_below(&manifest.join("tests/fixtures/pie"), &["pie"]);
        out.push(("pie", "pie fixtures".to_string(), fixtures));
    }
    out
}

fn parse_corpora(c: &mut Criterion) {
    let options = formats::LoadOptions::default();
    for (group_name, label, files) in corpora() {
        let total: usize = files.iter().map(|(_, b)| b.len()).sum();
        eprintln!("{group_name} {label}: {} files, {total} bytes", files.len());
        let mut group = c.benchmark_group(group_name);
        let pass = || {
            for (name, bytes) in &files {
                let format = formats::format_for_path(Path::new(name)).unwrap();
                // Errors are results too (the fixtures include broken files).
                let _ = black_box(formats::parse(format, black_box(bytes), name, &options));
            }
        };
        group.throughput(Throughput::Bytes(total as u64));
        group.bench_function(format!("bytes {label}"), |b| b.iter(pass));
        group.throughput(Throughput::Elements(files.len() as u64));
        group.bench_function(format!("files {label}"), |b| b.iter(pass));
        group.finish();
    }
}

criterion_group!(benches, parse_corpora);
criterion_main!(benches);
