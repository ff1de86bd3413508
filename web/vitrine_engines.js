// The page's engines that only some maps need, each a wasm module of its own beside this
// file, fetched the first time the page asks for it: `script` (vitrine_script.js and
// vitrine_script_bg.wasm: Boa, for a script map's game.js) and `ktx2` (vitrine_ktx2.js
// and vitrine_ktx2_bg.wasm: the Basis Universal transcoder, for KTX2 ground textures).
// The page's own module (vitrine.js) imports this file; its `engines` asks loadEngine,
// then calls the engine once it is there.
//
// A map's game.js is a stranger's program: it never runs on the page's thread. This file
// is also the script engine's Web Worker (started from itself, below): the worker runs
// the script in its own instance of the script module, whose allocator refuses memory
// past the script's cap (the module then traps, and the worker says where the script was
// last seen); the page ends a worker that runs past its time. A worker that stopped a
// script is not used again.

const inWorker = typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope;

const ready = {};
const NAMES = ["script", "ktx2"];

/// Fetches and starts the engine `name` (once; later calls find it there). The script
/// engine's module is compiled here and instantiated in its worker.
export async function loadEngine(name) {
  if (!NAMES.includes(name)) throw new Error(`no engine ${name}`);
  if (ready[name]) return;
  if (name === "script") {
    const url = new URL("./vitrine_script_bg.wasm", import.meta.url);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
    ready.script = { module: await WebAssembly.compile(await response.arrayBuffer()) };
    return;
  }
  const module = await import(new URL(`./vitrine_${name}.js`, import.meta.url));
  // Its .wasm, beside its glue.
  await module.default();
  ready[name] = module;
}

function engine(name) {
  const module = ready[name];
  if (!module) throw new Error(`the ${name} engine is not loaded`);
  return module;
}

/// The worker that runs scripts, started on the first run and kept while it answers.
let scriptWorker = null;

/// A map's game.js run in the script worker, within `seconds` of wall clock: resolves to
/// `{ answer }` (the answer's bytes: vitrine_core::map::script::wire) or `{ stopped, line,
/// message }` (`stopped`: "time", "memory" or "crash"; `line`: where the script was last
/// seen, 0 if not known).
export function runScript(source, seed, players, seconds) {
  const { module } = engine("script");
  if (!scriptWorker) {
    scriptWorker = new Worker(new URL(import.meta.url), { type: "module", name: "vitrine map script" });
  }
  const worker = scriptWorker;
  return new Promise((resolve) => {
    let timer = null;
    const done = (result) => {
      clearTimeout(timer);
      worker.onmessage = worker.onerror = null;
      if (result.stopped) {
        // A worker that stopped a script (its module trapped, or still running) is ended.
        worker.terminate();
        if (scriptWorker === worker) scriptWorker = null;
      }
      resolve(result);
    };
    timer = setTimeout(() => done({ stopped: "time", line: 0, message: "" }), seconds * 1000);
    worker.onmessage = (e) => done(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      done({ stopped: "crash", line: 0, message: e.message || "the worker failed" });
    };
    worker.postMessage({ module, source, seed, players });
  });
}

/// The Basis data's [width, height, levels]; throws the transcoder's refusal.
export function basisDescribe(bytes) {
  return engine("ktx2").describe(bytes);
}

/// One level as RGBA8; throws the transcoder's refusal.
export function basisTranscode(bytes, level) {
  return engine("ktx2").transcode(bytes, level);
}

// The script worker: instantiates the compiled module it is sent (once), runs each
// script it is sent, answers with the bytes or why the module stopped.
if (inWorker) {
  let glue = null;
  self.onmessage = async (e) => {
    const { module, source, seed, players } = e.data;
    try {
      if (!glue) {
        glue = await import(new URL("./vitrine_script.js", import.meta.url));
        await glue.default({ module_or_path: module });
      }
    } catch (err) {
      self.postMessage({ stopped: "crash", line: 0, message: String(err && err.message || err) });
      return;
    }
    try {
      const answer = glue.run_script(source, seed, players);
      self.postMessage({ answer }, [answer.buffer]);
    } catch (err) {
      // The module trapped: at its memory cap (a failed allocation aborts), or a fault.
      let line = 0, memory = false;
      try {
        line = glue.last_line();
        memory = glue.memory_reached();
      } catch (_) { /* the module cannot say */ }
      self.postMessage({
        stopped: memory ? "memory" : "crash",
        line,
        message: String(err && err.message || err),
      });
    }
  };
}
