//! A test says what it needs with `#[vitrine_test(shared)]`, `#[vitrine_test(gpu)]`,
//! `#[vitrine_test(game)]` or several (`#[vitrine_test(shared, gpu)]`, re-exported here);
//! the helpers that reach the shared corpus, a GPU or the installed game call [`require`],
//! which panics when the running test did not say so.
//!
//! Why both halves: the attribute makes libtest report the test as *ignored, needs …*
//! where the build script found no corpus, no adapter or no game (cfgs
//! `vitrine_no_shared`, `vitrine_no_gpu`, `vitrine_no_game`); [`require`] makes forgetting the attribute fail on every machine,
//! also where the corpus and a GPU are present, instead of passing there and failing (or,
//! worse, passing silently) where they are not.
//!
//! The declaration belongs to the test's thread. A thread the test starts gets it with
//! [`carry`]; a helper thread that reaches a GPU or the corpus without it panics like an
//! unmarked test.
//!
//! The places the tests' data is found (the shared corpus, the fixtures) are here too, the
//! same for every package's tests, with the build scripts' half ([`shared_cfg`],
//! [`game_cfg`]).

use std::cell::Cell;

mod places;

pub use places::{
    Rng, fixtures, game_bin, game_cfg, game_data, manifest, manifest_xyz, mapdb_cfg,
    mapdb_validator, shared_cfg, shared_dir, shared_path, synthetic, temp_dir, workspace, wz2100,
};
pub use vitrine_test_macros::vitrine_test;

/// Something a test can need that a fresh clone may not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// The shared corpus, `../shared/corpus` beside the checkout (`$VITRINE_SHARED`).
    Shared,
    /// A GPU adapter (a software one such as lavapipe or llvmpipe counts).
    Gpu,
    /// Warzone 2100 installed: its data (`base.wz`, `mp.wz`) and its program.
    Game,
    /// The map database's validator: Python 3 with `license_expression` (the
    /// database's pin), which `../shared/tools/mapdb/validate.py` imports.
    Mapdb,
}

impl Need {
    /// The word used in `#[vitrine_test(…)]`.
    pub fn word(self) -> &'static str {
        match self {
            Need::Shared => "shared",
            Need::Gpu => "gpu",
            Need::Game => "game",
            Need::Mapdb => "mapdb",
        }
    }
}

/// What one test declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// The test's name as written after `fn`.
    pub test: &'static str,
    /// It needs the shared corpus.
    pub shared: bool,
    /// It needs a GPU adapter.
    pub gpu: bool,
    /// It needs the installed game.
    pub game: bool,
    /// It needs the map database's validator.
    pub mapdb: bool,
}

impl Needs {
    /// Whether `need` was declared.
    pub fn has(&self, need: Need) -> bool {
        match need {
            Need::Shared => self.shared,
            Need::Gpu => self.gpu,
            Need::Game => self.game,
            Need::Mapdb => self.mapdb,
        }
    }

    /// Makes this the running thread's declaration until the returned guard drops.
    pub fn enter(self) -> Declared {
        Declared {
            previous: DECLARED.replace(Some(self)),
        }
    }
}

thread_local! {
    static DECLARED: Cell<Option<Needs>> = const { Cell::new(None) };
}

/// The running thread's declaration while it lives (the previous one comes back when it
/// drops, also when the test panics).
#[must_use = "the declaration ends when this drops"]
#[derive(Debug)]
pub struct Declared {
    previous: Option<Needs>,
}

impl Drop for Declared {
    fn drop(&mut self) {
        DECLARED.set(self.previous);
    }
}

/// Called by the `#[vitrine_test]` expansion at the top of the test's body.
#[doc(hidden)]
pub fn __enter(test: &'static str, shared: bool, gpu: bool, game: bool, mapdb: bool) -> Declared {
    Needs {
        test,
        shared,
        gpu,
        game,
        mapdb,
    }
    .enter()
}

/// The running thread's declaration, if it runs a `#[vitrine_test]` (or was [`carry`]d one).
pub fn current() -> Option<Needs> {
    DECLARED.get()
}

/// Wraps `f` so that it runs with this thread's declaration on whichever thread calls it:
/// `std::thread::spawn(carry(move || …))`.
pub fn carry<T>(f: impl FnOnce() -> T + Send) -> impl FnOnce() -> T + Send {
    let needs = current();
    move || {
        let _declared = needs.map(Needs::enter);
        f()
    }
}

/// Panics unless the running test declared `need`; `what` names what was reached (“the
/// shared corpus”, “a GPU device”). Call it from every helper that reaches one.
///
/// # Panics
/// With a message that names the attribute to add, when the thread runs no
/// `#[vitrine_test]` or one that did not name `need`.
#[track_caller]
pub fn require(need: Need, what: &str) {
    if let Err(message) = check(need, what) {
        panic!("{message}");
    }
}

/// [`require`]'s verdict without the panic.
pub fn check(need: Need, what: &str) -> Result<Needs, String> {
    let word = need.word();
    match current() {
        Some(needs) if needs.has(need) => Ok(needs),
        Some(needs) => {
            let mut all: Vec<&str> = [Need::Shared, Need::Gpu, Need::Game, Need::Mapdb]
                .into_iter()
                .filter(|n| needs.has(*n) || *n == need)
                .map(Need::word)
                .collect();
            all.dedup();
            Err(format!(
                "test `{}` reached {what} but did not declare it: mark this test \
                 #[vitrine_test({})] so it is reported as ignored where there is no {word}",
                needs.test,
                all.join(", ")
            ))
        }
        None => Err(format!(
            "{what} was reached by a test that did not declare it: mark this test \
             #[vitrine_test({word})] (instead of #[test]) so it is reported as ignored \
             where there is no {word}; a thread the test starts needs \
             vitrine_test_needs::carry"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undeclared_thread_is_refused_naming_the_attribute() {
        let e = check(Need::Shared, "the shared corpus").unwrap_err();
        assert!(e.contains("mark this test #[vitrine_test(shared)]"), "{e}");
    }

    #[test]
    fn a_test_that_declared_another_need_is_told_the_full_attribute() {
        let _d = __enter("t", false, true, false, false);
        let e = check(Need::Shared, "the shared corpus").unwrap_err();
        assert!(e.contains("#[vitrine_test(shared, gpu)]"), "{e}");
        assert!(check(Need::Gpu, "a GPU").is_ok());
    }

    #[test]
    #[allow(
        clippy::disallowed_methods,
        reason = "what is tested is a declaration travelling to a thread"
    )]
    fn the_declaration_ends_with_its_guard_and_travels_with_carry() {
        {
            let _d = __enter("t", true, false, false, false);
            let on_thread = std::thread::spawn(carry(|| current().map(|n| n.shared)));
            assert_eq!(on_thread.join().unwrap(), Some(true));
            let bare = std::thread::spawn(current);
            assert_eq!(bare.join().unwrap(), None, "not inherited without carry");
        }
        assert_eq!(current(), None);
    }
}
