//! Running `game.js`: the context (limits, globals, the wrapped natives), the budgeted
//! evaluation, and errors turned into a [`LoadError`] with the script's line.

use super::api::{self, State};
use super::screen::{screen_syntax, screen_text};
use super::{LOOP_ITERATIONS, MAX_SLICES, RECURSION, SLICE_COST, STACK_VALUES, ScriptMap};
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;
use boa_engine::ast::scope::Scope;
use boa_engine::optimizer::OptimizerOptions;
use boa_engine::parser::Parser;
use boa_engine::{Context, JsError, JsString, Script, Source};
use std::future::Future;
use std::path::Path;
use std::sync::atomic::AtomicU32;
use std::task::{Poll, Waker};

/// The globals the game's limited context leaves out (`JS_NewLimitedContext` with only
/// base objects and Map/Set).
const REMOVED: &[&str] = &[
    "Date",
    "eval",
    "RegExp",
    "JSON",
    "Proxy",
    "Promise",
    "BigInt",
    "WeakRef",
    "FinalizationRegistry",
    "ArrayBuffer",
    "SharedArrayBuffer",
    "DataView",
    "Atomics",
    "Int8Array",
    "Uint8Array",
    "Uint8ClampedArray",
    "Int16Array",
    "Uint16Array",
    "Int32Array",
    "Uint32Array",
    "Float32Array",
    "Float64Array",
    "BigInt64Array",
    "BigUint64Array",
];

/// Wraps the natives whose work grows with a length (see the module's Bounds). Runs
/// before the script, in the script's realm; `__vitrine_charge` is removed after.
const GUARDS: &str = r#"(() => {
  const charge = globalThis.__vitrine_charge;
  const wrap = (owner, name, size, builds) => {
    const inner = owner[name];
    if (typeof inner !== 'function') return;
    const guarded = { [name](...args) { charge(size(this, args), builds); return Reflect.apply(inner, this, args); } }[name];
    Object.defineProperty(owner, name, { value: guarded, writable: true, configurable: true, enumerable: false });
  };
  const own = (self) => (self == null ? 0 : Number(self.length) || 0);
  for (const name of ['fill', 'map', 'filter', 'join', 'slice', 'splice', 'concat', 'flat', 'flatMap',
    'toString', 'toReversed', 'toSorted', 'toSpliced', 'with']) {
    wrap(Array.prototype, name, own, true);
  }
  for (const name of ['forEach', 'reduce', 'reduceRight', 'some', 'every', 'find', 'findIndex',
    'findLast', 'findLastIndex', 'indexOf', 'lastIndexOf', 'includes', 'reverse', 'sort', 'copyWithin']) {
    wrap(Array.prototype, name, own, false);
  }
  wrap(Array, 'from', (_, args) => own(args[0]), true);
  wrap(String.prototype, 'repeat', (self, args) => String(self).length * (Number(args[0]) || 0), true);
  wrap(String.prototype, 'padStart', (_, args) => Number(args[0]) || 0, true);
  wrap(String.prototype, 'padEnd', (_, args) => Number(args[0]) || 0, true);
})();"#;

