// A published map collection: `vitrine publish DIR` of a folder of the map database's
// packages (two of ../shared/corpus/wz2100/mapdb-2p, over the installed game's data),
// served on 127.0.0.1 as a static host would:
// - the gallery has a tile per map, each with its preview loaded and its facts (players
//   and tileset, author, licence) under its name, and runs no script;
// - a tile's link opens its map on the page (the package from maps/, the game's data from
//   site.wz, by ranges): the page is ready on the map's game.map and draws terrain, not
//   the empty background.
//
// Needs ../shared/corpus, the game's data, the browser and the native program (cargo
// run). VITRINE_WEB_ARTIFACTS=DIR keeps the pictures.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GAME, skipUnlessGame } from "./game.mjs";
import { serve } from "./server.mjs";
import {
  CORPUS, ROOT, covered, keep, newPage, onEachBackend, pageDir, shot, skipUnless, tempDir,
  waitFor } from "./util.mjs";

const MAPDB = "wz2100/mapdb-2p";
const NAMES = ["AValley", "Arena_22"];

/// Publishes the two packages' folder over the game's data: the site and its site.json.
function publish() {
  const dir = tempDir("vitrine-collection-");
  const maps = join(dir, "maps");
  mkdirSync(maps);
  for (const n of NAMES) copyFileSync(join(CORPUS, MAPDB, `${n}.wz`), join(maps, `${n}.wz`));
  const site = join(dir, "site");
  execFileSync("cargo", ["run", "-q", "--bin", "vitrine", "--", "publish", maps,
    "--data", join(GAME, "mp.wz"), "--data", join(GAME, "base.wz"), "--page", pageDir(),
    "-o", site, "--title", "Two-player maps"], { cwd: ROOT, stdio: "inherit" });
  return { site, json: JSON.parse(readFileSync(join(site, "site.json"), "utf8")) };
}

const skip = skipUnlessGame() || skipUnless(MAPDB);

test("a published map collection's tile opens its map", { skip }, async (t) => {
  const { site, json } = publish();
  assert.deepEqual(json.maps.map((m) => m.name), NAMES, "a map per package");
  const server = await serve(site);
  try {
    await onEachBackend(t, async ({ backend, browser, query }) => {
      const gallery = await newPage(browser, { width: 1280, height: 900 });
      await gallery.goto(server.url);
      await gallery.waitForLoadState("load");
      const tiles = await gallery.evaluate(() => Promise.all([...document.querySelectorAll("a.tile")].map(async (a) => {
        const img = a.querySelector("img");
        if (img) {
          img.loading = "eager";
          await img.decode().catch(() => {});
        }
        return {
          href: a.getAttribute("href"),
          name: a.querySelector(".name")?.textContent,
          facts: [...a.querySelectorAll(".fact")].map((f) => f.textContent),
          picture: img?.naturalWidth ?? 0,
        };
      })));
      assert.deepEqual(tiles.map((x) => x.name), NAMES, "a tile per map");
      for (const [tile, map] of tiles.map((x, i) => [x, json.maps[i]])) {
        assert.ok(tile.picture > 0, `${tile.name}: its preview loaded`);
        assert.equal(tile.facts[0], `${map.players} players · ${map.tileset}`);
        assert.ok(tile.facts.some((f) => f.startsWith(`by ${map.author.split(",")[0]}`)), `${tile.name}: ${tile.facts}`);
        assert.ok(tile.facts.some((f) => f.includes(map.licence)), `${tile.name}: ${tile.facts}`);
      }
      assert.equal(await gallery.evaluate(() => document.scripts.length), 0, "the gallery runs no script");
      keep(`collection-gallery-${backend}.png`, await gallery.screenshot());

      // The second tile: its map on the page.
      const url = new URL(tiles[1].href, server.url);
      if (query) url.search += `&${query}`;
      await gallery.goto(url.href);
      const st = await waitFor(gallery, (s) => s.state !== "loading" && s.model === "game.map", "the map never opened");
      assert.deepEqual([st.state, st.error], ["ready", null]);
      await gallery.waitForTimeout(800);
      const map = await shot(gallery);
      keep(`collection-map-${backend}.png`, map.png);
      const drawn = covered(map.pixels);
      t.diagnostic(`${backend}: ${NAMES[1]} covers ${(drawn * 100).toFixed(1)} % of the view`);
      assert.ok(drawn > 0.15, `the map drew: ${drawn} of the view is not the background`);
      await gallery.close();
    });
  } finally {
    await server.close();
  }
});
