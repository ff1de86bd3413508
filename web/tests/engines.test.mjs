// The engines only some maps need — the script engine (vitrine_script.js and
// vitrine_script_bg.wasm: Boa, for a script map's game.js) and the KTX2 ground transcoder
// (vitrine_ktx2.js, vitrine_ktx2_bg.wasm) — are modules of their own that the page fetches
// the first time a map asks for one, as the test server's request log shows:
// - a page that shows a model (the demo, and a model by ?url= with its texture page)
//   never requests either;
// - a script map (mp.wz's 2c-DustyMaze by its game.js, over base.wz) requests each once,
//   runs its game.js in the script engine and draws the map;
// - a page whose script engine cannot be fetched says so for a script map, naming it.
//
// The map cases need the installed game (as maps.test.mjs); VITRINE_WEB_ARTIFACTS=DIR
// keeps the picture.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { GAME, skipUnlessGame } from "./game.mjs";
import { serve } from "./server.mjs";
import {
  CHROMIUM, ROOT, covered, haveBrowser, keep, launch, newPage, pageDir, shot, tempDir,
  waitFor } from "./util.mjs";

const ENGINE_FILES = [
  "/vitrine_script.js", "/vitrine_script_bg.wasm", "/vitrine_ktx2.js", "/vitrine_ktx2_bg.wasm"];
const SCRIPT_MAP = "#model=multiplay/maps/2c-DustyMaze/game.js";

/// Requests the server answered for each engine file.
function engineRequests(server) {
  return Object.fromEntries(ENGINE_FILES.map((f) => [f, server.sent[f]?.requests ?? 0]));
}

/// A folder served as /made/ with the game's mp.wz and base.wz.
function gameData() {
  const made = tempDir("vitrine-engines-");
  for (const f of ["mp.wz", "base.wz"]) symlinkSync(join(GAME, f), join(made, f));
  return made;
}

test("a page that shows models never fetches the map engines", {
  skip: haveBrowser ? false : `SKIPPED: no ${CHROMIUM} (apt-get install chromium)`,
}, async () => {
  const server = await serve(pageDir(), { made: join(ROOT, "assets/demo") });
  const { browser, query } = await launch("webgl2");
  try {
    const page = await newPage(browser);
    await page.goto(`${server.url}?${query}`);
    let st = await waitFor(page, (s) => s.state !== "loading" && s.model === "tank.pie", "the demo never opened");
    assert.deepEqual([st.state, st.error], ["ready", null]);
    await page.goto(`${server.url}?url=made/tank.pie&${query}`);
    st = await waitFor(page, (s) => s.state !== "loading" && s.model === "tank.pie", "the model never opened");
    assert.deepEqual([st.state, st.error], ["ready", null]);
    await page.waitForTimeout(500);
    // The page and the model were served (the log counts), the engines never asked for.
    assert.ok(server.sent["/vitrine_bg.wasm"]?.requests >= 2, JSON.stringify(server.sent));
    assert.ok(server.sent["/made/tank.pie"]?.requests >= 1, JSON.stringify(server.sent));
    assert.deepEqual(engineRequests(server), Object.fromEntries(ENGINE_FILES.map((f) => [f, 0])));
    assert.deepEqual(page.errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test("a script map fetches the script engine and the ground transcoder once, and draws", { skip: skipUnlessGame() }, async (t) => {
  const server = await serve(pageDir(), { made: gameData() });
  const { browser, query } = await launch("webgl2");
  try {
    const page = await newPage(browser);
    await page.goto(`${server.url}?url=made/mp.wz&data=made/base.wz&${query}${SCRIPT_MAP}`);
    const st = await waitFor(page, (s) => s.state !== "loading" && s.model === "game.js", "the script map never opened");
    assert.deepEqual([st.state, st.error], ["ready", null]);
    const asked = engineRequests(server);
    t.diagnostic(`engine requests: ${JSON.stringify(asked)}`);
    assert.deepEqual(asked, Object.fromEntries(ENGINE_FILES.map((f) => [f, 1])));
    await page.waitForTimeout(800);
    const first = await shot(page);
    keep("engines-script-map.png", first.png);
    const terrain = covered(first.pixels);
    t.diagnostic(`terrain covers ${(terrain * 100).toFixed(1)} % of the view`);
    assert.ok(terrain > 0.15, `the map drew: ${terrain} of the view is not the background`);
    assert.deepEqual(page.errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test("a script map on a page whose script engine cannot be fetched says so", { skip: skipUnlessGame() }, async () => {
  // The page's files, less the script engine's .wasm.
  const built = pageDir();
  const partial = tempDir("vitrine-no-engine-");
  for (const f of readdirSync(built)) {
    if (f !== "vitrine_script_bg.wasm") symlinkSync(join(built, f), join(partial, f));
  }
  const server = await serve(partial, { made: gameData() });
  const { browser, query } = await launch("webgl2");
  try {
    const page = await newPage(browser);
    await page.goto(`${server.url}?url=made/mp.wz&data=made/base.wz&${query}${SCRIPT_MAP}`);
    const st = await waitFor(page, (s) => s.state === "error", "no error for the missing engine");
    assert.match(st.error, /game\.js.*vitrine_script\) could not be fetched/);
    // The module is compiled before the worker that would run it starts: none started.
    assert.equal(server.sent["/vitrine_script.js"], undefined);
  } finally {
    await browser.close();
    await server.close();
  }
});
