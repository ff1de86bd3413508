//! The two engines only some maps need: a JavaScript engine for a script map's `game.js`
//! ([`crate::map::script::run_script`]) and a Basis Universal transcoder for KTX2 ground
//! textures ([`crate::formats::basis`]). The program builds both in (the core's `script`
//! and `ktx2` features, on by default). A build without one asks the engine its host
//! installed here instead: the web page leaves both out of its `.wasm` and fetches each
//! as a module of its own the first time a map asks for it (`web/engines/`), so a page
//! that shows models never downloads them.
//!
//! An engine is installed once, before the first map is read. An installed script engine
//! is asked before the built-in one: the program installs its sandbox (a child process
//! that runs the built-in engine under a memory cap and a clock). An installed
//! transcoder is asked only where the `ktx2` feature is off.

use crate::formats::{ErrorKind, LoadError};
use crate::map::script::ScriptMap;
use crate::model::Location;
use std::sync::OnceLock;

/// Runs a map's `game.js`: its bytes, the seed, the level's players; the contract of
/// [`crate::map::script::run_script`].
pub type RunScript = fn(&[u8], u32, u32) -> Result<ScriptMap, LoadError>;

/// What a Basis Universal transcoder reads of a file's data: level 0's size and the
/// levels it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BasisInfo {
    /// Level 0's width, texels.
    pub width: u32,
    /// Level 0's height, texels.
    pub height: u32,
    /// The mip levels the data holds.
    pub levels: u32,
}

/// A Basis Universal transcoder: the two questions [`crate::formats::basis::Transcoder`]
/// asks. Each answers `Err` with the transcoder's reason (the caller names the offset).
#[derive(Debug, Clone, Copy)]
pub struct Transcode {
    /// The file's [`BasisInfo`].
    pub describe: fn(&[u8]) -> Result<BasisInfo, String>,
    /// One level of the file, RGBA8, row-major.
    pub level: fn(&[u8], u32) -> Result<Vec<u8>, String>,
}

static SCRIPT: OnceLock<RunScript> = OnceLock::new();
static TRANSCODE: OnceLock<Transcode> = OnceLock::new();
static TRANSCODER_SOON: OnceLock<fn()> = OnceLock::new();

/// Installs the engine that runs map scripts (asked before the built-in one). `Err` when
/// one is installed already.
pub fn install_script(run: RunScript) -> Result<(), &'static str> {
    SCRIPT
        .set(run)
        .map_err(|_| "a script engine is installed already")
}

/// Installs the KTX2 transcoder used where the `ktx2` feature is off. `Err` when one is
/// installed already.
pub fn install_transcoder(transcode: Transcode) -> Result<(), &'static str> {
    TRANSCODE
        .set(transcode)
        .map_err(|_| "a KTX2 transcoder is installed already")
}

/// Installs what [`transcoder_wanted_soon`] calls: a host that fetches its transcoder
/// starts then, while the map's other bytes arrive. `Err` when one is installed already.
pub fn install_transcoder_hint(hint: fn()) -> Result<(), &'static str> {
    TRANSCODER_SOON
        .set(hint)
        .map_err(|_| "a KTX2 transcoder hint is installed already")
}

/// Says a KTX2 page will be transcoded soon (a map's ground pages are KTX2; its scene
/// is built before its pages are read): where the transcoder is not built in, the hint
/// the host installed ([`install_transcoder_hint`]) is called, so that the page's
/// module is on its way before the pages ask for it. Nothing otherwise.
pub fn transcoder_wanted_soon() {
    if cfg!(feature = "ktx2") {
        return;
    }
    if let Some(hint) = TRANSCODER_SOON.get() {
        hint();
    }
}

/// The installed script engine, if one is.
pub fn installed_script() -> Option<RunScript> {
    SCRIPT.get().copied()
}

/// Runs `source` with the installed script engine; a build with neither says so.
///
/// # Errors
/// The engine's, or [`ErrorKind::Unsupported`] when none is installed.
pub fn run_installed_script(
    source: &[u8],
    seed: u32,
    players: u32,
) -> Result<ScriptMap, LoadError> {
    match SCRIPT.get() {
        Some(run) => run(source, seed, players),
        None => Err(LoadError::new(
            ErrorKind::Unsupported,
            Location::File,
            "this build of Vitrine has no JavaScript engine for map scripts",
        )),
    }
}

/// The installed KTX2 transcoder; `Err` says none is.
///
/// # Errors
/// When none is installed.
pub fn installed_transcoder() -> Result<Transcode, String> {
    TRANSCODE
        .get()
        .copied()
        .ok_or_else(|| "this build of Vitrine has no KTX2 (Basis Universal) transcoder".into())
}
