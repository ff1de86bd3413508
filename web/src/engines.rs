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

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use vitrine_app::jobs::{Job, Refetch};
use vitrine_core::engines::{BasisInfo, Transcode};
use vitrine_core::formats::{ErrorKind, LoadError};
use vitrine_core::map::script::{ScriptMap, wire};
use vitrine_core::model::Location;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./vitrine_engines.js")]
extern "C" {
    #[wasm_bindgen(js_name = loadEngine)]
    fn load_engine(name: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = runScript, catch)]
    fn js_run_script(source: &[u8], seed: u32, players: u32) -> Result<Vec<u8>, JsValue>;
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

thread_local! {
    static STATES: RefCell<[State; 2]> = const { RefCell::new([State::Absent, State::Absent]) };
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

/// Runs `then` once no engine is being fetched.
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
    if let Some(then) = then {
        then();
    }
}

fn run_script(source: &[u8], seed: u32, players: u32) -> Result<ScriptMap, LoadError> {
    let unavailable = |why: String| LoadError::new(ErrorKind::Unsupported, Location::File, why);
    need(Engine::Script).map_err(unavailable)?;
    let answer = js_run_script(source, seed, players).map_err(|e| {
        unavailable(format!(
            "{} failed: {}",
            Engine::Script.what(),
            crate::fetch::js_text(&e)
        ))
    })?;
    wire::decode(&answer)
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
