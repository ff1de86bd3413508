// Warzone 2100 maps on the page, with the installed game's data read over HTTP ranges:
// - `?url=startup.wz&data=mp.wz&data=base.wz` (a classic map package of mp.wz's
//   2c-startup, the game's own archives as the data roots) opens the map (a package of
//   one map opens it), drawn with the game's tiles and models; the page read `mp.wz`
//   and `base.wz` (136 MB) with Range requests, a small part of each, never whole;
//   the picture is terrain, not the empty background;
// - the view's link (`#model=multiplay/maps/2c-startup/game.map&…&cam=…`, written after an
//   orbit) opened in a new page gives the same picture (mean |difference| ≤ 2 of 255 per
//   channel: the same renderer on the same machine, the margin for the swapchain's
//   dithering; a different camera or a missing layer differs by tens);
// - `?url=mp.wz` (the game's archive itself) lists its maps as tiles beside its models;
// - `?url=mp.wz&data=base.wz#model=…/2c-DustyMaze/game.js` opens a script-generated map:
//   its game.js runs in the page (Boa, in the script engine the page fetches for it:
//   engines.test.mjs) and the map is drawn.
//
// A game-data test: without /usr/share/games/warzone2100/{mp,base}.wz (or WZ_DATA) it is
// skipped with the reason; with VITRINE_REQUIRE_GAME=1 their absence fails it.
// VITRINE_WEB_ARTIFACTS=DIR keeps the pictures.

import { test } from "node:test";
import assert from "node:assert/strict";
import { statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { GAME, mapPackage, skipUnlessGame } from "./game.mjs";
import { serve } from "./server.mjs";
import {
  covered, hashWhen, keep, launch, meanDifference, newPage, onEachBackend, pageDir, shot,
  tempDir, waitFor, magenta } from "./util.mjs";

test("a map package over the game's archives read by ranges, and its link", { skip: skipUnlessGame() }, async (t) => {
  const made = mapPackage("startup", "2c-startup", "Sk-Startup", 2);
  const server = await serve(pageDir(), { made });
  const size = (f) => statSync(join(GAME, f)).size;
  try {
    await onEachBackend(t, async ({ backend, browser, query }) => {
      const q = query ? `&${query}` : "";
      for (const f of ["mp.wz", "base.wz"]) server.sent[`/made/${f}`] = undefined;
      const page = await newPage(browser);
      const started = Date.now();
      await page.goto(`${server.url}?url=made/startup.wz&data=made/mp.wz&data=made/base.wz${q}#embed=1`);
      let st = await waitFor(page, (s) => s.state !== "loading" && s.model === "game.map", "the map never opened");
      assert.deepEqual([st.state, st.error], ["ready", null]);
      t.diagnostic(`${backend}: the map opened in ${Date.now() - started} ms`);
      for (const f of ["mp.wz", "base.wz"]) {
        const sent = server.sent[`/made/${f}`];
        t.diagnostic(`${backend}: ${f}: ${sent.requests} range requests, ${sent.bytes} of ${size(f)} bytes`);
        assert.ok(sent.requests > 1, `${f} was read in pieces`);
        // Far from the whole archive: base.wz's reads are the map's stats, models, pages,
        // tile images and (with the ground blended) its tileset's KTX2 ground pages, in
        // range-sized pieces: 40–47 MB of 136 MB.
        assert.ok(sent.bytes < size(f) / 2, `${f}: ${sent.bytes} bytes fetched of ${size(f)}`);
      }
      await hashWhen(page, /^#model=multiplay\/maps\/2c-startup\/game\.map&.*cam=/, "the map's link");

      // Orbit: the camera goes into the link.
      await page.mouse.move(500, 380);
      await page.mouse.down();
      for (let i = 1; i <= 5; i++) await page.mouse.move(500 + 6 * i, 380 - 2 * i);
      await page.mouse.up();
      await page.waitForTimeout(800);
      const first = await shot(page);
      keep(`map-first-${backend}.png`, first.png);
      keep(`map-page-${backend}.png`, await page.screenshot());
      const terrain = covered(first.pixels);
      const missing = magenta(first.pixels);
      t.diagnostic(`${backend}: terrain covers ${(terrain * 100).toFixed(1)} % of the view, ${(missing * 100).toFixed(2)} % of it the missing-texture magenta`);
      assert.ok(terrain > 0.15, `the map drew: ${terrain} of the view is not the background`);
      assert.ok(missing < 0.01, `the tile images and pages were fetched: ${missing} of the picture is magenta`);
      const href = page.url();
      assert.match(href, /#model=multiplay\/maps\/2c-startup\/game\.map&team=\d+&cam=[-0-9.,]+,[po]/);
      t.diagnostic(`${backend}: ${href}`);
      await page.close();

      const second = await newPage(browser);
      await second.goto(href);
      st = await waitFor(second, (s) => s.state !== "loading" && s.model === "game.map", "the link never opened");
      assert.deepEqual([st.state, st.error], ["ready", null]);
      await second.waitForTimeout(800);
      const again = await shot(second);
      keep(`map-second-${backend}.png`, again.png);
      assert.equal(again.width, first.width);
      const d = meanDifference(first.pixels, again.pixels);
      t.diagnostic(`${backend}: the link's picture vs the first: mean |diff| ${d.toFixed(3)}`);
      assert.ok(d <= 2, `the link's picture differs by ${d}`);
      assert.deepEqual(second.errors, []);
      await second.close();
    });
  } finally {
    await server.close();
  }
});

test("mp.wz by ?url= lists its maps beside its models", { skip: skipUnlessGame() }, async () => {
  const made = tempDir("vitrine-mp-");
  symlinkSync(join(GAME, "mp.wz"), join(made, "mp.wz"));
  const server = await serve(pageDir(), { made });
  const { browser, query } = await launch("webgl2");
  try {
    const page = await newPage(browser);
    await page.goto(`${server.url}?url=made/mp.wz&${query}`);
    const st = await waitFor(page, (s) => s.gallery?.tiles > 100, "no gallery");
    // 102 models and the 44 maps: 39 with a game.map, the 5 script-generated ones by
    // their game.js.
    assert.equal(st.gallery.tiles, 146);
    keep("map-mp-gallery.png", await page.screenshot());
  } finally {
    await browser.close();
    await server.close();
  }
});

test("a script-generated map by ?url=: its game.js runs in the page", { skip: skipUnlessGame() }, async (t) => {
  const made = tempDir("vitrine-script-");
  for (const f of ["mp.wz", "base.wz"]) symlinkSync(join(GAME, f), join(made, f));
  const server = await serve(pageDir(), { made });
  const { browser, query } = await launch("webgl2");
  try {
    const page = await newPage(browser);
    const started = Date.now();
    await page.goto(`${server.url}?url=made/mp.wz&data=made/base.wz&${query}#model=multiplay/maps/2c-DustyMaze/game.js`);
    const st = await waitFor(page, (s) => s.state !== "loading" && s.model === "game.js", "the script map never opened");
    assert.deepEqual([st.state, st.error], ["ready", null]);
    t.diagnostic(`the script map opened in ${Date.now() - started} ms`);
    await page.waitForTimeout(800);
    const first = await shot(page);
    keep("map-script.png", first.png);
    const terrain = covered(first.pixels);
    t.diagnostic(`terrain covers ${(terrain * 100).toFixed(1)} % of the view`);
    assert.ok(terrain > 0.15, `the map drew: ${terrain} of the view is not the background`);
    assert.deepEqual(page.errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
