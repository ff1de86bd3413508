//! The engines only some maps need, fetched when a map first asks for one: the script
//! engine (`vitrine_script`: Boa, a script map's `game.js`) and the KTX2 transcoder
//! (`vitrine_ktx2`: basisu, 4.x ground textures). Each is a wasm module of its own
//! (`web/engines/`), loaded by `vitrine_engines.js` with a dynamic `import()`; the page's
//! own `.wasm` leaves both out (the core without its `script` and `ktx2` features), so a
//! page that shows models never downloads them.
//!
//! [`install`] gives the core ([`vitrine_core::engines`]) functions that call the module
//! once it is there. Until then a call starts its fetch and refuses; the job that asked
//! sees [`EngineFetch::wanting`] (as it sees bytes of a remote archive that have not
//! arrived), waits for the module and runs again ([`vitrine_app::jobs::Refetch`]). A
//! module that cannot be fetched makes every later call refuse with why.
//!
//! A map's `game.js` never runs on the page's thread: it runs in the script engine's Web
//! Worker (`vitrine_engines.js`), under the engine's memory cap
//! ([`vitrine_core::map::script::MEMORY_CAP`]) and the page's time limit
//! ([`SCRIPT_SECONDS`]). The first call for a script starts its run and refuses as a
//! call for an engine not yet there does; the job runs again once the worker has answered,
//! and finds the answer ([`Run`]).

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use vitrine_app::jobs::{Job, Refetch};
use vitrine_core::engines::{BasisInfo, Transcode};
use vitrine_core::formats::{ErrorKind, LoadError};
use vitrine_core::map::script::{self, ScriptMap, wire};
use vitrine_core::model::Location;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./vitrine_engines.js")]
extern "C" {
    #[wasm_bindgen(js_name = loadEngine)]
    fn load_engine(name: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = runScript)]
    fn js_run_script(source: &[u8], seed: u32, players: u32, seconds: u32) -> js_sys::Promise;
    #[wasm_bindgen(js_name = basisDescribe, catch)]
    fn js_basis_describe(bytes: &[u8]) -> Result<Vec<u32>, JsValue>;
    #[wasm_bindgen(js_name = basisTranscode, catch)]
    fn js_basis_transcode(bytes: &[u8], level: u32) -> Result<Vec<u8>, JsValue>;
}

/// One of the engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    Script,
    Ktx2,
}

impl Engine {
    const ALL: [Engine; 2] = [Engine::Script, Engine::Ktx2];

