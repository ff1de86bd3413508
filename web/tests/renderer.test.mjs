// The renderer's browser path in headless Chromium, on both of the page's GPU paths:
// the probe (web/examples/render_probe.rs) fetches the demo tank and its texture pages
// from a local server, loads it with the core, draws it with vitrine-render on WebGPU
// and on WebGL2 and reads it back without blocking; the picture must match what the
// native `vitrine render` draws of the same model at the same size and camera.
//
// Needs: /usr/bin/chromium (Debian's `chromium`), playwright-core (npm ci in web/), the
// wasm32 target and the wasm-bindgen CLI (web/wasm-tools.sh installs it). Set
// VITRINE_WEB_PROBE=DIR to use a probe already built by web/tests/build_probe.sh.
// Without chromium the test is skipped with a message, unless VITRINE_REQUIRE_BROWSER=1.
// VITRINE_WEB_ARTIFACTS=DIR keeps the browser's pictures there (tank-webgpu.png, …).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "./server.mjs";
import { BG, ROOT, keep, newPage, onEachBackend, skipUnless, tempDir } from "./util.mjs";

const SIZE = 256;

// How close the browser's picture must be to the native one. Both are software
// rasterisers (Mesa's lavapipe natively; SwiftShader in Chromium) with their own
// multisample patterns and texture filtering, so edges and texels may differ a little
// (measured: 0.10 mean on both paths); a wrong camera, a missing texture or team colour,
// or dark sRGB moves far more.
const MEAN_TOLERANCE = 1; // mean |difference| per channel, 0–255
const FAR_PIXELS = 0.005; // share of pixels differing by more than FAR in any channel
const FAR = 64;

function probeDir() {
  if (process.env.VITRINE_WEB_PROBE) return process.env.VITRINE_WEB_PROBE;
  const out = tempDir("vitrine-probe-");
  execFileSync(join(ROOT, "web/tests/build_probe.sh"), [out], { stdio: "inherit" });
  return out;
}

function nativeReference(dir) {
  const png = join(dir, "native.png");
  execFileSync(
    "cargo",
    ["run", "-q", "--bin", "vitrine", "--", "render", "assets/demo/tank.pie", "-o", png,
      "--size", `${SIZE}x${SIZE}`],
    { cwd: ROOT, stdio: "inherit", env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? tmpdir() } },
  );
  return "native.png";
}

function compare(a, b) {
  assert.equal(a.length, b.length, "picture sizes differ");
  let sum = 0;
  let far = 0;
  let drawn = 0;
  for (let i = 0; i < a.length; i += 4) {
    let worst = 0;
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(a[i + c] - b[i + c]);
      sum += d;
      worst = Math.max(worst, d);
    }
    if (worst > FAR) far++;
    if (BG.some((v, c) => Math.abs(a[i + c] - v) > 8)) drawn++;
  }
  const pixels = a.length / 4;
  return { mean: sum / (pixels * 3), far: far / pixels, drawn: drawn / pixels };
}

test("the demo tank drawn in Chromium matches the native render, on WebGPU and WebGL2", {
  skip: skipUnless(),
}, async (t) => {
  const dir = probeDir();
  const reference = nativeReference(dir);
  const server = await serve(dir);
  try {
    await onEachBackend(t, async ({ backend, browser }) => {
      const page = await newPage(browser);
      await page.goto(server.url);
      await page.evaluate(() => window.probeReady);
      const files = ["demo/tank.pie", "demo/texpages/page-90-demo-tank.png", "demo/texpages/page-90_tcmask.png"];
      const got = await page.evaluate(
        async ({ base, files, backend, size, reference }) => {
          const r = await window.probe.render(base, files, "demo/tank.pie", backend, size);
          const ref = await window.probe.decodePng(reference);
          const png = await window.probe.encodePng(r.width, r.height, r.pixels);
          return {
            png: Array.from(png),
            backend: r.backend,
            adapter: r.adapter,
            warnings: r.warnings,
            width: r.width,
            pixels: Array.from(r.pixels),
            reference: Array.from(ref.pixels),
            refWidth: ref.width,
          };
        },
        { base: server.url, files, backend, size: SIZE, reference },
      );
      keep(`tank-${backend}.png`, got.png);
      assert.deepEqual(page.errors, []);
      assert.equal(got.backend, backend, `drew on ${got.adapter}`);
      assert.equal(got.warnings, "", "the renderer warned");
      assert.equal(got.width, SIZE);
      assert.equal(got.refWidth, SIZE);
      const d = compare(got.pixels, got.reference);
      t.diagnostic(`${backend} on ${got.adapter}: mean |diff| ${d.mean.toFixed(2)}, ` +
        `${(d.far * 100).toFixed(2)}% pixels off by > ${FAR}, model covers ${(d.drawn * 100).toFixed(1)}%`);
      assert.ok(d.drawn > 0.1, "the model covers the picture");
      assert.ok(d.mean <= MEAN_TOLERANCE, `mean difference ${d.mean}`);
      assert.ok(d.far <= FAR_PIXELS, `${d.far} of the pixels differ by more than ${FAR}`);
    });
  } finally {
    await server.close();
  }
});
