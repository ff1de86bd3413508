// The page's time from navigation to the first frame of a Warzone 2100 map
// (docs/performance.md ▸ Maps): `?url=mp.wz&data=base.wz#model=multiplay/maps/MAP/game.map`
// over the installed game's archives, served by the test server with ranges, in headless
// Chromium (SwiftShader). The times run from `page.goto` to the first frame the page draws
// with the map open (from its pages' small levels), and to the first frame once `status()`
// says the map is ready (its full-size pages decoded too; `window.vitrine.frames()` moved
// on); also the requests and bytes each archive cost.
//
//   node web/tests/bench_map.mjs PAGE_DIR [MAP] [ROUNDS] [BACKEND]
//
// MAP is a folder of mp.wz's multiplay/maps (default 8c-concreteplayground, 250×250, the
// largest), BACKEND webgl2 (default) or webgpu. benches/map_first_frame.sh runs it beside
// the desktop window's figure.

import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { GAME, haveGame } from "./game.mjs";
import { serve } from "./server.mjs";
import { launch, newPage, tempDir, waitFor } from "./util.mjs";

const [dir, map = "8c-concreteplayground", roundsArg, backend = "webgl2"] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node web/tests/bench_map.mjs PAGE_DIR [MAP] [ROUNDS] [BACKEND]");
  process.exit(2);
}
if (!haveGame) {
  console.error(`no ${GAME}/mp.wz and base.wz (apt-get install warzone2100-data, or WZ_DATA)`);
  process.exit(2);
}
const rounds = Number(roundsArg ?? 3);
const made = tempDir("vitrine-bench-map-");
for (const f of ["mp.wz", "base.wz"]) symlinkSync(join(GAME, f), join(made, f));
const server = await serve(dir, { made });
const { browser, query } = await launch(backend);
const times = [];
const firsts = [];
let cost = "";
try {
  for (let i = 0; i < rounds; i++) {
    for (const f of ["mp.wz", "base.wz"]) server.sent[`/made/${f}`] = undefined;
    const page = await newPage(browser);
    const t0 = Date.now();
    await page.goto(`${server.url}?url=made/mp.wz&data=made/base.wz&${query}#model=multiplay/maps/${map}/game.map`);
    // The first frame drawn with the map open (its pages' small levels: the full-size
    // pages follow from a job, and status() says "loading" until it is done).
    await page.waitForFunction(() => window.vitrine?.status?.().model === "game.map", null,
      { polling: 10, timeout: 120000 });
    const open = await page.evaluate(() => window.vitrine.frames());
    await page.waitForFunction((n) => window.vitrine.frames() > n, open, { polling: 10, timeout: 120000 });
    firsts.push(Date.now() - t0);
    const st = await waitFor(page, (s) => s.state !== "loading" && s.model === "game.map", "the map never opened");
    if (st.state !== "ready") throw new Error(`the map failed: ${st.error}`);
    const at = await page.evaluate(() => window.vitrine.frames());
    await page.waitForFunction((n) => window.vitrine.frames() > n, at, { polling: 10, timeout: 120000 });
    times.push(Date.now() - t0);
    cost = ["mp.wz", "base.wz"].map((f) => {
      const s = server.sent[`/made/${f}`];
      return `${f}: ${s.requests} requests, ${(s.bytes / 1048576).toFixed(1)} MiB`;
    }).join("; ");
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
console.log(`page (${backend}, SwiftShader): navigation → first frame of ${map}: median ${median(firsts)} ms (${firsts.join(", ")} ms); ready with its full-size pages: median ${median(times)} ms (${times.join(", ")} ms); ${cost}`);