    /// Its name in `vitrine_engines.js` (`vitrine_NAME.js`).
    fn name(self) -> &'static str {
        match self {
            Engine::Script => "script",
            Engine::Ktx2 => "ktx2",
        }
    }

    /// What it is, for a message.
    fn what(self) -> &'static str {
        match self {
            Engine::Script => "the JavaScript engine for map scripts (vitrine_script)",
            Engine::Ktx2 => "the KTX2 ground-texture transcoder (vitrine_ktx2)",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Where an engine's module is.
enum State {
    Absent,
    /// Being fetched; the jobs waiting for it.
    Loading(Vec<Job>),
    Ready,
    Failed(String),
}

/// The wall clock a map script may take on the page, seconds (the page cannot read a
/// worker's processor time): 6c-Entropy, the heaviest shipped script, takes 3.3 s in
/// headless Chromium here (`web/tests/bench_scripts.mjs`; 1.7 s of processor time in the
/// program), 10c-WaterLoop 1.5 s, the others under 0.3 s.
pub const SCRIPT_SECONDS: u32 = 10;
/// Script runs kept answered, for the jobs that run again to find.
const KEPT_RUNS: usize = 4;

/// A script's run in the worker: what it ran, and its answer once there.
struct Run {
    source: Vec<u8>,
    seed: u32,
    players: u32,
    /// `None` while the worker runs it; the jobs waiting for it.
    answer: Option<Result<ScriptMap, LoadError>>,
    waiting: Vec<Job>,
}

impl Run {
    /// Whether this is the run of `source` with `seed` for `players`.
    fn of(&self, source: &[u8], seed: u32, players: u32) -> bool {
        self.seed == seed && self.players == players && self.source == source
    }
}

thread_local! {
    static STATES: RefCell<[State; 2]> = const { RefCell::new([State::Absent, State::Absent]) };
    static RUNS: RefCell<Vec<Run>> = const { RefCell::new(Vec::new()) };
    /// A call since the last [`EngineFetch::fetch_then`] found an engine not there yet.
    static ASKED: Cell<bool> = const { Cell::new(false) };
}

/// Gives the core the page's engines: each fetched on its first use.
pub fn install() {
    let _ = vitrine_core::engines::install_script(run_script);
    let _ = vitrine_core::engines::install_transcoder(Transcode {
        describe: basis_describe,
        level: basis_transcode,
    });
    let _ = vitrine_core::engines::install_transcoder_hint(|| prefetch(Engine::Ktx2));
}

/// Starts fetching `engine` if it is not there or on its way: a map's scene says its
/// pages will want the transcoder, which then arrives beside the map's other bytes
/// instead of after them. No job waits for it until one asks ([`need`]).
fn prefetch(engine: Engine) {
    STATES.with_borrow_mut(|s| {
        if matches!(s[engine.index()], State::Absent) {
            s[engine.index()] = State::Loading(Vec::new());
            wasm_bindgen_futures::spawn_local(fetch(engine));
        }
    });
}

/// `Ok` when `engine` is there; else starts its fetch (once) and says it is not yet, or
/// why it cannot be.
fn need(engine: Engine) -> Result<(), String> {
    let start = STATES.with_borrow_mut(|s| match &s[engine.index()] {
        State::Ready => Ok(false),
        State::Failed(why) => Err(why.clone()),
        State::Loading(_) => Ok(true),
        State::Absent => {
            s[engine.index()] = State::Loading(Vec::new());
            wasm_bindgen_futures::spawn_local(fetch(engine));
            Ok(true)
        }
    })?;
    if !start {
        return Ok(());
    }
    ASKED.set(true);
    Err(format!("{} is being fetched", engine.what()))
}

/// Fetches `engine`'s module, then runs the jobs that waited for it.
async fn fetch(engine: Engine) {
    let loaded = wasm_bindgen_futures::JsFuture::from(load_engine(engine.name())).await;
    let state = match loaded {
        Ok(_) => State::Ready,
        Err(e) => State::Failed(format!(
            "{} could not be fetched: {}",
            engine.what(),
            crate::fetch::js_text(&e)
        )),
    };
    if let State::Failed(why) = &state {
        log::error!("{why}");
    }
    let waiting =
        STATES.with_borrow_mut(|s| match std::mem::replace(&mut s[engine.index()], state) {
            State::Loading(jobs) => jobs,
            _ => Vec::new(),
        });
    for job in waiting {
        job();
    }
}

/// Runs `then` once no engine is being fetched and no script is being run.
fn when_fetched(then: Job) {
    let then = STATES.with_borrow_mut(|s| {
        match Engine::ALL
            .iter()
            .find(|e| matches!(s[e.index()], State::Loading(_)))
        {
            Some(e) => {
                if let State::Loading(jobs) = &mut s[e.index()] {
                    // Once that one is there, any other still on its way is waited for.
                    jobs.push(Box::new(move || when_fetched(then)));
                }
                None
            }
            None => Some(then),
        }
    });
    let Some(then) = then else { return };
    let then = RUNS.with_borrow_mut(|runs| match runs.iter_mut().find(|r| r.answer.is_none()) {
        Some(run) => {
            run.waiting.push(Box::new(move || when_fetched(then)));
            None
        }
        None => Some(then),
    });
    if let Some(then) = then {
        then();
    }
}

/// The core's script engine on the page: the answer of this script's run in the worker
/// once there; else starts the run (once) and refuses as for an engine on its way.
fn run_script(source: &[u8], seed: u32, players: u32) -> Result<ScriptMap, LoadError> {
    let unavailable = |why: String| LoadError::new(ErrorKind::Unsupported, Location::File, why);
    // What is refused before anything runs is refused here, without a worker.
    script::screen_text(source)?;
    need(Engine::Script).map_err(unavailable)?;
    let known = RUNS.with_borrow(|runs| {
        runs.iter()
            .find(|r| r.of(source, seed, players))
            .map(|r| r.answer.clone())
    });
    match known {
        Some(Some(answer)) => return answer,
        Some(None) => {}
        None => {
            RUNS.with_borrow_mut(|runs| {
                runs.push(Run {
                    source: source.to_vec(),
                    seed,
                    players,
                    answer: None,
                    waiting: Vec::new(),
                })
            });
            wasm_bindgen_futures::spawn_local(run_in_worker(source.to_vec(), seed, players));
        }
    }
    ASKED.set(true);
    Err(unavailable("the map's script is being run".into()))
}

/// Runs the script in the worker, keeps its answer, then runs the jobs that waited.
async fn run_in_worker(source: Vec<u8>, seed: u32, players: u32) {
    let promise = js_run_script(&source, seed, players, SCRIPT_SECONDS);
    let answer = match wasm_bindgen_futures::JsFuture::from(promise).await {
        Ok(reply) => worker_answer(&reply),
        Err(e) => Err(crashed(&crate::fetch::js_text(&e))),
    };
    let waiting = RUNS.with_borrow_mut(|runs| {
        let Some(run) = runs
            .iter_mut()
            .find(|r| r.answer.is_none() && r.of(&source, seed, players))
        else {
            return Vec::new();
        };
        run.answer = Some(answer);
        let waiting = std::mem::take(&mut run.waiting);
        // The oldest answers go first.
        while runs.iter().filter(|r| r.answer.is_some()).count() > KEPT_RUNS {
            if let Some(i) = runs.iter().position(|r| r.answer.is_some()) {
                runs.remove(i);
            }
        }
        waiting
    });
    for job in waiting {
        job();
    }
}

/// What the worker said (`vitrine_engines.js`'s `runScript`): the answer's bytes, or why
/// the script was stopped.
fn worker_answer(reply: &JsValue) -> Result<ScriptMap, LoadError> {
    let field = |name: &str| js_sys::Reflect::get(reply, &JsValue::from_str(name)).ok();
    if let Some(bytes) = field("answer").filter(|v| v.is_object()) {
        return wire::decode(&js_sys::Uint8Array::new(&bytes).to_vec());
    }
    let line = field("line").and_then(|v| v.as_f64()).map(|n| n as u32);
    let message = field("message")
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    match field("stopped").and_then(|v| v.as_string()).as_deref() {
        Some("memory") => Err(script::stopped_at_memory(line)),
        Some("time") => Err(script::stopped(
            &format!(
                "the script ran past the {SCRIPT_SECONDS} s map scripts may take on the page \
                 (the heaviest shipped map's takes under 4)"
            ),
            line,
        )),
        _ => Err(crashed(&message)),
    }
}

fn crashed(why: &str) -> LoadError {
    script::could_not_run(&format!("its engine stopped: {why}"))
}

fn basis_describe(bytes: &[u8]) -> Result<BasisInfo, String> {
    need(Engine::Ktx2)?;
    let numbers = js_basis_describe(bytes).map_err(|e| crate::fetch::js_text(&e))?;
    match numbers[..] {
        [width, height, levels] => Ok(BasisInfo {
            width,
            height,
            levels,
        }),
        _ => Err(format!(
            "{} answered {} numbers, not 3",
            Engine::Ktx2.what(),
            numbers.len()
        )),
    }
}

fn basis_transcode(bytes: &[u8], level: u32) -> Result<Vec<u8>, String> {
    need(Engine::Ktx2)?;
    js_basis_transcode(bytes, level).map_err(|e| crate::fetch::js_text(&e))
}

/// The page's [`Refetch`]: the engines a job asked for, then the bytes of remote archives
/// it asked for ([`crate::remote::RemoteFetch`]); then the job runs again.
pub struct EngineFetch {
    remote: Arc<crate::remote::RemoteFetch>,
    ctx: Option<eframe::egui::Context>,
}

impl EngineFetch {
    /// Engines first, then `remote`'s fetches; asks `ctx` for a frame when a job that
    /// waited for an engine has run again.
    pub fn new(
        remote: Arc<crate::remote::RemoteFetch>,
        ctx: Option<eframe::egui::Context>,
    ) -> Self {
        EngineFetch { remote, ctx }
    }
}

impl std::fmt::Debug for EngineFetch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineFetch").finish_non_exhaustive()
    }
}

impl Refetch for EngineFetch {
    fn wanting(&self) -> bool {
        ASKED.get() || self.remote.wanting()
    }

    fn fetch_then(&self, then: Job) {
        let (remote, ctx) = (self.remote.clone(), self.ctx.clone());
        let go: Job = Box::new(move || {
            remote.fetch_then(then);
            if let Some(ctx) = ctx {
                ctx.request_repaint();
            }
        });
        // A job that asked for an engine waits for it; one that asked only for bytes
        // has them fetched now, beside an engine fetched ahead ([`prefetch`]).
        if ASKED.replace(false) {
            when_fetched(go);
        } else {
            go();
        }
    }
}
