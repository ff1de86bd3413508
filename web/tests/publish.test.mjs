// A published site, on WebGPU and WebGL2: `vitrine publish` of the corpus's mp.wz over
// its data/base, served on 127.0.0.1 as a static host would:
// - its gallery page shows a tile with a picture for every model, droid template and
//   structure that site.json lists, the footer's text, and runs no script;
// - a template's tile opens the viewer on the droid assembled from site.wz;
// - the viewer's own address on mp's running super cyborg, after an orbit and a step on
//   the timeline, opened in a new page with embed=1 draws the same picture (same camera,
//   same time) with only the view and the timeline.
//
// Needs ../shared/corpus and the native program (cargo run). VITRINE_WEB_ARTIFACTS=DIR
// keeps the pictures.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "./server.mjs";
import {
  BASE, CORPUS, ROOT, covered, hashWhen, keep, meanDifference, newPage, onEachBackend,
  pageDir, shot, skipUnless, waitFor, tempDir } from "./util.mjs";

const WZ = "wz2100/archives/mp.wz";

/// Publishes mp.wz over data/base into a new folder: the folder and its site.json.
function publish() {
  const site = join(tempDir("vitrine-published-"), "site");
  execFileSync("cargo", ["run", "-q", "--bin", "vitrine", "--", "publish", join(CORPUS, WZ),
    "--data", join(CORPUS, BASE), "--page", pageDir(), "-o", site,
    "--title", "Multiplayer <models>", "--author", "The Warzone 2100 Project",
    "--licence", "GPL-2.0-or-later, as the game's data"], { cwd: ROOT, stdio: "inherit" });
  return { site, json: JSON.parse(readFileSync(join(site, "site.json"), "utf8")) };
}

test("a published mod's site", { skip: skipUnless(WZ, BASE) }, async (t) => {
  const { site, json } = publish();
  const counts = [json.models.length, json.templates.length, json.structures.length, json.maps.length];
  t.diagnostic(`published: ${counts[0]} models, ${counts[1]} templates, ${counts[2]} structures, ${counts[3]} maps`);
  assert.ok(counts.every((n) => n > 0), `site.json lists ${counts}`);
  const server = await serve(site);
  try {
    await onEachBackend(t, async ({ backend, browser, query }) => {
      // The gallery page (static HTML: the same on both GPU paths, so looked at once):
      // every tile, every picture, the footer, no script.
      const gallery = await newPage(browser, { width: 1280, height: 900 });
      await gallery.goto(server.url);
      await gallery.waitForLoadState("load");
      // (The pictures load as they scroll into view: all of them, now.)
      const tiles = await gallery.evaluate((all) => Promise.all([...document.querySelectorAll("a.tile")].map(async (a) => {
        const img = a.querySelector("img");
        if (img && all) {
          img.loading = "eager";
          await img.decode().catch(() => {});
        }
        return { href: a.getAttribute("href"), picture: img?.naturalWidth ?? 0 };
      })), backend === "webgpu");
      assert.equal(tiles.length, counts[0] + counts[1] + counts[2] + counts[3], "a tile for each model, design and map");
      if (backend === "webgpu") {
        assert.deepEqual(tiles.filter((x) => x.picture === 0), [], "every tile has its picture");
      }
      const footer = await gallery.evaluate(() => document.body.innerText);
      assert.match(footer, /Multiplayer <models>/, "the title, as text");
      assert.match(footer, /The Warzone 2100 Project/);
      assert.match(footer, /GPL-2\.0-or-later/);
      assert.equal(await gallery.evaluate(() => document.scripts.length), 0, "the gallery runs no script");
      keep(`published-gallery-${backend}.png`, await gallery.screenshot());

      // A template's tile: the viewer, on the assembled droid.
      const template = tiles.find((x) => x.href.includes("#design=template:"));
      const id = decodeURIComponent(template.href.split("#design=template:")[1].split("&")[0]);
      const url = new URL(template.href, server.url);
      if (query) url.search += `&${query}`;
      await gallery.goto(url.href);
      let st = await waitFor(gallery, (s) => s.state !== "loading");
      assert.deepEqual([st.state, st.model, st.error], ["ready", `template:${id}`, null]);
      assert.equal(st.backend, backend);
      const droid = await shot(gallery);
      keep(`published-template-${backend}.png`, droid.png);
      t.diagnostic(`${backend}: template ${id}: ${(covered(droid.pixels) * 100).toFixed(1)}% of the view`);
      assert.ok(covered(droid.pixels) > 0.02, "the droid is drawn");

      // The super cyborg running (mp's one animated model), orbited and stepped on the
      // timeline: the address keeps the camera and the time, and opens the same picture.
      const run = tiles.find((x) => x.href.endsWith("#model=components/bodies/scbd_run.pie"));
      assert.ok(run, "the running super cyborg has its tile");
      const runUrl = new URL(run.href, server.url);
      if (query) runUrl.search += `&${query}`;
      // The same page with another fragment: no reload, the page opens what the new
      // fragment names, so wait for that rather than for the droid still shown.
      await gallery.goto(runUrl.href);
      st = await waitFor(
        gallery,
        (s) => s.state === "error" || (s.state === "ready" && s.model !== `template:${id}`),
        "the cyborg's link opens it",
      );
      assert.deepEqual([st.state, st.model], ["ready", "scbd_run.pie"]);
      await gallery.mouse.move(600, 380);
      await gallery.mouse.down();
      for (let i = 1; i <= 10; i++) await gallery.mouse.move(600 + 12 * i, 380 - 4 * i);
      await gallery.mouse.up();
      for (let i = 0; i < 3; i++) await gallery.keyboard.press("ArrowRight");
      const hash = await hashWhen(gallery, /^#model=.*&t=[0-9.]+&cam=/, "the camera and time in the link");
      const href = gallery.url();
      // Compared embedded (the view the size of the page): the side panel's width follows
      // what it has shown, which a fresh page has not.
      await gallery.evaluate(() => { location.hash += "&embed=1"; });
      await hashWhen(gallery, /&embed=1$/, "embedded");
      const first = await shot(gallery);
      t.diagnostic(`${backend}: ${href}`);
      const again = await newPage(browser, { width: 1280, height: 900 });
      await again.goto(`${href}&embed=1`);
      st = await waitFor(again, (s) => s.state !== "loading");
      assert.equal(st.model, "scbd_run.pie");
      assert.equal(await hashWhen(again, /t=/, "the link kept"), `${hash}&embed=1`);
      const second = await shot(again);
      assert.equal(second.width, 1280, "embed=1: the view is as wide as the page");
      keep(`published-link-${backend}.png`, second.png);
      keep(`published-embed-${backend}.png`, await again.screenshot());
      const d = meanDifference(first.pixels, second.pixels);
      t.diagnostic(`${backend}: the link reopened: mean |diff| ${d.toFixed(3)}`);
      assert.ok(d <= 1, `the reopened view differs by ${d}`);

      assert.deepEqual([...gallery.errors, ...again.errors], []);
      await again.close();
      await gallery.close();
    });
  } finally {
    await server.close();
  }
});
