// Animation in the page, on WebGPU and on WebGL2 (`?backend=webgl2`), with the oil
// derrick of the corpus (`blderik_anim.pie`, fetched by `?url=` with its texture pages):
// the timeline plays it (two of the app's screenshots taken while it plays, at different
// times, differ), and File ▸ Export animation… (driven through
// `window.vitrine.exportAnimation`, which runs the dialog's commands) downloads a GIF
// that holds the clip's frames at its own rate, while the page keeps answering.
//
// Needs what page.test.mjs needs. VITRINE_WEB_PAGE=DIR uses a page built by
// web/build.sh; VITRINE_WEB_ARTIFACTS=DIR keeps the screenshots and the GIF there.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "./server.mjs";
import {
  CORPUS, covered, decodeImage, download, keep, meanDifference, newPage, pageDir,
  screenshot, skipUnless, onEachBackend, waitFor, tempDir } from "./util.mjs";

const DERRICK = "wz2100/data/base/structs/blderik_anim.pie";
const PAGES = ["page-11-player-buildings.png", "page-11_tcmask.png"];
// The WebGPU readback of the app's screenshot is being fixed separately.
/// The files the page fetches: the derrick and its texture pages as the corpus lays
/// them out.
function servedCorpus() {
  const dir = tempDir("vitrine-anim-");
  cpSync(join(CORPUS, DERRICK), join(dir, DERRICK));
  for (const p of PAGES) {
    cpSync(join(CORPUS, "wz2100/data/base/texpages", p), join(dir, "wz2100/data/base/texpages", p));
  }
  return dir;
}

/// Rejects with the page's log line when it logs a line matching `pattern` (the app logs
/// a failed screenshot or export there as well as in its toast): a failure ends the wait
/// for a download at once.
function logged(page, pattern) {
  const failure = new Promise((_, reject) => {
    page.on("console", (m) => {
      if (pattern.test(m.text())) reject(new Error(m.text()));
    });
  });
  failure.catch(() => {}); // Seen by the race it is in, whenever it comes.
  return failure;
}

/// The clip a PIE states: its longest `ANIMOBJECT <ms per frame> <cycles> <frames>`.
function pieClip(text) {
  const clips = [...text.matchAll(/^ANIMOBJECT\s+(\d+)\s+(\d+)\s+(\d+)/gm)]
    .map((m) => ({ msPerFrame: Number(m[1]), frames: Number(m[3]) }));
  assert.ok(clips.length > 0, "the PIE has no ANIMOBJECT");
  return clips.reduce((a, b) => (b.frames > a.frames ? b : a));
}

/// The frames of a GIF file, read block by block: `{width, height, loops, frames:
/// [{delay (1/100 s), left, top, width, height}]}`; throws on a malformed file.
function parseGif(bytes) {
  const b = Buffer.from(bytes);
  assert.match(b.subarray(0, 6).toString("latin1"), /^GIF8[79]a$/, "not a GIF");
  const width = b.readUInt16LE(6);
  const height = b.readUInt16LE(8);
  let at = 13;
  if (b[10] & 0x80) at += 3 << ((b[10] & 7) + 1);
  const skipSubBlocks = () => {
    while (b[at] !== 0) {
      at += b[at] + 1;
      assert.ok(at < b.length, "a block runs past the end");
    }
    at += 1;
  };
  const frames = [];
  let delay = null;
  let loops = null;
  for (;;) {
    assert.ok(at < b.length, "no trailer");
    const kind = b[at];
    if (kind === 0x3b) break;
    if (kind === 0x21) {
      const label = b[at + 1];
      if (label === 0xf9) delay = b.readUInt16LE(at + 4);
      if (label === 0xff && b.subarray(at + 3, at + 14).toString("latin1") === "NETSCAPE2.0") {
        loops = b.readUInt16LE(at + 16);
      }
      at += 2;
      skipSubBlocks();
    } else if (kind === 0x2c) {
      const frame = {
        delay,
        left: b.readUInt16LE(at + 1),
        top: b.readUInt16LE(at + 3),
        width: b.readUInt16LE(at + 5),
        height: b.readUInt16LE(at + 7),
      };
      const packed = b[at + 9];
      at += 10;
      if (packed & 0x80) at += 3 << ((packed & 7) + 1);
      at += 1; // LZW minimum code size
      skipSubBlocks();
      frames.push(frame);
      delay = null;
    } else {
      assert.fail(`unknown GIF block 0x${kind.toString(16)} at byte ${at}`);
    }
  }
  return { width, height, loops, frames };
}

