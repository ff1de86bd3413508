//! `vitrine convert`'s work on the whole Warzone 2100 corpus (`../shared/corpus/wz2100/
//! data`, 855 models) → PIE 4, single-threaded: parse the bytes (read once, before
//! timing), write PIE 4 (`export::pie`), read the text back and check it with the
//! `vitrine check` rules (texture pages and EVENT models looked up in the corpus on
//! disk, page headers read once per run of the checker), and write the file through
//! `files::atomic` (no fsync per file, as a batch does) into a temporary folder.
//! Throughput is models per second. `vitrine convert` runs this on one thread per core.
//! `gltf_to_pie4`: the same models exported as `.glb` first (not timed; pages packed
//! inside), then each loaded from its file (`formats::load_path`: the glTF loader, pages
//! resolved as embedded images) and written, checked and saved as above.
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
    let base = vitrine::files::parse(&data);
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
        vitrine::files::parse(&data.join("mp")),
        vitrine::files::parse(&data.join("base")),
    ];
    let mut group = c.benchmark_group("pie_convert");
    group.sample_size(10);
    group.throughput(Throughput::Elements(models.len() as u64));
    group.bench_function("corpus_to_pie4", |b| {
        b.iter(|| {
            let mut checker = Checker::new(
                vitrine::files::disk(),
                CheckOptions {
                    data_roots: roots.clone(),
                    allow: Vec::new(),
                },
            );
            for (file, rel, bytes) in &models {
                let model =
                    formats::parse(Format::Pie, bytes, rel, &LoadOptions::default()).unwrap();
                let written = pie::write(&model, &options).unwrap();
                let target = out.path().join(rel);
                let shown = target.display().to_string();
                let near = [file.clone(), vitrine::files::parse(&target)];
                let checked =
                    checker.check_bytes(Format::Pie, written.text.as_bytes(), &shown, &near);
                assert!(checked.model.is_some(), "{rel}");
                atomic::write_unsynced(&target, written.text.as_bytes()).unwrap();
            }
        });
    });
    let gltf = tempfile::tempdir().unwrap();
    let mut cache = vitrine::export::gltf::ImageCache::new(vitrine::files::disk());
    let exported: Vec<(PathBuf, String)> = models
        .iter()
        .map(|(file, rel, _)| {
            let model = formats::load(file, &LoadOptions::default()).unwrap();
            let options = vitrine::export::gltf::ExportOptions::default();
            let doc = vitrine::export::gltf::export(&model, &options, &mut cache).unwrap();
            let path = gltf.path().join(rel).with_extension("glb");
            vitrine::export::gltf::writer::write(doc, &path).unwrap();
            (path, rel.clone())
        })
        .collect();
    group.bench_function("gltf_to_pie4", |b| {
        b.iter(|| {
            let mut checker = Checker::new(
                vitrine::files::disk(),
                CheckOptions {
                    data_roots: roots.clone(),
                    allow: Vec::new(),
                },
            );
            for (path, rel) in &exported {
                let model = formats::load_path(path, &LoadOptions::default()).unwrap();
                let target = out.path().join("gltf").join(rel);
                let shown = target.display().to_string();
                let near = [vitrine::files::parse(path), vitrine::files::parse(&target)];
                let checked =
                    pie::write_checked(&model, &options, &mut checker, &near, &shown).unwrap();
                // As `vitrine convert`: a model the check stops is not written.
                if !checked.blocked() {
                    atomic::write_unsynced(&target, checked.written.text.as_bytes()).unwrap();
                }
            }
        });
    });
    group.finish();
}

criterion_group!(benches, convert);
criterion_main!(benches);
