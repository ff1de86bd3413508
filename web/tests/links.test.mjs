// Views are links, on WebGPU and WebGL2: the page keeps its view in the address's
// fragment (model, team, clip, time, camera). A corpus model opened by ?url=, its team
// colour changed through the fragment, orbited with the mouse and stepped on the
// timeline: its address opened in a new page draws the same picture. A fragment with a
// nonsense field applies the rest and names the one ignored; `embed=1` leaves only the
// view and the timeline; `?url=ARCHIVE#model=PATH` opens that entry of the archive, and a
// model the archive lacks shows its error while the page keeps working. Share ▸ Copy link
// puts the address on the clipboard. `?url=site.wz#design=template:…` assembles the droid
// from the archive (a data root then) although its stats are not read yet when the page
// asks; a nonsense design is named and ignored, and a design beats a model.
//
// Needs what page.test.mjs needs (../shared/corpus). VITRINE_WEB_ARTIFACTS=DIR keeps the
// pictures there.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { serve } from "./server.mjs";
import {
  BASE, CORPUS, covered, hashWhen, keep, meanDifference, newPage, pageDir, shot,
  skipUnless, onEachBackend, waitFor, tempDir } from "./util.mjs";

const ANIM = "wz2100/data/base/structs/blderik_anim.pie";
const WZ = "wz2100/archives/mp.wz";

/// The animated PIE, its texture page and team-colour mask, as the corpus lays them out.
function servedCorpus() {
  const dir = tempDir("vitrine-links-");
  for (const rel of [ANIM, "wz2100/data/base/texpages/page-11-player-buildings.png",
    "wz2100/data/base/texpages/page-11_tcmask.png", WZ]) {
    cpSync(join(CORPUS, rel), join(dir, rel));
  }
  return dir;
}

