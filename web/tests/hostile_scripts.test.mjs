// A hostile map script on the page: the page runs a map's game.js in the script engine's
// Web Worker (web/vitrine_engines.js), never on its own thread, so
// - a script that asks for memory past the engine's cap (256 MiB) stops, refused naming
//   game.js and the memory limit;
// - a script that runs on stops after the page's time limit (10 s of wall clock), refused
//   naming game.js and the time limit;
// - while it runs the page keeps drawing frames (its thread is free);
// - after a stop the page opens the next map, whose script the worker runs as before.
// Each attack is mp.wz with 2c-DustyMaze's game.js replaced, built in the test.
// Needs the browser and the installed game (as maps.test.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { GAME, skipUnlessGame } from "./game.mjs";
import { serve } from "./server.mjs";
import { launch, newPage, pageDir, tempDir, waitFor } from "./util.mjs";

const MAP = "multiplay/maps/2c-DustyMaze/game.js";

/// A folder served as /made/: `NAME.wz` (mp.wz with MAP's text replaced by each attack's
/// script) for each attack, and base.wz.
function attacks(scripts) {
  const dir = tempDir("vitrine-hostile-");
  symlinkSync(join(GAME, "base.wz"), join(dir, "base.wz"));
  symlinkSync(join(GAME, "mp.wz"), join(dir, "mp.wz"));
  for (const [name, js] of Object.entries(scripts)) {
    execFileSync("python3", ["-c", `
import sys, zipfile
mp, out, target, js = sys.argv[1:5]
with zipfile.ZipFile(mp) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for info in src.infolist():
        z.writestr(info, js.encode() if info.filename == target else src.read(info.filename))
`, join(GAME, "mp.wz"), join(dir, `${name}.wz`), MAP, js]);
  }
  return dir;
}

/// Frames the page began while `during` ran (requestAnimationFrame callbacks).
async function framesDuring(page, ms) {
  return page.evaluate((ms) => new Promise((resolve) => {
    let frames = 0;
    const end = performance.now() + ms;
    const tick = (now) => {
      frames++;
      if (now < end) requestAnimationFrame(tick); else resolve(frames);
    };
    requestAnimationFrame(tick);
  }), ms);
}

const SET_MAP = "\nsetMapData(2, 2, [0, 0, 0, 0], [0, 0, 0, 0], [], [], []);\n";

test("a hostile map script stops in its worker at its limit, and the page carries on", { skip: skipUnlessGame() }, async (t) => {
  const made = attacks({
    memory: "var s = 'x', kept = [];\nfor (var i = 0; i < 40; i++) { log(i); s += s; kept.push(s); }" + SET_MAP,
    time: "var a = new Array(1 << 20).fill(0);\nfor (var i = 0; i < 1e9; i++) a.indexOf(1);" + SET_MAP,
  });
  const server = await serve(pageDir(), { made });
  const { browser, query } = await launch("webgl2");
  try {
    const page = await newPage(browser);
    for (const [attack, limit, within] of [
      ["memory", /more than the 256 MiB of memory map scripts may use \(last seen at line 2\)/, 8000],
      ["time", /past the 10 s map scripts may take on the page/, 14000],
    ]) {
      const started = Date.now();
      await page.goto(`${server.url}?url=made/${attack}.wz&data=made/base.wz&${query}#model=${MAP}`);
      await waitFor(page, (s) => s.state === "loading" || s.state === "error", "the map never began to open");
      if (attack === "time") {
        // While the worker runs the script (seconds), the page's own thread is free.
        await page.waitForTimeout(2000);
        const frames = await framesDuring(page, 1000);
        const still = await page.evaluate(() => window.vitrine.status().state);
        t.diagnostic(`${attack}: ${frames} frames in a second while the script ran (${still})`);
        assert.equal(still, "loading", "the script was still running");
        assert.ok(frames >= 10, `${attack}: the page drew ${frames} frames in a second while the script ran`);
      }
      const st = await waitFor(page, (s) => s.state !== "loading", `${attack}: the script never stopped`);
      const took = Date.now() - started;
      t.diagnostic(`${attack}: ${took} ms: ${st.error}`);
      assert.equal(st.state, "error", `${attack}: ${JSON.stringify(st)}`);
      assert.match(st.error, /game\.js/, `${attack}: the file named`);
      assert.match(st.error, limit, `${attack}: the limit named`);
      assert.ok(took < within, `${attack}: stopped after ${took} ms`);
      assert.deepEqual(page.errors, []);
    }
    // The next map's script runs as before.
    await page.goto(`${server.url}?url=made/mp.wz&data=made/base.wz&${query}#model=${MAP}`);
    const st = await waitFor(page, (s) => s.state !== "loading" && s.model === "game.js", "the real map never opened");
    assert.deepEqual([st.state, st.error], ["ready", null]);
  } finally {
    await browser.close();
    await server.close();
  }
});
