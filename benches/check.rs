//! `vitrine check` throughput: the whole Warzone 2100 corpus (855 files, textures looked
//! up in its texpages/) and then `archives/mp.wz` over `data/base` (per-file rules plus
//! the mod-level stats checks), read from disk and the archive each pass, single-threaded,
//! exactly what `vitrine check` does without printing. Without the corpus it says so and
//! measures the check fixtures instead.
//!
//! Run: `cargo bench --bench check`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use vitrine::check::CheckOptions;
use vitrine::cli::check::check_inputs;
use vitrine::files::FileRef;

fn check_corpus(c: &mut Criterion) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("VITRINE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../shared"));
    let wz = shared.join("corpus/wz2100");
    let mut group = c.benchmark_group("check");
    group.sample_size(20);
    if wz.is_dir() {
        let base = CheckOptions {
            data_roots: vec![FileRef::Disk(wz.join("data/base"))],
            allow: Vec::new(),
        };
        let (f1, n1) = check_inputs(std::slice::from_ref(&wz), CheckOptions::default());
        let (f2, n2) = check_inputs(&[wz.join("archives/mp.wz")], base.clone());
        eprintln!(
            "corpus: {n1} files, {} findings; mp.wz: {n2} files, {} findings",
            f1.len(),
            f2.len()
        );
        group.bench_function("corpus + mp.wz", |b| {
            b.iter(|| {
                black_box(check_inputs(
                    std::slice::from_ref(&wz),
                    CheckOptions::default(),
                ));
                black_box(check_inputs(&[wz.join("archives/mp.wz")], base.clone()));
            })
        });
    } else {
        eprintln!(
            "NOTE: {} has no wz2100 corpus; benchmarking the check fixtures instead",
            shared.display()
        );
        let fixtures = manifest.join("tests/fixtures/check");
        group.bench_function("fixtures", |b| {
            b.iter(|| {
                black_box(check_inputs(
                    std::slice::from_ref(&fixtures),
                    CheckOptions::default(),
                ))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, check_corpus);
criterion_main!(benches);
