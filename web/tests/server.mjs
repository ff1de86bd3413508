// A small static file server for the browser tests: serves ROOT on 127.0.0.1 (a secure
// context, so WebGPU is offered) with the MIME types the page needs — `.wasm` as
// `application/wasm` for streaming compilation — plus `/corpus/…` from ../shared/corpus
// when given (and `/made/…`, files a test made), with `Access-Control-Allow-Origin: *` like GitHub's raw file host.
//
//   node web/tests/server.mjs OUT_DIR [PORT] [CORPUS_DIR]   (prints the URL)
//   import { serve } from "./server.mjs"; const s = await serve(dir); s.url; s.close();

import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

export const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".svg": "image/svg+xml",
};

/// The file under `root` that `urlPath` names, or null when it would leave `root`.
export function resolveUnder(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath.split("?")[0].split("#")[0]);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const base = resolve(root);
  const file = normalize(join(base, decoded));
  return file === base || file.startsWith(base + sep) ? file : null;
}

/// Serves `root` (and `/corpus/` from `corpus`, `/made/` from `made`, when given) on 127.0.0.1:`port` (0: any
/// free port). Resolves to `{ url, port, close() }`.
export function serve(root, { port = 0, corpus = null, made = null } = {}) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://127.0.0.1").pathname;
    let file;
    if (corpus && path.startsWith("/corpus/")) {
      file = resolveUnder(corpus, path.slice("/corpus".length));
    } else if (made && path.startsWith("/made/")) {
      file = resolveUnder(made, path.slice("/made".length));
    } else {
      file = resolveUnder(root, path.endsWith("/") ? path + "index.html" : path);
    }
    const headers = { "Access-Control-Allow-Origin": "*", "Cache-Control": "no-store" };
    if (!file || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(file ? 405 : 403, headers).end();
      return;
    }
    let info;
    try {
      info = await stat(file);
    } catch {
      res.writeHead(404, headers).end("not found");
      return;
    }
    if (!info.isFile()) {
      res.writeHead(404, headers).end("not found");
      return;
    }
    res.writeHead(200, {
      ...headers,
      "Content-Type": MIME[extname(file).toLowerCase()] ?? "application/octet-stream",
      "Content-Length": info.size,
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      const { port } = server.address();
      ok({
        url: `http://127.0.0.1:${port}/`,
        port,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [root, port, corpus] = process.argv.slice(2);
  if (!root) {
    console.error("usage: node web/tests/server.mjs DIR [PORT] [CORPUS_DIR]");
    process.exit(2);
  }
  const s = await serve(root, { port: Number(port ?? 0), corpus: corpus ?? null });
  console.log(s.url);
}
