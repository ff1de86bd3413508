// A published map collection (`vitrine publish DIR` of a folder of map packages, as a
// collection is downloaded), on WebGL2:
// - the folder holds two packages of the map database (../shared/corpus/wz2100/mapdb-2p,
//   as the database ships them) and a FlaME-shaped package built here from mp.wz's
//   2c-startup (three levels, one per old tech level, over one map);
// - its gallery page shows one tile per map (the three levels are one map), each with its
//   preview, its players and tileset, its author and licence where the package says, and
//   the map database's verdict (`check --rules mapdb`), which site.json lists rule by rule;
// - a tile opens its map on the page over the site's own `site.wz`, drawn;
// - `?url=` of the FlaME package with no `#model=` opens its one map (not a list of three
//   levels).
//
// Needs the browser, the installed game's data (the maps' data roots), ../shared/corpus
// and the native program (cargo run). VITRINE_WEB_ARTIFACTS=DIR keeps the pictures.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GAME, skipUnlessGame } from "./game.mjs";
import { serve } from "./server.mjs";
import {
  CORPUS, ROOT, covered, keep, launch, newPage, pageDir, shot, skipUnless, tempDir,
  waitFor, magenta } from "./util.mjs";

const MAPDB = "wz2100/mapdb-2p";
const PICKED = ["TinyWarRmx.wz", "LEGEND_OF_ZELDA.wz"];

/// mp.wz's 2c-startup as FlaME ships a map: a `.lev` with three levels over one `.gam`.
function flamePackage(out) {
  execFileSync("python3", ["-c", `
import sys, zipfile
mp, out = sys.argv[1:3]
lev = "// Made with FlaME 1.29\\n"
for t, kind, dataset in [(1, 14, "MULTI_CAM_1"), (2, 18, "MULTI_T2_C1"), (3, 19, "MULTI_T3_C1")]:
    lev += 'level   FlameStart-T%d\\nplayers 2\\ntype    %d\\ndataset %s\\ngame    "multiplay/maps/2c-flamestart.gam"\\n' % (t, kind, dataset)
with zipfile.ZipFile(mp) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("2c-flamestart.xplayers.lev", lev)
    for n in src.namelist():
        if n.startswith("multiplay/maps/2c-startup/") and not n.endswith("/"):
            z.writestr(n.replace("2c-startup", "2c-flamestart"), src.read(n))
        elif n == "multiplay/maps/2c-startup.gam":
            z.writestr("multiplay/maps/2c-flamestart.gam", src.read(n))
`, join(GAME, "mp.wz"), out]);
}

const skip = skipUnlessGame() || skipUnless(MAPDB);

test("a published map collection: a tile per map, its verdict, opened on the page", { skip }, async (t) => {
  const folder = join(tempDir("vitrine-collection-"), "maps");
  mkdirSync(folder);
  for (const p of PICKED) copyFileSync(join(CORPUS, MAPDB, p), join(folder, p));
  flamePackage(join(folder, "FlameStart.wz"));
  const site = join(tempDir("vitrine-collection-site-"), "site");
  execFileSync("cargo", ["run", "-q", "--bin", "vitrine", "--", "publish", folder,
    "--data", join(GAME, "mp.wz"), "--data", join(GAME, "base.wz"), "--page", pageDir(),
    "-o", site, "--title", "Two players"],
    { cwd: ROOT, stdio: "inherit" });
  const json = JSON.parse(readFileSync(join(site, "site.json"), "utf8"));
  assert.deepEqual(json.maps.map((m) => m.path).sort(),
    ["maps/FlameStart.wz", "maps/LEGEND_OF_ZELDA.wz", "maps/TinyWarRmx.wz"],
    "one map per package: FlaME's three levels are one map");
  assert.ok(json.files.length > 0, "site.wz holds the game's data the maps need");
  for (const m of json.maps) {
    assert.ok(Array.isArray(m.mapdb), `${m.path}: site.json lists the database's findings`);
    t.diagnostic(`${m.path}: ${m.name}, ${m.players} players, ${m.tileset}, by ${m.author}, ${m.licence}; database: ${m.mapdb.map((f) => `${f.level} ${f.rule}`).join(", ") || "no finding"}`);
  }
  // The database took its own maps: no error of its rules on them.
  for (const p of PICKED) {
    const m = json.maps.find((x) => x.path === `maps/${p}`);
    assert.deepEqual(m.mapdb.filter((f) => f.level === "error"), [], `${p} was accepted by the database`);
    assert.ok(m.author && m.licence, `${p}: its level.json's author and licence`);
  }

  const server = await serve(site);
  const { browser, query } = await launch("webgl2");
  try {
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
        name: a.querySelector(".name").textContent,
        facts: [...a.querySelectorAll(".fact")].map((f) => f.textContent),
        picture: img?.naturalWidth ?? 0,
      };
    })));
    keep("collection-gallery.png", await gallery.screenshot());
    assert.equal(tiles.length, 3, `a tile per map: ${tiles.map((x) => x.name)}`);
    for (const tile of tiles) {
      t.diagnostic(`tile ${tile.name}: ${tile.facts.join(" | ")}`);
      assert.ok(tile.picture > 0, `${tile.name}: its preview`);
      assert.ok(tile.facts.some((f) => /^2 players · /.test(f)), `${tile.name}: players and tileset`);
      assert.ok(tile.facts.some((f) => /^database: (accepted|refused)/.test(f)), `${tile.name}: the database's verdict`);
    }
    const zelda = tiles.find((x) => x.href.includes("LEGEND_OF_ZELDA"));
    assert.ok(zelda.facts.includes("database: accepted") || zelda.facts.some((f) => f.startsWith("database: accepted ·")));

    // Each tile opens its map over site.wz, drawn.
    for (const tile of tiles) {
      const page = await newPage(browser);
      const url = new URL(tile.href, server.url);
      if (query) url.search += `&${query}`;
      await page.goto(url.href);
      const st = await waitFor(page, (s) => s.state !== "loading" && /game\.(map|js)$/.test(s.model ?? ""), `${tile.name} never opened`);
      assert.deepEqual([st.state, st.error], ["ready", null], tile.name);
      await page.waitForTimeout(500);
      const pic = await shot(page);
      keep(`collection-${tile.name}.png`, pic.png);
      const drawn = covered(pic.pixels);
      t.diagnostic(`${tile.name}: ${(drawn * 100).toFixed(1)} % of the view drawn`);
      assert.ok(drawn > 0.15, `${tile.name}: the map is drawn (${drawn} of the view)`);
      const pink = magenta(pic.pixels);
      assert.ok(pink < 0.01, `${tile.name}: its pages came from site.wz (${pink} of the view is the missing-texture magenta)`);
      assert.deepEqual(page.errors, [], tile.name);
      await page.close();
    }

    // The FlaME package by ?url= alone: its one map, not three levels to pick from.
    const page = await newPage(browser);
    await page.goto(`${server.url}view.html?url=maps/FlameStart.wz&data=site.wz${query ? `&${query}` : ""}`);
    const st = await waitFor(page, (s) => s.state !== "loading", "the FlaME package never opened");
    assert.deepEqual([st.state, st.error], ["ready", null]);
    assert.match(st.model ?? "", /game\.map$/, "the map opened, not a gallery of its levels");
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
