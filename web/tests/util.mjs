// What the page tests share: where things are, the browser's flags, building the page
// once per run, waiting on `window.vitrine.status()`, reading the app's screenshots and
// comparing pictures. Not a test file itself (node --test runs `*.test.mjs`).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

export const ROOT = resolve(import.meta.dirname, "../..");
export const CHROMIUM = process.env.VITRINE_CHROMIUM ?? "/usr/bin/chromium";
export const CORPUS = resolve(ROOT, "../shared/corpus");
/// The base game's data folder in the corpus.
export const BASE = "wz2100/data/base";
/// ViewSettings' default background, what every picture is drawn on.
export const BG = [40, 44, 52];
export const FLAGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
];
/// WebGPU on SwiftShader, presenting to the canvas: without Chromium's Vulkan path the
/// GPU process cannot make the canvas's WebGPU swap-chain images headless ("Could not find
/// SharedImageBackingFactory … WebgpuSwapChainTexture"), and the device is lost at the
/// first frame the page presents.
export const WEBGPU_FLAGS = ["--enable-unsafe-webgpu", "--use-vulkan=swiftshader", "--enable-features=Vulkan"];
export const BACKENDS = ["webgpu", "webgl2"];

export const haveBrowser = existsSync(CHROMIUM);
if (process.env.VITRINE_REQUIRE_BROWSER === "1" && !haveBrowser) {
  throw new Error(`VITRINE_REQUIRE_BROWSER=1 but ${CHROMIUM} is missing (apt-get install chromium)`);
}

/// Whether `../shared/corpus/REL` is there; with VITRINE_REQUIRE_SHARED=1 its absence
/// is an error rather than a skip.
export function haveCorpus(rel) {
  const there = existsSync(join(CORPUS, rel));
  if (!there && process.env.VITRINE_REQUIRE_SHARED === "1") {
    throw new Error(`VITRINE_REQUIRE_SHARED=1 but ${join(CORPUS, rel)} is missing`);
  }
  return there;
}

/// The skip reason of a test that needs the browser and the corpus files `rels`, or false.
export function skipUnless(...rels) {
  if (!haveBrowser) return `SKIPPED: no ${CHROMIUM} (apt-get install chromium)`;
  const missing = rels.find((r) => !haveCorpus(r));
  return missing ? `SKIPPED: no ${join(CORPUS, missing)} (../shared/corpus)` : false;
}

/// A new folder under the system's temporary folder, removed when the test process exits
/// (node --test runs each file in a process of its own): the tests' archives, sites and
/// probes (hundreds of MiB in all) do not pile up on the machine that runs them.
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let built = null;
/// The page's folder: VITRINE_WEB_PAGE when set, else a `--test` build of web/build.sh
/// into target/web-test-page (built once per test process; cargo makes a second build
/// of an unchanged tree quick).
export function pageDir() {
  if (process.env.VITRINE_WEB_PAGE) return process.env.VITRINE_WEB_PAGE;
  if (!built) {
    built = join(ROOT, "target/web-test-page");
    execFileSync(join(ROOT, "web/build.sh"), ["--test", built], { stdio: "inherit" });
  }
  return built;
}

/// A headless Chromium for `backend` ("webgpu" or "webgl2"), and the query that makes
/// the page use it.
export async function launch(backend) {
  const args = backend === "webgpu" ? [...FLAGS, ...WEBGPU_FLAGS] : FLAGS;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  return { browser, query: backend === "webgl2" ? "backend=webgl2" : "" };
}

/// Runs `body({backend, browser, query, t})` once per backend, each a subtest of `t`
/// with a browser of its own for that backend (closed afterwards, passed or failed).
export async function onEachBackend(t, body) {
  for (const backend of BACKENDS) {
    await t.test(backend, async (bt) => {
      const { browser, query } = await launch(backend);
      try {
        await body({ backend, browser, query, t: bt });
      } finally {
        await browser.close();
      }
    });
  }
}

/// A new page of `browser` whose uncaught errors are collected in `page.errors`.
export async function newPage(browser, viewport = { width: 1024, height: 700 }) {
  const page = await browser.newPage({ viewport, acceptDownloads: true });
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  return page;
}

/// Polls `window.vitrine.status()` until `want(status)` holds (60 s at most).
export async function waitFor(page, want, what = "the page never got there") {
  let st = null;
  for (let i = 0; i < 240; i++) {
    st = await page.evaluate(() => window.vitrine?.status?.() ?? null);
    if (st && want(st)) return st;
    await page.waitForTimeout(250);
  }
  assert.fail(`${what}; status ${JSON.stringify(st)}`);
}

/// Decodes image bytes (PNG, GIF…) in the page: `{width, height, pixels}` (RGBA).
export async function decodeImage(page, bytes) {
  return page.evaluate(async (bytes) => {
    const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)]), {
      colorSpaceConversion: "none",
      premultiplyAlpha: "none",
    });
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(bitmap, 0, 0);
    return { width: bitmap.width, height: bitmap.height, pixels: Array.from(ctx.getImageData(0, 0, bitmap.width, bitmap.height).data) };
  }, Array.from(bytes));
}

