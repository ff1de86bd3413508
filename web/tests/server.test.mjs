// The test server itself: what the browser tests rely on (run: npm test, in web/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { serve } from "./server.mjs";
import { tempDir } from "./util.mjs";

test("serves .wasm as application/wasm, refuses paths that leave the folder", async () => {
  const root = tempDir("vitrine-serve-");
  const corpus = tempDir("vitrine-corpus-");
  await writeFile(join(root, "index.html"), "<!doctype html>");
  await writeFile(join(root, "vitrine_web_bg.wasm"), Buffer.from([0, 97, 115, 109]));
  await mkdir(join(corpus, "wz2100"));
  await writeFile(join(corpus, "wz2100", "a b.pie"), "PIE 3");
  await writeFile(join(root, "..", "secret.txt"), "no");
  const s = await serve(root, { corpus });
  try {
    const wasm = await fetch(s.url + "vitrine_web_bg.wasm");
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers.get("content-type"), "application/wasm");
    assert.deepEqual([...new Uint8Array(await wasm.arrayBuffer())], [0, 97, 115, 109]);
    const page = await fetch(s.url);
    assert.match(page.headers.get("content-type"), /^text\/html/);
    const pie = await fetch(s.url + "corpus/wz2100/a%20b.pie");
    assert.equal(await pie.text(), "PIE 3");
    assert.equal(pie.headers.get("access-control-allow-origin"), "*");
    assert.equal((await fetch(s.url + "missing.pie")).status, 404);
    assert.equal((await fetch(s.url + "..%2fsecret.txt")).status, 403);
    assert.equal((await fetch(s.url + "corpus/..%2f..%2fsecret.txt")).status, 403);
  } finally {
    await s.close();
  }
});

test("serves byte ranges, or not when told, and counts what it sent", async () => {
  const root = tempDir("vitrine-serve-");
  await writeFile(join(root, "a.bin"), Buffer.from([...Array(100).keys()]));
  const get = (s, range) => fetch(s.url + "a.bin", range ? { headers: { Range: range } } : {});
  const s = await serve(root);
  try {
    const r = await get(s, "bytes=10-19");
    assert.equal(r.status, 206);
    assert.equal(r.headers.get("content-range"), "bytes 10-19/100");
    assert.deepEqual([...new Uint8Array(await r.arrayBuffer())], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const tail = await get(s, "bytes=-5");
    assert.equal(tail.headers.get("content-range"), "bytes 95-99/100");
    await tail.arrayBuffer();
    assert.equal((await get(s, "bytes=200-300")).status, 416);
    assert.deepEqual(s.sent["/a.bin"], { requests: 2, bytes: 15, spans: [[10, 20], [95, 100]] });
  } finally {
    await s.close();
  }
  const whole = await serve(root, { ranges: false });
  try {
    const r = await get(whole, "bytes=10-19");
    assert.equal(r.status, 200, "ranges ignored: the whole file");
    assert.equal((await r.arrayBuffer()).byteLength, 100);
    assert.equal(r.headers.get("accept-ranges"), null);
  } finally {
    await whole.close();
  }
  const liar = await serve(root, { lie: "range" });
  try {
    const r = await get(liar, "bytes=10-19");
    assert.equal(r.headers.get("content-range"), "bytes 9-18/100", "other bytes than asked");
    assert.equal(new Uint8Array(await r.arrayBuffer())[0], 9);
  } finally {
    await liar.close();
  }
});
