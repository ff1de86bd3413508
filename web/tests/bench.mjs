// The page's figures (docs/performance.md), in headless Chromium on WebGPU and WebGL2
// (SwiftShader, on the CPU):
// - transfer size: each file of the built page, raw and gzip-compressed (level 9, what a
//   static host's compression gives at best);
// - time from navigation to the demo model drawn and reported ready (median of ROUNDS
//   fresh pages);
// - frames per second while orbiting the demo model (the left button held and the mouse
//   moved round the view for SECONDS; frames counted by `window.vitrine.frames()`);
// - the corpus's mp.wz dropped on the page over a dropped base.wz of the base game's
//   pages (as web/tests/gallery.test.mjs drops them) → its gallery with every thumbnail
//   drawn (`status().gallery`).
//
//   node web/tests/bench.mjs PAGE_DIR [ROUNDS] [SECONDS]
//
// PAGE_DIR is a page built by web/build.sh (use the default `web` profile for figures).
// benches/web_vs_desktop.sh runs it beside the same operations in the desktop window.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { serve } from "./server.mjs";
import {
  BACKENDS, CORPUS, baseArchive, dropFile, haveCorpus, launch, newPage, waitFor,
} from "./util.mjs";

const WZ = "wz2100/archives/mp.wz";

const [dir, roundsArg, secondsArg] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node web/tests/bench.mjs PAGE_DIR [ROUNDS] [SECONDS]");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 5);
const seconds = Number(secondsArg ?? 5);
const VIEWPORT = { width: 1024, height: 700 };

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const mib = (n) => (n / 1048576).toFixed(2);
let total = 0;
let totalGz = 0;
console.log("| file | bytes | gzip -9 |\n|---|---|---|");
for (const name of readdirSync(dir).sort()) {
  const path = join(dir, name);
  if (!statSync(path).isFile()) continue;
  const raw = readFileSync(path);
  const gz = gzipSync(raw, { level: 9 }).length;
  total += raw.length;
  totalGz += gz;
  console.log(`| ${name} | ${mib(raw.length)} MiB | ${mib(gz)} MiB |`);
}
console.log(`| all | ${mib(total)} MiB | **${mib(totalGz)} MiB** |\n`);

const made = haveCorpus(WZ) ? baseArchive() : null;
const server = await serve(dir, { corpus: CORPUS, made });
try {
  for (const backend of BACKENDS) {
    const { browser, query } = await launch(backend);
    try {
      const ready = [];
      let page = null;
      for (let r = 0; r < rounds; r++) {
        if (page) await page.close();
        page = await newPage(browser, VIEWPORT);
        const t0 = Date.now();
        await page.goto(server.url + (query ? `?${query}` : ""));
        await waitFor(page, (s) => s.state === "ready" && s.model === "tank.pie");
        ready.push(Date.now() - t0);
      }
      // Orbit: hold the left button in the view and circle for `seconds`.
      const cx = 740;
      const cy = 320;
      await page.mouse.move(cx + 100, cy);
      await page.waitForTimeout(500);
      const f0 = await page.evaluate(() => window.vitrine.frames());
      await page.mouse.down();
      const t0 = Date.now();
      let step = 0;
      while (Date.now() - t0 < seconds * 1000) {
        const a = (step++ / 40) * 2 * Math.PI;
        await page.mouse.move(cx + 100 * Math.cos(a), cy + 60 * Math.sin(a));
        await page.waitForTimeout(4);
      }
      const elapsed = (Date.now() - t0) / 1000;
      const f1 = await page.evaluate(() => window.vitrine.frames());
      await page.mouse.up();
      const fps = (f1 - f0) / elapsed;
      let gallery = "no corpus: mp.wz not measured";
      if (made) {
        await dropFile(page, `${server.url}made/base.wz`, "base.wz");
        await waitFor(page, (s) => s.gallery?.tiles === 1 && s.state === "ready");
        const g0 = Date.now();
        await dropFile(page, `${server.url}corpus/${WZ}`, "mp.wz");
        const st = await waitFor(page, (s) => s.gallery?.tiles > 1 && s.gallery.thumbnails.total > 0 &&
          s.gallery.thumbnails.done === s.gallery.thumbnails.total, "the gallery never filled");
        gallery = `mp.wz dropped → gallery of ${st.gallery.tiles} with every thumbnail: ${Date.now() - g0} ms`;
      }
      const errors = page.errors.length ? ` (page errors: ${page.errors.join("; ")})` : "";
      console.log(`${backend}: navigation → demo model ready: median ${median(ready)} ms ` +
        `(${ready.join(", ")} ms); orbiting: ${fps.toFixed(1)} frames/s ` +
        `(${f1 - f0} frames in ${elapsed.toFixed(1)} s, ${step} mouse moves); ${gallery}${errors}`);
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