/// Runs `action` (a key press, a click) and returns the download it starts:
/// `{name, bytes}`.
export async function download(page, action, timeout = 60000) {
  const [d] = await Promise.all([page.waitForEvent("download", { timeout }), action()]);
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

/// Presses F12 (the app's screenshot) and returns the downloaded PNG's pixels.
export async function screenshot(page) {
  const { name, bytes } = await download(page, () => page.keyboard.press("F12"));
  return { ...(await decodeImage(page, bytes)), name, png: bytes };
}

/// The app's screenshot (F12) with the mouse resting in the same place, out of the
/// view's way (no hover highlight), after a moment for the page to settle.
export async function shot(page) {
  await page.mouse.move(700, 350);
  await page.waitForTimeout(300);
  return screenshot(page);
}

/// The page's fragment once it matches `want` (the page writes it a few times a second;
/// 10 s at most).
export async function hashWhen(page, want, what) {
  for (let i = 0; i < 100; i++) {
    const hash = await page.evaluate(() => location.hash);
    if (want.test(hash)) return hash;
    await page.waitForTimeout(100);
  }
  assert.fail(`${what}: the fragment is ${await page.evaluate(() => location.hash)}`);
}

/// The share of `pixels` (RGBA) that is not the background.
export function covered(pixels) {
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (BG.some((v, c) => Math.abs(pixels[i + c] - v) > 8)) n++;
  }
  return n / (pixels.length / 4);
}

/// Mean absolute difference per colour channel (0–255) of two RGBA pictures.
export function meanDifference(a, b) {
  assert.equal(a.length, b.length, "picture sizes differ");
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) {
    for (let c = 0; c < 3; c++) sum += Math.abs(a[i + c] - b[i + c]);
  }
  return sum / ((a.length / 4) * 3);
}

/// Keeps `bytes` as VITRINE_WEB_ARTIFACTS/NAME when that variable is set.
export function keep(name, bytes) {
  if (!process.env.VITRINE_WEB_ARTIFACTS) return;
  mkdirSync(process.env.VITRINE_WEB_ARTIFACTS, { recursive: true });
  writeFileSync(join(process.env.VITRINE_WEB_ARTIFACTS, name), Buffer.from(bytes));
}

/// A `base.wz` of the corpus's base pages (texpages/…) and one body (so it opens as a
/// gallery of its own), in a new folder served as /made/.
export function baseArchive() {
  const dir = tempDir("vitrine-base-");
  execFileSync("python3", ["-c", `
import os, sys, zipfile
base, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
    for name in sorted(os.listdir(os.path.join(base, "texpages"))):
        z.write(os.path.join(base, "texpages", name), "texpages/" + name)
    z.write(os.path.join(base, "components/bodies/drlbod01.pie"), "components/bodies/drlbod01.pie")
`, join(CORPUS, BASE), join(dir, "base.wz")]);
  return dir;
}

/// Drops the file at `url` (fetched by the page) on the canvas, named `name`.
export async function dropFile(page, url, name) {
  await page.evaluate(async ({ url, name }) => {
    const blob = await (await fetch(url)).blob();
    const dt = new DataTransfer();
    dt.items.add(new File([blob], name));
    const canvas = document.getElementById("vitrine");
    const at = { bubbles: true, cancelable: true, dataTransfer: dt, clientX: 400, clientY: 300 };
    canvas.dispatchEvent(new DragEvent("dragenter", at));
    canvas.dispatchEvent(new DragEvent("dragover", at));
    canvas.dispatchEvent(new DragEvent("drop", at));
  }, { url, name });
}

/// The share of `pixels` (RGBA) in the renderer's missing-texture magenta.
export function magenta(pixels) {
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i] > 180 && pixels[i + 1] < 80 && pixels[i + 2] > 180) n++;
  }
  return n / (pixels.length / 4);
}

/// Before `page.goto`: the page records when the first frame with `model` open began to
/// be shown (the start of the animation frame after the one that drew it: a frame waits
/// for the GPU process to finish the last), and what every fetch started before then
/// cost: per path, `{ requests, bytes, spans }` (`spans`: each response's `[start, end)`
/// from its `Content-Range`, or the whole body). Timed in the page, because a poll from
/// the test waits behind whatever the page's one thread does next (the full-size pages'
/// job, seconds) and would count it. Read it with `firstFrame`.
export async function watchFirstFrame(page, model) {
  await page.addInitScript((model) => {
    const raf = window.requestAnimationFrame.bind(window);
    const fetch0 = window.fetch.bind(window);
    const seen = { at: null, sent: {} };
    window.__firstFrame = seen;
    window.fetch = async (...args) => {
      const before = seen.at === null;
      const r = await fetch0(...args);
      if (before) {
        const n = Number(r.headers.get("content-length") ?? 0);
        const m = /bytes (\d+)-(\d+)\//.exec(r.headers.get("content-range") ?? "");
        const span = m ? [Number(m[1]), Number(m[2]) + 1] : [0, n];
        const c = (seen.sent[new URL(r.url).pathname] ??= { requests: 0, bytes: 0, spans: [] });
        c.requests += 1;
        c.bytes += n;
        c.spans.push(span);
      }
      return r;
    };
    window.requestAnimationFrame = (cb) => raf((t) => {
      if (seen.at === null && window.vitrine?.status?.().model === model) seen.at = performance.now();
      cb(t);
    });
  }, model);
}

/// What `watchFirstFrame` recorded, once the first frame was shown: `{ at, sent }`, `at`
/// in ms from the navigation's start.
export async function firstFrame(page, timeout = 180000) {
  await page.waitForFunction(() => window.__firstFrame?.at != null, null, { polling: 50, timeout });
  return page.evaluate(() => window.__firstFrame);
}