/// How a run is bounded: by Boa's instruction budget (in this process), or by its host
/// (see [`super::run_script_watched`]), told the line the script was last seen on.
enum Metering {
    Budget(u64),
    Watched(&'static AtomicU32),
}

/// [`super::run_script`] in Boa, with the full work budget.
pub(super) fn run_script(source: &[u8], seed: u32, players: u32) -> Result<ScriptMap, LoadError> {
    run(source, seed, players, Metering::Budget(MAX_SLICES))
}

/// [`run_script`] with a work budget of `max_slices` (the tests' short one).
#[cfg(test)]
pub(super) fn run_limited(
    source: &[u8],
    seed: u32,
    players: u32,
    max_slices: u64,
) -> Result<ScriptMap, LoadError> {
    run(source, seed, players, Metering::Budget(max_slices))
}

/// [`super::run_script_watched`].
pub(super) fn run_watched(
    source: &[u8],
    seed: u32,
    players: u32,
    line: &'static AtomicU32,
) -> Result<ScriptMap, LoadError> {
    run(source, seed, players, Metering::Watched(line))
}

fn run(source: &[u8], seed: u32, players: u32, metering: Metering) -> Result<ScriptMap, LoadError> {
    screen_text(source)?;
    // A clock that stands still: Boa's default reads `Instant::now` when the context is
    // made, which panics on wasm32 without a host clock (the page), and the core reads no
    // clock. The script has no `Date` to see it anyway.
    let mut context = Context::builder()
        .clock(std::rc::Rc::new(
            boa_engine::context::time::FixedClock::default(),
        ))
        .build()
        .map_err(|e| refusal(&e, "setting up the script's context"))?;
    let limits = context.runtime_limits_mut();
    limits.set_loop_iteration_limit(LOOP_ITERATIONS);
    limits.set_recursion_limit(RECURSION);
    limits.set_stack_size_limit(STACK_VALUES);
    let watch = match &metering {
        Metering::Watched(line) => Some(*line),
        Metering::Budget(_) => None,
    };
    context.insert_data(State::new(seed, players, watch));
    prepare(&mut context).map_err(|e| refusal(&e, "setting up the script's context"))?;
    // The syntax screen first: compiling folds constants (a BigInt power) before any
    // budget counts, so the script is compiled only once screened, and unfolded.
    let ast = Parser::new(Source::from_bytes(source))
        .parse_script(&Scope::new_global(), context.interner_mut())
        .map_err(|e| syntax(&e))?;
    screen_syntax(&ast)?;
    drop(ast);
    context.set_optimizer_options(OptimizerOptions::empty());
    let script = Script::parse(
        Source::from_bytes(source).with_path(Path::new("game.js")),
        None,
        &mut context,
    )
    .map_err(|e| syntax(&e))?;
    let slices = match metering {
        Metering::Budget(max_slices) => evaluate(&script, &mut context, max_slices)?,
        Metering::Watched(_) => {
            script
                .evaluate(&mut context)
                .map_err(|e| refusal(&e, "the script stopped"))?;
            0
        }
    };
    let state = context.remove_data::<State>().ok_or_else(|| {
        LoadError::new(ErrorKind::Invalid, Location::File, "lost the script state")
    })?;
    let mut map = state.into_map()?;
    map.slices = slices;
    Ok(map)
}

/// Globals, the game's API, the removed builtins and the wrapped natives.
fn prepare(context: &mut Context) -> Result<(), JsError> {
    let global = context.global_object();
    for name in REMOVED {
        global.delete_property_or_throw(JsString::from(*name), context)?;
    }
    // The methods that make a regular expression from a string (the game has none).
    let string_prototype = context.intrinsics().constructors().string().prototype();
    for name in ["match", "matchAll", "search"] {
        string_prototype.delete_property_or_throw(JsString::from(name), context)?;
    }
    api::register(context)?;
    context.eval(Source::from_bytes(GUARDS))?;
    global.delete_property_or_throw(JsString::from("__vitrine_charge"), context)?;
    Ok(())
}

/// Evaluates in slices of [`SLICE_COST`]; stops after `max_slices`.
fn evaluate(script: &Script, context: &mut Context, max_slices: u64) -> Result<u64, LoadError> {
    let mut slices = 1u64;
    let outcome = {
        let mut run = std::pin::pin!(script.evaluate_async_with_budget(context, SLICE_COST));
        let mut cx = std::task::Context::from_waker(Waker::noop());
        loop {
            match run.as_mut().poll(&mut cx) {
                Poll::Ready(r) => break Some(r),
                Poll::Pending => {
                    slices += 1;
                    if slices >= max_slices {
                        break None;
                    }
                }
            }
        }
    };
    match outcome {
        None => Err(LoadError::new(
            ErrorKind::Invalid,
            Location::File,
            format!(
                "ran past the work budget ({max_slices} slices of {SLICE_COST} instruction \
                 costs) without finishing: an endless loop?"
            ),
        )),
        Some(Err(e)) => Err(refusal(&e, "the script stopped")),
        Some(Ok(_)) => Ok(slices),
    }
}

/// The line in Boa's text of an error: the first `game.js:LINE` (its position or
/// backtrace), else a parser's `at line LINE`.
fn line_of(text: &str) -> Option<u32> {
    let after = |mark: &str| {
        let at = text.find(mark)?;
        let digits: String = text[at + mark.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
    after("game.js:").or_else(|| after("at line "))
}

fn located(text: &str) -> Location {
    line_of(text).map_or(Location::File, Location::Line)
}

fn syntax(e: &dyn std::fmt::Display) -> LoadError {
    let text = e.to_string();
    LoadError::new(
        ErrorKind::Syntax,
        located(&text),
        format!("syntax error: {}", first_line(&text)),
    )
}

fn refusal(e: &JsError, what: &str) -> LoadError {
    let text = e.to_string();
    if text.starts_with("RuntimeLimitError") {
        return LoadError::new(
            ErrorKind::Invalid,
            located(&text),
            format!(
                "{what}: a limit of map scripts was reached: at most {LOOP_ITERATIONS} loop \
                 iterations in one function call and {RECURSION} nested calls ({})",
                first_line(&text)
            ),
        );
    }
    if let Some(helper) = newer_helper(&text) {
        return LoadError::new(
            ErrorKind::Unsupported,
            located(&text),
            format!(
                "{what}: the script calls {helper}, a map-script helper that Warzone 2100 \
                 4.3.3 does not have (a later version of the game added it): a newer game is \
                 needed to generate this map, and 4.3.3 refuses it too ({})",
                first_line(&text)
            ),
        );
    }
    LoadError::new(
        ErrorKind::Invalid,
        located(&text),
        format!("{what}: {}", first_line(&text)),
    )
}

/// Map-script helpers later games added to the API of 4.3.3 (whose `map_script.cpp`
/// registers only `gameRand`, `log` and `setMapData`).
const NEWER_HELPERS: &[&str] = &["generateFractalValueNoise"];

/// The newer helper a `ReferenceError` is about, if it is about one.
fn newer_helper(text: &str) -> Option<&'static str> {
    let first = first_line(text);
    if !first.contains("ReferenceError") {
        return None;
    }
    NEWER_HELPERS.iter().copied().find(|h| {
        first.match_indices(h).any(|(i, _)| {
            !first[i + h.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        })
    })
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or(text).trim()
}
