//! Script-generated maps (WZ 4.0+): a `game.js` that computes the terrain and the objects
//! and hands them to `setMapData`, run here in Boa (a JavaScript engine in pure Rust) as
//! the game runs it in QuickJS (`runMapScript` in `lib/wzmaplib/src/map_script.cpp`).
//!
//! What the script sees (the game's map-script API, `api.rs`): `gameRand([mod])` (the
//! game's `std::mt19937` seeded with the map's seed: `rand_mt`), `log(value)`,
//! `setMapData(width, height, texture, height, structures, droids, features)` with the
//! game's checks, and the constants `preview`, `XFLIP`, `YFLIP`, `ROTMASK`, `ROTSHIFT`,
//! `TRIFLIP`. The game's context has no `Date`, `eval`, `RegExp`, `JSON`, `Proxy`,
//! `Promise`, `BigInt`, `WeakRef` or typed arrays; they are removed here too, so the
//! core reads no clock. `Math.random` (which no shipped map calls, and which differs on
//! every run in the game) draws from a generator of its own with the same seed, so a
//! Vitrine run is repeatable.
//!
//! The seed: the game draws a new one for every game it starts (`mapSeed = gameRandU32()`
//! in `src/game.cpp`, logged as "Loaded script-generated map … with random seed: N"), so
//! the same map differs from game to game. [`crate::map::Level::seed`] chooses it;
//! [`DEFAULT_SEED`] unless the caller says.
//!
//! Bounds (deterministic: no clock, no thread; each a refusal naming `game.js`):
//! - **Work**: the script runs in slices of [`SLICE_COST`] of Boa's instruction costs
//!   (`Script::evaluate_async_with_budget`, polled here with no executor); after
//!   [`MAX_SLICES`] slices it is stopped. This bounds every bytecode instruction of the
//!   script, its functions included.
//! - **Loops run by native code** (callbacks of `forEach`, `map`, `sort`…): Boa's loop
//!   iteration limit ([`LOOP_ITERATIONS`] per call frame) and recursion limit
//!   ([`RECURSION`]), and its value stack ([`STACK_VALUES`]).
//! - **Memory**: every bytecode instruction allocates a bounded amount, except natives
//!   whose work grows with an array's length or a count. Those (`Array.from`; the
//!   `Array.prototype` methods that walk `this`: `fill`, `map`, `join`, `slice`, `concat`,
//!   `forEach`, `indexOf`, …; `String.prototype.repeat`, `padStart`, `padEnd`) are wrapped
//!   before the script runs: each refuses a length over [`MAX_LENGTH`], and those that
//!   build (`fill`, `map`, `slice`, `join`, `repeat`, …) charge the length to a budget of
//!   [`MAX_ELEMENTS`] for the whole run, freed or not. So what a script can allocate is
//!   bounded by the work budget times a constant plus [`MAX_ELEMENTS`] values. The bound
//!   is coarse (not the game's 100 MiB `JS_SetMemoryLimit`, which Boa cannot measure); the
//!   shipped maps build at most a few hundred thousand elements.
//!
//! Not here: `generateFractalValueNoise` (a newer API than 4.3.3's; no shipped map calls
//! it): a script calling it stops with a `ReferenceError`.

#[cfg(feature = "script")]
mod api;
#[cfg(feature = "script")]
mod run;
#[cfg(all(test, feature = "script"))]
mod tests;
pub mod wire;

use crate::formats::LoadError;
use crate::map::MapObject;

/// Runs `source` (the bytes of `game.js`) with `seed`; `players` is the level's player
/// count (a player number equal to `max(players, 7)` is the scavengers, as in BJO files).
/// In Boa where the core's `script` feature builds it in; else in the engine the host
/// installed ([`crate::engines::install_script`]: the page's `vitrine_script` module).
///
/// # Errors
/// A syntax error, an uncaught throw, a budget exceeded, `setMapData` never called or
/// given the wrong shapes: each a [`LoadError`] at the script's line where Boa gives one;
/// without a built-in engine, the installed engine's refusal.
pub fn run_script(source: &[u8], seed: u32, players: u32) -> Result<ScriptMap, LoadError> {
    #[cfg(feature = "script")]
    {
        run::run_script(source, seed, players)
    }
    #[cfg(not(feature = "script"))]
    {
        crate::engines::run_installed_script(source, seed, players)
    }
}

/// What a script gave to `setMapData`, as the game keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptMap {
    /// Tiles east.
    pub width: u32,
    /// Tiles south.
    pub height: u32,
    /// Tile textures, row-major.
    pub textures: Vec<u16>,
    /// Corner heights in world units (over 510 capped, as the game does).
    pub heights: Vec<i32>,
    /// Droids, then features, then structures: the game's load order.
    pub objects: Vec<MapObject>,
    /// The script's `log` lines and the game's non-fatal complaints (capped heights).
    pub notes: Vec<String>,
    /// The work the script took: slices of [`SLICE_COST`] instruction costs begun.
    pub slices: u64,
    /// Elements and string units the wrapped natives built (of [`MAX_ELEMENTS`]).
    pub elements: u64,
}

/// The seed a script map is run with unless the caller chooses one: `std::mt19937`'s own
/// default seed. The game picks a new seed for every game.
pub const DEFAULT_SEED: u32 = 5489;

/// Boa instruction cost per slice.
pub const SLICE_COST: u32 = 100_000;
/// Slices a script may run: ten times what the longest shipped map needs (6c-Entropy,
/// about 2,000). An endless script stops after about 2·10⁹ instruction costs: seconds
/// in an optimised build, minutes in an unoptimised one.
pub const MAX_SLICES: u64 = 20_000;
/// Loop iterations per call frame (Boa's `RuntimeLimits`).
pub const LOOP_ITERATIONS: u64 = 50_000_000;
/// Nested calls (Boa's `RuntimeLimits`).
pub const RECURSION: usize = 1024;
/// Values on Boa's stack.
pub const STACK_VALUES: usize = 1 << 16;
/// The longest array or string a wrapped native may walk or build.
pub const MAX_LENGTH: u64 = 1 << 20;
/// Array elements and string units the wrapped natives that build may build in one run.
pub const MAX_ELEMENTS: u64 = 1 << 24;
