// An archive dropped on the page, on WebGPU and WebGL2 (`?backend=webgl2`): the corpus's
// mp.wz, dropped on the canvas as a browser drop does it (a File in a DataTransfer,
// dragover then drop, which eframe's web runner listens for), shows its gallery — one
// tile per model of the archive, counted here from the archive's own listing — and its
// thumbnails all finish (status().gallery.failed = 0), drawn in slices of the page's
// frames on the page's GPU device;
// the page keeps answering while they render; the tiles show pictures, not names; a
// click on the first tile opens that model. The time from the drop to the last thumbnail
// is printed as a diagnostic.
//
// mp.wz's models use the base game's texture pages, as in the game: the test first drops
// a `base.wz` it makes of the corpus's data/base pages (and one model, so it opens as a
// gallery of its own), which the page then takes as a data root, as the game layers a mod
// over base.wz; the model opened from mp.wz's first tile is then drawn with its pages,
// as the native `vitrine render … --data data/base` draws it.
//
// The archive dropped is mp.wz with two of its 44 maps (Sk-Startup and Sk-Rush, whose
// tiles are their 3D previews, drawn by the same slices): all 39 previews take minutes of
// the page's frames per backend, and what is tested is the same for two.
//
// Needs what page.test.mjs needs. VITRINE_WEB_ARTIFACTS=DIR keeps the pictures there.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { serve } from "./server.mjs";
import {
  BASE, CORPUS, ROOT, baseArchive, covered, decodeImage, dropFile, keep,
  meanDifference, newPage, pageDir, screenshot, skipUnless, onEachBackend, waitFor,
} from "./util.mjs";

// The page's view against `vitrine render` of the same model, size and camera (as in
// page.test.mjs: both software rasterisers, edges may differ).
const MEAN_TOLERANCE = 2;


const WZ = "wz2100/archives/mp.wz";
/// The maps of mp.wz the dropped archive keeps.
const KEEP_MAPS = ["2c-startup", "4c-rush"];

/// `dir/mp.wz`: the corpus's mp.wz without the map folders (and their `.gam`) not in
/// KEEP_MAPS; returns its bytes.
function fewMaps(dir) {
  const out = join(dir, "mp.wz");
  execFileSync("python3", ["-c", `
import sys, zipfile
src, out, keep = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
with zipfile.ZipFile(src) as a, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for i in a.infolist():
        n = i.filename
        if n.startswith("multiplay/maps/"):
            rest = n[len("multiplay/maps/"):]
            folder = rest.split("/")[0]
            if folder.endswith(".gam"):
                folder = folder[:-4]
            if rest and folder not in keep:
                continue
        z.writestr(i, a.read(n))
`, join(CORPUS, WZ), out, KEEP_MAPS.join(",")]);
  return readFileSync(out);
}
const MODEL_EXTENSIONS = [".pie", ".pmf", ".pet", ".apet", ".bpet", ".mpet", ".tpm", ".glb", ".gltf", ".obj"];

/// The file names in a zip archive's central directory.
function zipNames(bytes) {
  const b = Buffer.from(bytes);
  let eocd = b.length - 22;
  while (eocd >= 0 && b.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, "a zip archive");
  const count = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    assert.equal(b.readUInt32LE(at), 0x02014b50, "a central directory entry");
    const [n, m, k] = [b.readUInt16LE(at + 28), b.readUInt16LE(at + 30), b.readUInt16LE(at + 32)];
    names.push(b.toString("utf8", at + 46, at + 46 + n));
    at += 46 + n + m + k;
  }
  return names;
}

/// The archive's models as the gallery lists them: by extension, grouped by folder.
function archiveModels(bytes) {
  return zipNames(bytes)
    .filter((n) => !n.endsWith("/") && MODEL_EXTENSIONS.some((e) => n.toLowerCase().endsWith(e)))
    .sort()
    .map((path) => ({ path, folder: posix.dirname(path), name: posix.basename(path) }))
    .sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
}


