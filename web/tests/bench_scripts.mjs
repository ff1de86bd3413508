// The time each map script of mp.wz takes in the page's script worker (web/
// vitrine_engines.js's runScript: the worker's own instance of the script module, Boa at
// full speed under the memory cap), in headless Chromium: what the page's time limit for
// a map script is set against (web/src/engines.rs, SCRIPT_SECONDS; README ▸ Reliability).
// Each script runs ROUNDS times in one worker (its first run also instantiates the
// module); the figure is each run's wall clock from the page's side.
//
//   node web/tests/bench_scripts.mjs PAGE_DIR [ROUNDS]

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { GAME, haveGame } from "./game.mjs";
import { serve } from "./server.mjs";
import { launch, newPage } from "./util.mjs";

const [dir, roundsArg] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node web/tests/bench_scripts.mjs PAGE_DIR [ROUNDS]");
  process.exit(2);
}
if (!haveGame) {
  console.error(`no ${GAME}/mp.wz (apt-get install warzone2100-data, or WZ_DATA)`);
  process.exit(2);
}
const rounds = Number(roundsArg ?? 3);
// mp.wz's scripts and their levels' players (the level name's leading digit).
const scripts = JSON.parse(execFileSync("python3", ["-c", `
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(json.dumps({n.split("/")[2]: z.read(n).decode("latin-1") for n in z.namelist() if n.endswith("/game.js")}))
`, join(GAME, "mp.wz")], { maxBuffer: 64 << 20 }));
const server = await serve(dir, {});
const { browser } = await launch("webgl2");
try {
  const page = await newPage(browser);
  await page.goto(`${server.url}vitrine_engines.js`);
  for (const [map, text] of Object.entries(scripts)) {
    const players = Number(map.match(/^(\d+)/)?.[1] ?? 2);
    const times = await page.evaluate(async ({ text, players, rounds }) => {
      const engines = await import("/vitrine_engines.js");
      await engines.loadEngine("script");
      const source = new TextEncoder().encode(text);
      const out = [];
      for (let i = 0; i < rounds; i++) {
        const started = performance.now();
        const reply = await engines.runScript(source, 5489, players, 600);
        if (!reply.answer) throw new Error(JSON.stringify(reply));
        out.push(performance.now() - started);
      }
      return out;
    }, { text, players, rounds });
    console.log(`${map}: ${times.map((t) => (t / 1000).toFixed(2)).join(" ")} s`);
  }
} finally {
  await browser.close();
  await server.close();
}
