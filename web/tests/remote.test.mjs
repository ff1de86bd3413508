// Archives read a piece at a time over HTTP, on WebGPU and WebGL2. A 100 MiB archive is
// built here (the derrick and its pages from the corpus between 100 one-MiB entries of
// noise) and served by the test server:
// - with ranges, `?url=big.zip#model=PATH` draws the model as the loose PIE draws, and
//   the page fetched under 2 MB of the archive; `?url=big.zip` alone shows its gallery
//   (the models and images fetched, not the noise); `?url=mod.zip&data=big.zip` finds
//   the model's pages in the big archive the same way;
// - without ranges, the page downloads it once, whole, and draws the same;
// - a server that answers other bytes than asked, or whose file changes length between
//   requests, a missing archive, a file that is no archive: the page shows the error and
//   opens the next thing;
// - the page's security policy: a script put into the page does not run.
// What only the network decides (the last three) is tried on WebGL2 alone.
//
// Needs ../shared/corpus. VITRINE_WEB_ARTIFACTS=DIR keeps the pictures.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { serve } from "./server.mjs";
import {
  BASE, CORPUS, covered, decodeImage, keep, meanDifference, newPage, onEachBackend, pageDir,
  shot, skipUnless, waitFor, tempDir } from "./util.mjs";

const PIE = "structs/blderik_anim.pie";
const PAGES = ["texpages/page-11-player-buildings.png", "texpages/page-11_tcmask.png"];

/// big.zip (≥ 100 MiB: noise, the derrick and its pages, noise) and mod.zip (the
/// derrick alone) in a new folder.
function archives() {
  const dir = tempDir("vitrine-remote-");
  execFileSync("python3", ["-c", `
import os, sys, zipfile
base, out, pie, pages = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def noise(z, first):
    for i in range(first, first + 50):
        z.writestr("filler/%03d.bin" % i, os.urandom(1 << 20))
with zipfile.ZipFile(os.path.join(out, "big.zip"), "w", zipfile.ZIP_STORED) as z:
    noise(z, 0)
    for name in [pie] + pages:
        z.write(os.path.join(base, name), name, zipfile.ZIP_DEFLATED)
    noise(z, 50)
with zipfile.ZipFile(os.path.join(out, "mod.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    z.write(os.path.join(base, pie), pie)
with open(os.path.join(out, "notes.zip"), "w") as f:
    f.write("not an archive\\n" * 1000)
`, join(CORPUS, BASE), dir, PIE, ...PAGES]);
  return dir;
}

