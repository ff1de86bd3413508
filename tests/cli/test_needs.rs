//! The check that keeps `cargo test` honest: a test that reaches the shared corpus or a
//! GPU without `#[vitrine_test(shared)]` / `#[vitrine_test(gpu)]` fails — here, where the
//! corpus and an adapter may both be present, as on a machine without them — with a
//! message naming the attribute to add. If these break, an unmarked test would pass
//! where the corpus is present and fail (or pass by returning early) where it is not.

use crate::common;
use vitrine_test_needs::vitrine_test;

/// The panic message of `f`, which must panic.
fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let payload = std::panic::catch_unwind(f).expect_err("it panics");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn an_unmarked_test_reaching_the_corpus_fails_naming_the_attribute() {
    for (what, reach) in [
        ("shared_dir", (|| drop(common::shared_dir())) as fn()),
        ("wz2100", || drop(common::wz2100())),
        ("synthetic", || drop(common::synthetic())),
    ] {
        let message = panic_message(reach);
        assert!(
            message.contains("mark this test #[vitrine_test(shared)]"),
            "{what}: {message}"
        );
    }
}

#[test]
fn an_unmarked_test_reaching_a_gpu_fails_naming_the_attribute() {
    for (what, reach) in [
        ("gpu", (|| drop(common::gpu())) as fn()),
        ("needs_gpu", common::needs_gpu),
        ("no_gpu", || common::no_gpu("exit code 3")),
    ] {
        let message = panic_message(reach);
        assert!(
            message.contains("mark this test #[vitrine_test(gpu)]"),
            "{what}: {message}"
        );
    }
}

/// A test that declared one need and reaches the other is told the whole attribute.
/// Marked `shared` so the declaration is real (the attribute's own expansion); without
/// the corpus it is reported as ignored like every `shared` test.
#[vitrine_test(shared)]
fn a_test_marked_shared_reaching_a_gpu_is_told_to_add_gpu() {
    assert!(common::shared_dir().join("corpus").is_dir());
    let message = panic_message(|| drop(common::gpu()));
    assert!(
        message.contains("mark this test #[vitrine_test(shared, gpu)]"),
        "{message}"
    );
}

/// A thread the test starts has no declaration of its own; `carry` gives it the test's.
#[vitrine_test(shared)]
fn a_thread_started_by_a_marked_test_reaches_the_corpus_only_with_carry() {
    let bare = std::thread::spawn(|| panic_message(|| drop(common::shared_dir())));
    assert!(bare.join().unwrap().contains("vitrine_test_needs::carry"));
    let carried = std::thread::spawn(vitrine_test_needs::carry(common::shared_dir));
    assert!(carried.join().unwrap().join("corpus").is_dir());
}
