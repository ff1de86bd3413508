// The page's time to the first frame of a map database package (docs/performance.md ▸
// On the page ▸ A map database package): `?url=PKG.wz&data=mp.wz&data=base.wz` — a
// package of `../shared/corpus/wz2100/mapdb-2p/` as the database ships it, over the
// installed game's archives, all three served by the test server with ranges, in
// headless Chromium (SwiftShader). For each page build given and each package: the time
// from the navigation's start to the first frame drawn with the map open shown (the
// start of the animation frame after it, timed in the page), and to the first frame
// once `status()` says the map is ready (its full-size pages too); the requests and bytes
// each archive cost by the first frame and by then. Builds and packages take turns
// round by round, so a before and an after are measured under the same load.
//
//   node web/tests/bench_mapdb.mjs [--log] PAGE_DIR[,PAGE_DIR…] [PKG[,PKG…]] [ROUNDS] [BACKEND]
//
// PKG names a package of mapdb-2p without `.wz` (default nPangaeaSpRc1, the largest by tile
// count and one of the densest, and Roughness-1-01, a typical 96×96 one); BACKEND webgl2
// (default) or webgpu. `--log` prints, for the last round of each, every entry of each
// archive the first frame read, largest first (the bytes requested over its span).

import { readFileSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { GAME, haveGame } from "./game.mjs";
import { serve } from "./server.mjs";
import { CORPUS, firstFrame, launch, newPage, tempDir, waitFor, watchFirstFrame } from "./util.mjs";

const args = process.argv.slice(2);
const log = args[0] === "--log" && args.shift();
const [dirs, pkgs = "nPangaeaSpRc1,Roughness-1-01", roundsArg, backend = "webgl2"] = args;
if (!dirs) {
  console.error("usage: node web/tests/bench_mapdb.mjs [--log] PAGE_DIR[,PAGE_DIR…] [PKG[,PKG…]] [ROUNDS] [BACKEND]");
  process.exit(2);
}
if (!haveGame) {
  console.error(`no ${GAME}/mp.wz and base.wz (apt-get install warzone2100-data, or WZ_DATA)`);
  process.exit(2);
}
const MAPDB = join(CORPUS, "wz2100/mapdb-2p");
const rounds = Number(roundsArg ?? 3);
const made = tempDir("vitrine-bench-mapdb-");
for (const f of ["mp.wz", "base.wz"]) symlinkSync(join(GAME, f), join(made, f));
for (const p of pkgs.split(",")) symlinkSync(join(MAPDB, `${p}.wz`), join(made, `${p}.wz`));

/// A zip's entries from its central directory: `{ name, start, end }`, `start..end` the
/// local header and data (to the next entry's header), sorted by start.
export function zipEntries(file) {
  const b = readFileSync(file);
  let eocd = b.length - 22;
  while (eocd >= 0 && b.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${file}: no end of central directory`);
  const count = b.readUInt16LE(eocd + 10);
  const dirStart = b.readUInt32LE(eocd + 16);
  const out = [];
  for (let i = 0, at = dirStart; i < count; i++) {
    const nameLen = b.readUInt16LE(at + 28), extra = b.readUInt16LE(at + 30), comment = b.readUInt16LE(at + 32);
    out.push({ name: b.toString("utf8", at + 46, at + 46 + nameLen), start: b.readUInt32LE(at + 42) });
    at += 46 + nameLen + extra + comment;
  }
  out.sort((a, c) => a.start - c.start);
  out.forEach((e, i) => (e.end = out[i + 1]?.start ?? dirStart));
  out.push({ name: "(central directory)", start: dirStart, end: b.length });
  return out;
}

/// Bytes of `spans` falling in each entry of `entries`, largest first.
function perEntry(spans, entries) {
  const by = new Map();
  for (const [s, e] of spans) {
    for (const en of entries) {
      const n = Math.min(e, en.end) - Math.max(s, en.start);
      if (n > 0) by.set(en.name, (by.get(en.name) ?? 0) + n);
    }
  }
  return [...by].sort((a, b) => b[1] - a[1]);
}

const archives = (pkg) => [`${pkg}.wz`, "mp.wz", "base.wz"];
const snapshot = (server, pkg) => Object.fromEntries(archives(pkg).map((f) => {
  const s = server.sent[`/made/${f}`] ?? { requests: 0, bytes: 0, spans: [] };
  return [f, { requests: s.requests, bytes: s.bytes, spans: [...s.spans] }];
}));

/// One opening of `pkg` on the page at `url`: the times and what each archive cost.
async function once(browser, server, query, pkg) {
  for (const f of archives(pkg)) server.sent[`/made/${f}`] = undefined;
  const page = await newPage(browser);
  await watchFirstFrame(page, "game.map");
  await page.goto(`${server.url}?url=made/${pkg}.wz&data=made/mp.wz&data=made/base.wz&${query}#embed=1`);
  // The first frame shown with the map open, and what was fetched for it (requests
  // started before it), timed and counted in the page: util.mjs's watchFirstFrame.
  const shown = await firstFrame(page);
  const first = Math.round(shown.at);
  const atFirst = Object.fromEntries(archives(pkg).map((f) => {
    const s = shown.sent[`/made/${f}`] ?? { requests: 0, bytes: 0, spans: [] };
    return [f, s];
  }));
  const st = await waitFor(page, (s) => s.state !== "loading" && s.model === "game.map", "the map never opened");
  if (st.state !== "ready") throw new Error(`${pkg}: the map failed: ${st.error}`);
  const at = await page.evaluate(() => window.vitrine.frames());
  await page.waitForFunction((n) => window.vitrine.frames() > n, at, { polling: 10, timeout: 180000 });
  const ready = Math.round(await page.evaluate(() => performance.now()));
  await page.close();
  return { first, ready, atFirst, atReady: snapshot(server, pkg) };
}

const mib = (n) => (n / 1048576).toFixed(2);
/// Bytes of `spans` sent more than once.
function again(spans) {
  let union = 0, end = -1;
  for (const [s, e] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (e > end) union += e - Math.max(s, end), end = e;
  }
  return spans.reduce((n, [s, e]) => n + e - s, 0) - union;
}
const cost = (snap) => Object.entries(snap)
  .map(([f, s]) => `${f} ${s.requests} req ${mib(s.bytes)} MiB${again(s.spans) ? `, ${mib(again(s.spans))} MiB of it twice` : ""}`).join("; ");
const total = (snap) => Object.values(snap).reduce((n, s) => n + s.bytes, 0);
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

const pages = dirs.split(",");
const results = new Map();
const servers = await Promise.all(pages.map((dir) => serve(dir, { made })));
const { browser, query } = await launch(backend);
try {
  for (let i = 0; i < rounds; i++) {
    for (const [k, dir] of pages.entries()) {
      for (const pkg of pkgs.split(",")) {
        const r = await once(browser, servers[k], query, pkg);
        const key = `${dir} ${pkg}`;
        (results.get(key) ?? results.set(key, []).get(key)).push(r);
        console.error(`${basename(dir)} ${pkg} round ${i + 1}: first ${r.first} ms, ready ${r.ready} ms; ${mib(total(r.atFirst))} MiB by the first frame`);
      }
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
for (const [key, rs] of results) {
  const last = rs[rs.length - 1];
  console.log(`${key} (${backend}, SwiftShader): first frame median ${median(rs.map((r) => r.first))} ms (${rs.map((r) => r.first).join(", ")}); ready median ${median(rs.map((r) => r.ready))} ms (${rs.map((r) => r.ready).join(", ")})`);
  console.log(`  by the first frame: ${mib(total(last.atFirst))} MiB (${cost(last.atFirst)})`);
  console.log(`  by ready: ${mib(total(last.atReady))} MiB (${cost(last.atReady)})`);
  if (!log) continue;
  const pkg = key.split(" ").pop();
  for (const f of archives(pkg)) {
    const file = f === "mp.wz" || f === "base.wz" ? join(GAME, f) : join(MAPDB, f);
    const entries = zipEntries(file);
    const rows = perEntry(last.atFirst[f].spans, entries);
    console.log(`  ${f}: ${last.atFirst[f].spans.length} requests by the first frame, ${rows.length} entries touched:`);
    for (const [name, n] of rows) console.log(`    ${String(n).padStart(9)}  ${name}`);
    const after = last.atReady[f].spans.slice(last.atFirst[f].spans.length);
    const later = perEntry(after, entries);
    console.log(`  ${f}: ${after.length} requests after it, by ready, ${later.length} entries touched:`);
    for (const [name, n] of later) console.log(`    ${String(n).padStart(9)}  ${name}`);
  }
}
