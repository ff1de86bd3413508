// Time from a link to the drawn model, on localhost, in headless Chromium on WebGPU and
// WebGL2 (SwiftShader): a fresh page navigated to the link, until `status()` says ready
// (the model or assembly drawn), median of ROUNDS. Links into a published site
// (`vitrine publish`: SITE/view.html?url=site.wz#…, site.wz read a piece at a time when
// the server serves ranges, as this one does), and the same model opened from its loose
// PIE beside the page for comparison; with ranges and without.
//
//   node web/tests/bench_links.mjs SITE_DIR [ROUNDS]
//
// SITE_DIR is a site `vitrine publish` wrote (of the corpus's mp.wz over data/base, for
// the figures in docs/performance.md), with the page built by web/build.sh (the `web` profile).
// benches/publish_site.sh --links runs it.

import { join } from "node:path";
import { serve } from "./server.mjs";
import { BACKENDS, launch, newPage, waitFor } from "./util.mjs";

const [site, roundsArg] = process.argv.slice(2);
if (!site) {
  console.error("usage: node web/tests/bench_links.mjs SITE_DIR [ROUNDS]");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 5);
const LINKS = [
  ["a model", "view.html?url=site.wz#model=components/bodies/camper.pie&t=0"],
  ["a droid template", "view.html?url=site.wz#design=template:ViperMG01Wheels"],
  ["a structure", "view.html?url=site.wz#design=structure:A0LightFactory"],
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

console.log("| link | server | backend | to drawn (median) | site.wz fetched |\n|---|---|---|---|---|");
for (const ranges of [true, false]) {
  const server = await serve(site, { ranges });
  try {
    for (const backend of BACKENDS) {
      const { browser, query } = await launch(backend);
      try {
        for (const [what, link] of LINKS) {
          const times = [];
          let bytes = 0;
          for (let i = 0; i < rounds; i++) {
            server.sent["/site.wz"] = undefined;
            const page = await newPage(browser);
            const url = new URL(link, server.url);
            if (query) url.search += `&${query}`;
            const t0 = performance.now();
            await page.goto(url.href);
            const st = await waitFor(page, (s) => s.state !== "loading", `${what} never drew`);
            if (st.state !== "ready") throw new Error(`${what}: ${st.error}`);
            times.push(performance.now() - t0);
            bytes = server.sent["/site.wz"]?.bytes ?? 0;
            await page.close();
          }
          console.log(`| ${what} | ${ranges ? "ranges" : "no ranges"} | ${backend} | ${Math.round(median(times))} ms | ${(bytes / 1048576).toFixed(2)} MiB |`);
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await server.close();
  }
}
console.log(`\n(${rounds} rounds each; ${join(site, "site.wz")})`);
