//! The build script's view of `../shared/corpus` is the disk's: a build made without it
//! reports the tests that need it as ignored, and must not go on doing so once it is
//! there (nor the other way round).

use crate::common;

#[test]
fn the_build_saw_the_shared_corpus_as_it_is_now() {
    let corpus = common::shared_path().join("corpus");
    if cfg!(vitrine_no_shared) {
        assert!(
            !corpus.is_dir(),
            "the tests were built without {} and it is there now: `touch build.rs` to run \
             the tests that need it",
            corpus.display()
        );
    } else {
        assert!(
            corpus.is_dir(),
            "the tests were built with {} and it is gone: put it back, or `touch build.rs` \
             to report the tests that need it as ignored",
            corpus.display()
        );
    }
}