test("an archive dropped on the page shows its gallery with thumbnails", {
  skip: skipUnless(WZ),
}, async (t) => {
  const made = baseArchive();
  const wz = fewMaps(made);
  const models = archiveModels(wz);
  assert.ok(models.length > 10, `mp.wz lists ${models.length} models`);
  // Its maps are tiles too, each its game.map (the tiles' folder, multiplay/maps, sorts
  // after the models' components/: the first tile is still the first model).
  const tiles = models.length + zipNames(wz).filter((n) => /\/game\.map$/i.test(n)).length;
  assert.equal(tiles, models.length + KEEP_MAPS.length);
  const server = await serve(pageDir(), { corpus: CORPUS, made });
  try {
    await onEachBackend(t, async ({ backend, browser, query }) => {
      const page = await newPage(browser);
      await page.goto(server.url + (query ? `?${query}` : ""));
      await waitFor(page, (s) => s.state === "ready" && s.model === "tank.pie");

      // The game's base first: its gallery, and a data root from then on.
      await dropFile(page, `${server.url}made/base.wz`, "base.wz");
      await waitFor(page, (s) => s.gallery?.tiles === 1 && s.state === "ready", "no gallery of base.wz");

      const dropped = Date.now();
      await dropFile(page, `${server.url}made/mp.wz`, "mp.wz");
      let st = await waitFor(page, (s) => s.gallery?.tiles > 1 && s.state === "ready", "no gallery");
      assert.equal(st.model, null, "a gallery is on screen, no model");
      assert.equal(st.error, null);
      assert.equal(st.gallery.tiles, tiles, "one tile per model and map of the archive");

      // The thumbnails finish, and the page answers while they render: each frame
      // does a bounded slice of them, so the next frame comes soon.
      const frames = [];
      for (const until = Date.now() + 300_000; ;) {
        const asked = Date.now();
        st = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(window.vitrine.status()))));
        const th = st.gallery.thumbnails;
        if (th.total > 0 && th.done === th.total) break;
        frames.push(Date.now() - asked);
        assert.ok(Date.now() < until, `the thumbnails never finished: ${JSON.stringify(st)}`);
        await page.waitForTimeout(50);
      }
      const took = Date.now() - dropped;
      t.diagnostic(`${backend}: mp.wz dropped → gallery of ${st.gallery.tiles} with every thumbnail: ${took} ms`);
      assert.equal(st.gallery.thumbnails.total, tiles, "a thumbnail for every tile");
      assert.equal(st.gallery.failed, 0, "every tile has its picture");
      frames.sort((a, b) => a - b);
      const median = frames[frames.length >> 1] ?? 0;
      const worst = frames.at(-1) ?? 0;
      t.diagnostic(`${backend}: next frame while thumbnails render: median ${median} ms, worst ${worst} ms (${frames.length} asked)`);
      assert.ok(worst < Math.max(2000, took / 4), `the page froze for ${worst} ms of ${took}`);
      assert.deepEqual(page.errors, []);

      // The tiles show pictures: the grid's area has far more than the names' text
      // off the page's background.
      await page.mouse.move(1000, 690);
      await page.waitForTimeout(300);
      const capture = await page.screenshot();
      keep(`gallery-${backend}.png`, capture);
      {
        const shot = await decodeImage(page, capture);
        const grid = crop(shot, { x: 0, y: 120, width: 1024, height: 500 });
        const share = colourful(grid.pixels);
        t.diagnostic(`${backend}: ${(share * 100).toFixed(1)}% of the grid is picture`);
        // Tiles that show names only leave the grid grey (under 1 % coloured); the
        // textured models of mp.wz over base.wz colour about 8 % of it.
        assert.ok(share > 0.04, `the tiles show pictures (${share} of the grid)`);
        assert.ok(covered(grid.pixels) > 0.2);
      }

      // A click on the first tile opens its model.
      const first = models[0];
      await page.mouse.click(FIRST_TILE.x, FIRST_TILE.y);
      st = await waitFor(page, (s) => s.state === "ready" && s.model !== null, "the tile did not open");
      assert.equal(st.model, first.name, `the first tile is ${first.path}`);
      assert.equal(st.gallery.tiles, tiles, "the gallery is kept behind the viewer");

      // Drawn with its pages from the dropped base.wz, as the native render draws it
      // with data/base as its data root.
      await page.mouse.move(1000, 400);
      const shot = await screenshot(page);
      keep(`gallery-opened-${backend}.png`, shot.png);
      const native = join(made, `native-${backend}.png`);
      execFileSync("cargo", ["run", "-q", "--bin", "vitrine", "--", "render",
        `${join(CORPUS, WZ)}!/${first.path}`, "--data", join(CORPUS, BASE),
        "-o", native, "--size", `${shot.width}x${shot.height}`], { cwd: ROOT, stdio: "inherit" });
      const ref = await decodeImage(page, readFileSync(native));
      const d = meanDifference(shot.pixels, ref.pixels);
      t.diagnostic(`${backend}: ${first.name} from mp.wz over base.wz vs native render: mean |diff| ${d.toFixed(2)}`);
      assert.ok(d <= MEAN_TOLERANCE, `mean difference ${d}`);
    });
  } finally {
    server.close();
  }
});

/// The middle of the first tile's picture at 1024×700: below the menu bar, the gallery's
/// bar and the first folder's heading.
const FIRST_TILE = { x: 70, y: 170 };

/// The `rect` of an RGBA picture.
function crop(img, rect) {
  const pixels = [];
  for (let y = rect.y; y < rect.y + rect.height; y++) {
    const row = (y * img.width + rect.x) * 4;
    pixels.push(...img.pixels.slice(row, row + rect.width * 4));
  }
  return { width: rect.width, height: rect.height, pixels };
}

/// The share of pixels that are not grey (egui's panels and text are grey; the models,
/// and the placeholder of a missing texture page, are not).
function colourful(pixels) {
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 24) n++;
  }
  return n / (pixels.length / 4);
}
