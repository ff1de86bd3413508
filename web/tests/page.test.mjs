// The web page in headless Chromium, on WebGPU and on WebGL2 (`?backend=webgl2`): it
// starts with the demo model and reports it; the app's screenshot (F12), read back from
// the GPU without blocking and downloaded, shows the model; `?url=` of a corpus PIE
// fetches it and its texture page by HTTP (from texpages/ in an ancestor, as the desktop
// searches the disk) and draws what the native `vitrine render` draws of it; a bad file
// and a missing URL show their error and the page keeps working.
//
// Needs what renderer.test.mjs needs, and ../shared/corpus (skipped without it unless
// VITRINE_REQUIRE_SHARED=1). VITRINE_WEB_PAGE=DIR uses a page built by web/build.sh;
// VITRINE_WEB_ARTIFACTS=DIR keeps the screenshots there.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "./server.mjs";
import {
  CORPUS, ROOT, covered, keep, meanDifference, newPage, pageDir, screenshot,
  skipUnless, onEachBackend, waitFor, tempDir } from "./util.mjs";

const BODY = "wz2100/data/base/components/bodies/drlbod01.pie";
// The page's view against `vitrine render` of the same model, size and camera: both
// software rasterisers, edges may differ (see renderer.test.mjs).
const MEAN_TOLERANCE = 2;

/// The files the page fetches: the body PIE and the game's texture pages as the corpus
/// lays them out, and a file that is not a model.
function servedCorpus() {
  const dir = tempDir("vitrine-served-");
  cpSync(join(CORPUS, BODY), join(dir, BODY));
  cpSync(join(CORPUS, "wz2100/data/base/texpages/page-14-droid-hubs.png"),
    join(dir, "wz2100/data/base/texpages/page-14-droid-hubs.png"));
  writeFileSync(join(dir, "bad.pie"), "PIE 3\nTYPE 200\nLEVELS 1\nLEVEL 1\nPOINTS 3\n\t0 0\n");
  return dir;
}

test("the page runs the viewer on WebGPU and WebGL2", {
  skip: skipUnless(BODY),
}, async (t) => {
  const dir = pageDir();
  const served = servedCorpus();
  const server = await serve(dir, { corpus: served });
  try {
    await onEachBackend(t, async ({ backend, browser, query }) => {
      const page = await newPage(browser);

      // The demo model, drawn.
      const started = Date.now();
      await page.goto(server.url + (query ? `?${query}` : ""));
      let st = await waitFor(page, (s) => s.state !== "loading");
      t.diagnostic(`${backend}: demo ready ${Date.now() - started} ms after navigation`);
      assert.deepEqual(st, { state: "ready", model: "tank.pie", error: null, backend });
      assert.equal(await page.title(), "tank.pie — Vitrine");
      await page.mouse.move(700, 350);
      // The app's screenshot (F12) is how the test sees the view's pixels: read back
      // from the GPU without blocking the page, and downloaded.
      const demo = await screenshot(page);
      keep(`page-demo-${backend}.png`, demo.png);
      assert.equal(demo.name, "tank.png");
      assert.ok(covered(demo.pixels) > 0.1, `the demo covers ${covered(demo.pixels)} of the view`);
      keep(`page-window-${backend}.png`, await page.screenshot());

      // ?url= of a corpus PIE: its texture page found by HTTP; the picture is the
      // native render's.
      await page.goto(`${server.url}?url=${encodeURIComponent(server.url + "corpus/" + BODY)}${query ? `&${query}` : ""}`);
      st = await waitFor(page, (s) => s.state !== "loading");
      assert.deepEqual(st, { state: "ready", model: "drlbod01.pie", error: null, backend });
      {
        await page.mouse.move(700, 350);
        const body = await screenshot(page);
        keep(`page-body-${backend}.png`, body.png);
        const native = join(served, `native-${backend}.png`);
        execFileSync("cargo", ["run", "-q", "--bin", "vitrine", "--", "render", join(CORPUS, BODY),
          "-o", native, "--size", `${body.width}x${body.height}`], { cwd: ROOT, stdio: "inherit" });
        const ref = await page.evaluate(async (url) => {
          const bitmap = await createImageBitmap(await (await fetch(url)).blob(), { colorSpaceConversion: "none", premultiplyAlpha: "none" });
          const c = new OffscreenCanvas(bitmap.width, bitmap.height);
          const ctx = c.getContext("2d");
          ctx.drawImage(bitmap, 0, 0);
          return Array.from(ctx.getImageData(0, 0, bitmap.width, bitmap.height).data);
        }, server.url + `corpus/native-${backend}.png`);
        const d = meanDifference(body.pixels, ref);
        t.diagnostic(`${backend}: ?url= body vs native render (${body.width}x${body.height}): mean |diff| ${d.toFixed(2)}`);
        assert.ok(d <= MEAN_TOLERANCE, `mean difference ${d}`);
      }

      // A bad file: its error, and the page goes on.
      await page.evaluate((u) => window.vitrine.open(u), server.url + "corpus/bad.pie");
      st = await waitFor(page, (s) => s.state === "error");
      assert.match(st.error, /bad\.pie/);
      await page.evaluate((u) => window.vitrine.open(u), server.url + "corpus/missing.pie");
      st = await waitFor(page, (s) => s.state === "error" && /404/.test(s.error));
      assert.match(st.error, /missing\.pie: the server answered HTTP 404/);
      await page.evaluate((u) => window.vitrine.open(u), server.url + "corpus/" + BODY);
      st = await waitFor(page, (s) => s.state === "ready");
      assert.equal(st.model, "drlbod01.pie");
      assert.deepEqual(page.errors, []);
    });
  } finally {
    await server.close();
  }
});
