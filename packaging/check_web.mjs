// packaging/check.sh's browser step: the unpacked web zip, served as any static host
// serves it (`python3 -m http.server` on 127.0.0.1), opens a model by `?url=` in
// headless Chromium (WebGL2 on SwiftShader), reports it ready and draws it.
//
//   node packaging/check_web.mjs SITE_DIR MODEL_PATH_IN_SITE

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { basename } from "node:path";
import { covered, launch, newPage, screenshot, waitFor } from "../web/tests/util.mjs";

const [site, model] = process.argv.slice(2);
assert.ok(site && model, "usage: node packaging/check_web.mjs SITE_DIR MODEL_PATH_IN_SITE");

/// `python3 -m http.server` on a free port of 127.0.0.1; resolves to its base URL.
function serve(dir) {
  const server = spawn("python3", ["-u", "-m", "http.server", "--bind", "127.0.0.1", "-d", dir, "0"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  return new Promise((resolve, reject) => {
    let said = "";
    server.stdout.on("data", (chunk) => {
      said += chunk;
      const port = /port (\d+)/.exec(said);
      if (port) resolve({ server, url: `http://127.0.0.1:${port[1]}/` });
    });
    server.on("exit", (code) => reject(new Error(`http.server exited with ${code}: ${said}`)));
  });
}

const { server, url } = await serve(site);
const { browser, query } = await launch("webgl2");
try {
  const page = await newPage(browser);
  const started = Date.now();
  await page.goto(`${url}?url=${encodeURIComponent(url + model)}&${query}`);
  const st = await waitFor(page, (s) => s.state !== "loading" && s.model !== "tank.pie" || s.error);
  assert.deepEqual(st, { state: "ready", model: basename(model), error: null, backend: "webgl2" });
  await page.mouse.move(700, 350);
  const shot = await screenshot(page);
  const share = covered(shot.pixels);
  assert.ok(share > 0.02, `the model covers ${share} of the view`);
  assert.deepEqual(page.errors, []);
  console.log(`web: ${model} ready ${Date.now() - started} ms after navigation; covers ${(share * 100).toFixed(1)}% of the view`);
} finally {
  await browser.close();
  server.kill();
}
