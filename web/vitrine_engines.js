// The page's engines that only some maps need, each a wasm module of its own beside this
// file, fetched the first time the page asks for it: `script` (vitrine_script.js and
// vitrine_script_bg.wasm: Boa, for a script map's game.js) and `ktx2` (vitrine_ktx2.js
// and vitrine_ktx2_bg.wasm: the Basis Universal transcoder, for KTX2 ground textures).
// The page's own module (vitrine.js) imports this file; its `engines` asks loadEngine,
// then calls the engine synchronously once it is there.

const ready = {};
const NAMES = ["script", "ktx2"];

/// Fetches and starts the engine `name` (once; later calls find it there).
export async function loadEngine(name) {
  if (!NAMES.includes(name)) throw new Error(`no engine ${name}`);
  if (ready[name]) return;
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

/// A map's game.js run: the answer's bytes (vitrine_core::map::script::wire).
export function runScript(source, seed, players) {
  return engine("script").run_script(source, seed, players);
}

/// The Basis data's [width, height, levels]; throws the transcoder's refusal.
export function basisDescribe(bytes) {
  return engine("ktx2").describe(bytes);
}

/// One level as RGBA8; throws the transcoder's refusal.
export function basisTranscode(bytes, level) {
  return engine("ktx2").transcode(bytes, level);
}