test("archives are read a piece at a time over HTTP", { skip: skipUnless(join(BASE, PIE)) }, async (t) => {
  const dir = pageDir();
  const made = archives();
  const size = statSync(join(made, "big.zip")).size;
  assert.ok(size >= 100 << 20, `big.zip is ${size} bytes`);
  const servers = {
    ranges: await serve(dir, { corpus: CORPUS, made }),
    whole: await serve(dir, { corpus: CORPUS, made, ranges: false }),
    shifted: await serve(dir, { made, lie: "range" }),
    changed: await serve(dir, { made, lie: "total" }),
  };
  const big = "/made/big.zip";
  try {
    await onEachBackend(t, async ({ backend, browser, query }) => {
      const q = query ? `&${query}` : "";
      const open = async (server, search, hash = "") => {
        const page = await newPage(browser);
        await page.goto(`${server.url}?${search}${q}${hash}`);
        return page;
      };
      const ready = (page) => waitFor(page, (s) => s.state !== "loading");

      // The loose model, for the picture.
      // (Paused at 0 s: the derrick turns; embedded, so that only the view is compared,
      // whatever the side panel holds.)
      const loose = await open(servers.ranges, `url=${encodeURIComponent(`corpus/${BASE}/${PIE}`)}`, "#t=0&embed=1");
      assert.equal((await ready(loose)).state, "ready");
      const want = await shot(loose);
      assert.ok(covered(want.pixels) > 0.05, "the derrick is in view");
      await loose.close();

      // With ranges: the entry and its pages, not the archive.
      servers.ranges.sent[big] = undefined;
      const ranged = await open(servers.ranges, "url=made/big.zip", `#model=${PIE}&t=0&embed=1`);
      let st = await ready(ranged);
      assert.deepEqual([st.state, st.model, st.error], ["ready", "blderik_anim.pie", null]);
      const got = await shot(ranged);
      keep(`remote-ranges-${backend}.png`, got.png);
      const d = meanDifference(want.pixels, got.pixels);
      const sent = servers.ranges.sent[big];
      t.diagnostic(`${backend}: ranges: ${sent.requests} requests, ${sent.bytes} of ${size} bytes; picture vs the loose PIE ${d.toFixed(3)}`);
      assert.ok(d <= 1, `the picture differs from the loose PIE's by ${d}`);
      assert.ok(sent.bytes < 2e6, `${sent.bytes} bytes transferred`);
      assert.deepEqual(ranged.errors, []);
      await ranged.close();

      // No model named: the archive's gallery, its models and images fetched (not the
      // noise), every thumbnail drawn.
      servers.ranges.sent[big] = undefined;
      const gallery = await open(servers.ranges, "url=made/big.zip");
      st = await waitFor(gallery, (s) => s.gallery?.tiles === 1 && s.gallery.thumbnails.done === 1, "no gallery");
      assert.equal(st.gallery.failed, 0, "the thumbnail is drawn");
      t.diagnostic(`${backend}: gallery: ${servers.ranges.sent[big].bytes} bytes of big.zip`);
      assert.ok(servers.ranges.sent[big].bytes < 2e6);
      const tileOf = async (page) => {
        const png = await page.screenshot({ clip: { x: 20, y: 116, width: 104, height: 104 } });
        keep(`remote-tile-${backend}-${page.label}.png`, png);
        return (await decodeImage(page, png)).pixels;
      };
      gallery.label = "big";
      const bigTile = await tileOf(gallery);
      keep(`remote-gallery-${backend}.png`, await gallery.screenshot());
      await gallery.close();

      // A gallery whose pages are in a data root read a piece at a time: each thumbnail
      // waits for its pages, then is drawn with them.
      const overGallery = await open(servers.ranges, "url=made/mod.zip&data=made/big.zip");
      st = await waitFor(overGallery, (s) => s.gallery?.tiles === 1 && s.gallery.thumbnails.done === 1, "no gallery");
      assert.equal(st.gallery.failed, 0);
      overGallery.label = "mod-over-big";
      const dt = meanDifference(bigTile, await tileOf(overGallery));
      t.diagnostic(`${backend}: the thumbnail with its pages from &data= vs from the same archive: ${dt.toFixed(3)}`);
      assert.ok(dt <= 2, `the thumbnails differ by ${dt}: pages missing?`);
      await overGallery.close();

      // &data=: the pages come from the big archive.
      servers.ranges.sent[big] = undefined;
      const layered = await open(servers.ranges, "url=made/mod.zip&data=made/big.zip", `#model=${PIE}&t=0&embed=1`);
      st = await ready(layered);
      assert.deepEqual([st.state, st.model, st.error], ["ready", "blderik_anim.pie", null]);
      const over = await shot(layered);
      const dl = meanDifference(want.pixels, over.pixels);
      t.diagnostic(`${backend}: &data=: ${servers.ranges.sent[big].bytes} bytes of big.zip; picture ${dl.toFixed(3)}`);
      assert.ok(dl <= 1, `the pages from &data= differ by ${dl}`);
      assert.ok(servers.ranges.sent[big].bytes < 2e6);
      await layered.close();

      // What only the network decides (no ranges, lying servers, errors, the page's
      // policy) is tried once, on one GPU path.
      if (backend !== "webgl2") return;
      // Without ranges: one download, whole, and the same picture.
      servers.whole.sent[big] = undefined;
      const whole = await open(servers.whole, "url=made/big.zip", `#model=${PIE}&t=0&embed=1`);
      st = await ready(whole);
      assert.deepEqual([st.state, st.model, st.error], ["ready", "blderik_anim.pie", null]);
      const w = await shot(whole);
      assert.ok(meanDifference(want.pixels, w.pixels) <= 1);
      assert.deepEqual(servers.whole.sent[big], { requests: 1, bytes: size, spans: [[0, size]] });
      await whole.close();

      // Servers that lie, and a missing archive: the error, then the page goes on.
      for (const [server, search, says] of [
        [servers.shifted, "url=made/big.zip", /sent bytes \d+\.\.\d+ when asked for/],
        [servers.changed, "url=made/big.zip", /changed on the server/],
        [servers.ranges, "url=made/missing.zip", /HTTP 404/],
        [servers.ranges, "url=made/notes.zip", /notes\.zip: not a readable zip archive/],
      ]) {
        const page = await open(server, search, `#model=${PIE}&t=0&embed=1`);
        st = await ready(page);
        assert.equal(st.state, "error", JSON.stringify(st));
        assert.match(st.error, says);
        await page.evaluate((url) => window.vitrine.open(url), `${servers.ranges.url}corpus/${BASE}/${PIE}`);
        st = await waitFor(page, (s) => s.state === "ready" && s.model === "blderik_anim.pie");
        assert.deepEqual(page.errors, []);
        await page.close();
      }

      // Nothing the page loads runs script: an inline script put into it is refused.
      const csp = await open(servers.ranges, "url=made/mod.zip");
      await ready(csp);
      const ran = await csp.evaluate(async () => {
        const s = document.createElement("script");
        s.textContent = "window.injected = true;";
        document.body.append(s);
        await new Promise((r) => setTimeout(r, 100));
        return window.injected === true;
      });
      assert.equal(ran, false, "an injected inline script ran");
      await csp.close();
    });
  } finally {
    for (const s of Object.values(servers)) await s.close();
  }
});