test("the page plays and exports the derrick's animation on WebGPU and WebGL2", {
  skip: skipUnless(DERRICK, ...PAGES.map((p) => `wz2100/data/base/texpages/${p}`)),
}, async (t) => {
  const dir = pageDir();
  const served = servedCorpus();
  const clip = pieClip(readFileSync(join(CORPUS, DERRICK), "latin1"));
  const server = await serve(dir, { corpus: served });
  try {
    await onEachBackend(t, async ({ backend, browser, query, t: bt }) => {
      const page = await newPage(browser);
      const url = `${server.url}?url=${encodeURIComponent(server.url + "corpus/" + DERRICK)}`;
      await page.goto(url + (query ? `&${query}` : ""));
      const st = await waitFor(page, (s) => s.state !== "loading");
      assert.deepEqual(st, { state: "ready", model: "blderik_anim.pie", error: null, backend });
      await page.mouse.move(700, 350);
      const shot = () => Promise.race([screenshot(page), logged(page, /screenshot failed/)]);

      await bt.test(`${backend}: the timeline plays the clip`, async () => {
        // A freshly opened model plays its first clip; screenshots taken a part of
        // the clip apart show the pump in other places. A screenshot takes its own,
        // varying time on a loaded machine, so two of them can land a whole cycle
        // apart and show the same pose: screenshots are taken until one differs from
        // the first (a model that does not play never does). The side panel settles
        // its width over the first frames: a screenshot of another size starts over.
        let a = await shot();
        let b;
        let d = 0;
        let resized = 0;
        for (let tries = 1; d <= 0.3 && tries <= 8; tries++) {
          await page.waitForTimeout(clip.msPerFrame * clip.frames * 0.3);
          const next = await shot();
          if (next.width !== a.width || next.height !== a.height) {
            resized++;
            assert.ok(resized < 4, `the view keeps changing size (${next.width}x${next.height})`);
            a = next;
            continue;
          }
          const dn = meanDifference(a.pixels, next.pixels);
          if (b === undefined || dn > d) [b, d] = [next, dn];
        }
        assert.ok(b !== undefined, "no two screenshots of one size");
        keep(`anim-a-${backend}.png`, a.png);
        keep(`anim-b-${backend}.png`, b.png);
        t.diagnostic(`${backend}: two screenshots while playing differ by ${d.toFixed(3)} of 255`);
        assert.ok(d > 0.3, `the screenshots are all the same picture (mean |diff| ${d})`);
      });

      await bt.test(`${backend}: Export animation downloads the GIF`, async () => {
        // While it runs, the page answers: status() is asked every 100 ms and each
        // answer is timed.
        const started = Date.now();
        let polls = 0;
        let slowest = 0;
        let exporting = true;
        const polling = (async () => {
          while (exporting) {
            const asked = Date.now();
            const s = await page.evaluate(() => window.vitrine.status());
            slowest = Math.max(slowest, Date.now() - asked);
            assert.equal(s.model, "blderik_anim.pie");
            polls++;
            await new Promise((r) => setTimeout(r, 100));
          }
        })();
        let got;
        try {
          got = await Promise.race([
            download(page, () => page.evaluate(() => window.vitrine.exportAnimation("derrick.gif")),
              300000),
            logged(page, /animation export failed/),
          ]);
        } finally {
          exporting = false;
          await polling;
        }
        const seconds = (Date.now() - started) / 1000;
        keep(`derrick-${backend}.gif`, got.bytes);
        assert.equal(got.name, "derrick.gif");
        const gif = parseGif(got.bytes);
        t.diagnostic(`${backend}: ${got.bytes.length} bytes, ${gif.frames.length} frames ` +
          `${gif.width}x${gif.height} in ${seconds.toFixed(1)} s; status() answered ${polls} ` +
          `times meanwhile, the slowest in ${slowest} ms`);
        // The dialog's defaults: the clip once through at its own rate, 512².
        assert.equal(gif.frames.length, clip.frames, "one GIF frame per frame of the clip");
        assert.deepEqual([gif.width, gif.height], [512, 512]);
        assert.equal(gif.loops, 0, "loops forever");
        const total = gif.frames.reduce((s, f) => s + f.delay, 0);
        assert.equal(total, Math.round((clip.frames * clip.msPerFrame) / 10),
          "the delays add up to the clip's length");
        // The first frame is the whole picture, the others what changed.
        const f0 = gif.frames[0];
        assert.deepEqual([f0.left, f0.top, f0.width, f0.height], [0, 0, 512, 512]);
        // The browser decodes it, and its first frame shows the derrick.
        const decoded = await decodeImage(page, got.bytes);
        assert.equal(decoded.width, 512);
        assert.ok(covered(decoded.pixels) > 0.1, `the derrick covers ${covered(decoded.pixels)}`);
        assert.ok(polls >= 3 && slowest < 3000,
          `the page stopped answering during the export (${polls} answers, slowest ${slowest} ms)`);
      });
      assert.deepEqual(page.errors, []);
    });
  } finally {
    await server.close();
  }
});
