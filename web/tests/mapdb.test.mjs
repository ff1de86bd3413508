// A map of the map database on the page, opened as a player would open it from the
// database's site: `?url=PKG.wz&data=mp.wz&data=base.wz`, a package of
// `../shared/corpus/wz2100/mapdb-2p/` as the database ships it (its files at the root of
// the archive) over the installed game's archives, all served with HTTP ranges:
// - the package opens its map (a package of one map opens it), which is drawn: the
//   picture is terrain and objects, not the empty background, not the missing-texture
//   magenta, and the page reports no error;
// - the page read a small part of the archives for its first frame (what it had read
//   when the map opened: the first frame only uploads what the opening job decoded),
//   under FIRST_BYTES, the 8 MB (docs/performance.md ▸ Maps ▸ A map database
//   package on the page: 2.7–4.0 MiB for this package; the PNG pages of its objects,
//   water and sky, 15 MB, follow the first frame), and a part of them by the time the
//   map was ready with its full-size pages, under READY_MIB. A page that reads those PNG
//   pages for the first frame (19.2 MiB), its ground pages whole (12 MiB more of base.wz
//   for one tileset), or the other tilesets' structure pages too (48 MiB) fails the
//   first; one that reads base.wz whole (136 MB) fails both.
//
// A game-data test: without /usr/share/games/warzone2100/{mp,base}.wz (or WZ_DATA) it is
// skipped with the reason (VITRINE_REQUIRE_GAME=1: an error), and without
// ../shared/corpus/wz2100/mapdb-2p likewise (VITRINE_REQUIRE_SHARED=1). No timing is
// asserted. VITRINE_WEB_ARTIFACTS=DIR keeps the picture.

import { test } from "node:test";
import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { GAME, skipUnlessGame } from "./game.mjs";
import { serve } from "./server.mjs";
import {
  CORPUS, covered, firstFrame, keep, launch, magenta, newPage, pageDir, shot, skipUnless, tempDir, waitFor,
  watchFirstFrame } from "./util.mjs";

/// The package: 249×249 tiles, 919 structures and 1133 features on the rockies tileset,
/// one of the largest and densest of mapdb-2p.
const PKG = "nPangaeaSpRc1";
/// What the page may read of the three archives for the first frame (bytes: 8 MB), and
/// by the time the map is ready (MiB).
const FIRST_BYTES = 8e6;
const READY_MIB = 64;

const skip = skipUnlessGame() || skipUnless("wz2100/mapdb-2p");

test("a map database package over the game's archives, from the smallest pieces", { skip }, async (t) => {
  const made = tempDir("vitrine-mapdb-");
  for (const f of ["mp.wz", "base.wz"]) symlinkSync(join(GAME, f), join(made, f));
  symlinkSync(join(CORPUS, "wz2100/mapdb-2p", `${PKG}.wz`), join(made, `${PKG}.wz`));
  const server = await serve(pageDir(), { made });
  const { browser, query } = await launch("webgl2");
  try {
    const page = await newPage(browser);
    const archives = [`${PKG}.wz`, "mp.wz", "base.wz"];
    const read = () => archives.reduce((n, f) => n + (server.sent[`/made/${f}`]?.bytes ?? 0), 0);
    await watchFirstFrame(page, "game.map");
    await page.goto(`${server.url}?url=made/${PKG}.wz&data=made/mp.wz&data=made/base.wz&${query}#embed=1`);
    const shown = await firstFrame(page);
    const first = archives.reduce((n, f) => n + (shown.sent[`/made/${f}`]?.bytes ?? 0), 0);
    // Its full-size pages follow (the status says "loading" until they are in).
    await page.waitForFunction(() => window.vitrine.status().state !== "loading", null,
      { polling: 100, timeout: 240000 });
    const st = await waitFor(page, (s) => s.model === "game.map", "the map was replaced");
    assert.deepEqual([st.state, st.error], ["ready", null]);
    const at = await page.evaluate(() => window.vitrine.frames());
    await page.waitForFunction((n) => window.vitrine.frames() > n + 1, at, { polling: 50, timeout: 120000 });
    const picture = await shot(page);
    keep("mapdb-map.png", picture.png);
    const drawn = covered(picture.pixels);
    const missing = magenta(picture.pixels);
    t.diagnostic(`the map covers ${(drawn * 100).toFixed(1)} % of the view, ${(missing * 100).toFixed(2)} % magenta`);
    assert.ok(drawn > 0.15, `the map drew: ${drawn} of the view is not the background`);
    assert.ok(missing < 0.01, `the pages were fetched: ${missing} of the picture is magenta`);
    assert.deepEqual(page.errors, [], "no uncaught error");
    for (const f of archives) {
      const sent = server.sent[`/made/${f}`];
      assert.ok(sent, `${f} was read`);
      t.diagnostic(`${f}: ${sent.requests} requests, ${(sent.bytes / 1048576).toFixed(2)} MiB by the map ready`);
    }
    const mib = (n) => (n / 1048576).toFixed(2);
    t.diagnostic(`read for the first frame: ${mib(first)} MiB (shown ${Math.round(shown.at)} ms after the navigation's start); by the map ready: ${mib(read())} MiB`);
    assert.ok(first < FIRST_BYTES, `the first frame read ${mib(first)} MiB, more than ${FIRST_BYTES / 1e6} MB`);
    assert.ok(read() < READY_MIB * 1048576, `the page read ${mib(read())} MiB by the map ready, more than ${READY_MIB} MiB`);
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