test("views are links", { skip: skipUnless(ANIM, WZ) }, async (t) => {
  const dir = pageDir();
  const served = servedCorpus();
  const server = await serve(dir, { corpus: served });
  const model = server.url + "corpus/" + ANIM;
  try {
    await onEachBackend(t, async ({ backend, browser, query }) => {
      const q = query ? `&${query}` : "";
      // Open, change the team by the fragment, orbit, step the timeline.
      const page = await newPage(browser);
      await page.goto(`${server.url}?url=${encodeURIComponent(model)}${q}`);
      let st = await waitFor(page, (s) => s.state !== "loading");
      assert.deepEqual(st, { state: "ready", model: "blderik_anim.pie", error: null, backend });
      await hashWhen(page, /^#model=.*blderik_anim\.pie&team=0&cam=/, "the view written");
      const team0 = await shot(page);
      await page.evaluate(() => { location.hash = "team=3"; });
      await hashWhen(page, /^#model=.*&team=3&cam=/, "team 3 applied and written back");
      const team3 = await shot(page);
      const teamChange = meanDifference(team0.pixels, team3.pixels);
      t.diagnostic(`${backend}: team 0 → 3 changes the view by ${teamChange.toFixed(2)}`);
      assert.ok(teamChange > 1, "team 3's colour is drawn");
      const before = await page.evaluate(() => location.hash);
      const entries = await page.evaluate(() => history.length);
      await page.mouse.move(600, 380);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) await page.mouse.move(600 + 12 * i, 380 - 4 * i);
      await page.mouse.up();
      for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
      const hash = await hashWhen(page, /&t=[0-9.]+&cam=/, "the paused time written");
      assert.notEqual(hash.match(/cam=[^&]*/)[0], before.match(/cam=[^&]*/)[0], "the orbit is in the link");
      assert.equal(await page.evaluate(() => history.length), entries, "the page adds no history entries");
      const first = await shot(page);
      keep(`links-first-${backend}.png`, first.png);
      keep(`links-first-page-${backend}.png`, await page.screenshot());
      assert.ok(covered(first.pixels) > 0.05, "the model is in view");
      const href = page.url();
      t.diagnostic(`${backend}: ${href}`);

      // Share ▸ Copy link: the address, on the clipboard.
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
      // The menu opens on the next frame the page draws, which a loaded machine delays: a
      // click that found it not yet open is tried again, waiting longer.
      let copied = "";
      for (let attempt = 1; attempt <= 3 && !copied; attempt++) {
        await page.mouse.click(158, 12);
        await page.waitForTimeout(300 * attempt);
        await page.mouse.click(185, 40);
        for (let i = 0; i < 40 && !copied; i++) {
          await page.waitForTimeout(100);
          copied = await page.evaluate(() => navigator.clipboard.readText());
        }
        if (!copied) await page.keyboard.press("Escape");
      }
      assert.equal(copied, href, "Copy link copies the address");

      // The address in a new page: the same picture.
      const second = await newPage(browser);
      await second.goto(href);
      st = await waitFor(second, (s) => s.state !== "loading");
      assert.deepEqual(st, { state: "ready", model: "blderik_anim.pie", error: null, backend });
      assert.equal(await hashWhen(second, /t=/, "the link kept"), hash);
      const again = await shot(second);
      keep(`links-second-${backend}.png`, again.png);
      assert.equal(again.width, first.width);
      assert.equal(again.height, first.height);
      const d = meanDifference(first.pixels, again.pixels);
      t.diagnostic(`${backend}: the link's view vs the first page's: mean |diff| ${d.toFixed(3)}`);
      assert.ok(d <= 1, `mean difference ${d}`);
      await second.close();

      // A nonsense field: the rest applies, the page names it.
      const bad = await newPage(browser);
      await bad.goto(`${server.url}?url=${encodeURIComponent(model)}${q}#team=banana&t=1.0`);
      st = await waitFor(bad, (s) => s.state !== "loading");
      assert.equal(st.state, "ready");
      assert.equal(st.ignored.length, 1, JSON.stringify(st.ignored));
      assert.match(st.ignored[0], /^team=banana: not a team colour/);
      await hashWhen(bad, /&team=0&t=1&cam=/, "t applied (paused at 1 s)");
      keep(`links-bad-page-${backend}.png`, await bad.screenshot());
      await bad.close();

      // embed=1: the view fills the page (no menu bar, no side panel).
      const embed = await newPage(browser);
      await embed.goto(`${server.url}?url=${encodeURIComponent(model)}${q}#embed=1`);
      st = await waitFor(embed, (s) => s.state !== "loading");
      assert.equal(st.state, "ready");
      await hashWhen(embed, /cam=.*&embed=1$/, "embed kept in the link");
      const view = await shot(embed);
      keep(`links-embed-page-${backend}.png`, await embed.screenshot());
      t.diagnostic(`${backend}: view ${first.width}x${first.height}, embedded ${view.width}x${view.height}`);
      assert.equal(view.width, 1024, "the view is as wide as the page");
      assert.ok(view.width > first.width + 200 && view.height > first.height, "the panels are gone");
      await embed.close();

      // ?url=ARCHIVE#model=PATH: that entry; a model the archive lacks: its error.
      const wz = await newPage(browser);
      const entry = "components/weapons/gnlassat.pie";
      await wz.goto(`${server.url}?url=${encodeURIComponent(server.url + "corpus/" + WZ)}${q}#model=${entry}&team=2`);
      st = await waitFor(wz, (s) => s.state !== "loading");
      assert.deepEqual(st, { state: "ready", model: "gnlassat.pie", error: null, backend });
      await hashWhen(wz, new RegExp(`^#model=${entry}&team=2&cam=`), "the entry's link");
      await wz.evaluate(() => { location.hash = "model=components/weapons/nothere.pie"; });
      st = await waitFor(wz, (s) => s.state === "error");
      assert.match(st.error, /nothere\.pie/);
      await wz.evaluate(() => { location.hash = "model=components/weapons/trmvtlpl.pie"; });
      st = await waitFor(wz, (s) => s.state === "ready" && s.model === "trmvtlpl.pie");
      assert.deepEqual(wz.errors, []);
      await wz.close();
      assert.deepEqual(page.errors, []);
    });
  } finally {
    await server.close();
  }
});

/// A published site's `site.wz`: the base game's stats and components and the droid pages,
/// in a new folder.
function siteArchive() {
  const dir = tempDir("vitrine-site-");
  execFileSync("python3", ["-c", `
import os, sys, zipfile
base, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for sub in ["stats", "components"]:
        for root, _, files in os.walk(os.path.join(base, sub)):
            for f in sorted(files):
                p = os.path.join(root, f)
                z.write(p, os.path.relpath(p, base))
    for n in [14, 16, 17]:
        for f in sorted(os.listdir(os.path.join(base, "texpages"))):
            if f.startswith(f"page-{n}-") or f == f"page-{n}_tcmask.png":
                z.write(os.path.join(base, "texpages", f), "texpages/" + f)
`, join(CORPUS, BASE), join(dir, "site.wz")]);
  return dir;
}

test("a design link assembles from the page's archive", { skip: skipUnless(`${BASE}/stats/templates.json`) }, async (t) => {
  const server = await serve(pageDir(), { made: siteArchive() });
  const site = encodeURIComponent(server.url + "made/site.wz");
  const droid = "design=template:ViperMG01Wheels&team=3&cam=30,20,200,0,10,0,p";
  try {
    await onEachBackend(t, async ({ backend, browser, query }) => {
      const q = query ? `&${query}` : "";
      const page = await newPage(browser);
      await page.goto(`${server.url}?url=${site}${q}#${droid}`);
      let st = await waitFor(page, (s) => s.state !== "loading");
      assert.deepEqual(st, { state: "ready", model: "template:ViperMG01Wheels", error: null, backend });
      assert.equal(await hashWhen(page, /^#design=/, "the design's link"), `#${droid}`, "team and camera applied");
      const shown = await shot(page);
      keep(`links-design-${backend}.png`, shown.png);
      assert.ok(covered(shown.pixels) > 0.02, "the droid is drawn");

      // Nonsense is named and ignored; with a model, the design wins.
      await page.evaluate(() => { location.hash = "design=banana&team=2"; });
      st = await waitFor(page, (s) => s.ignored?.length === 1);
      assert.match(st.ignored[0], /^design=banana: not a design/);
      await hashWhen(page, /^#design=template:ViperMG01Wheels&team=2&/, "the rest applied");
      await page.evaluate(() => {
        location.hash = "model=components/bodies/drlbod01.pie&design=structure:A0LightFactory";
      });
      st = await waitFor(page, (s) => s.model === "structure:A0LightFactory");
      assert.deepEqual(st.ignored, ["model=components/bodies/drlbod01.pie: the link's design is shown instead"]);
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  } finally {
    await server.close();
  }
});
