// A small static file server for the browser tests: serves ROOT on 127.0.0.1 (a secure
// context, so WebGPU is offered) with the MIME types the page needs — `.wasm` as
// `application/wasm` for streaming compilation — plus `/corpus/…` from ../shared/corpus
// when given (and `/made/…`, files a test made), with `Access-Control-Allow-Origin: *` like GitHub's raw file host.
// It serves `Range: bytes=…` requests (one range, `206` with `Content-Range`, as GitHub
// Pages and most hosts do) unless told `ranges: false`; `lie: "range"` answers them with
// other bytes than asked, and `lie: "total"` says a file length that is not the one the
// end of the file was sent with. `sent`
// counts the requests and body bytes per path, so tests can say what a page transferred,
// and lists each request's bytes (`spans`: `[start, end)`), so a bench can say what was read.
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

/// The range a `Range` header asks of a file of `size` bytes: `{ start, end }` (end
/// exclusive), or null for none, several, or one the file cannot satisfy.
export function askedRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const n = Math.min(Number(m[2]), size);
    return n > 0 ? { start: size - n, end: size } : null;
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size : Math.min(Number(m[2]) + 1, size);
  return start < end ? { start, end } : null;
}

/// Serves `root` (and `/corpus/` from `corpus`, `/made/` from `made`, when given) on 127.0.0.1:`port` (0: any
/// free port). Resolves to `{ url, port, sent, close() }`; `sent[path]` is
/// `{ requests, bytes, spans }` (`spans`: each request's `[start, end)`, in order).
export function serve(root, { port = 0, corpus = null, made = null, ranges = true, lie = null } = {}) {
  const sent = {};
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
    const headers = {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Headers": "Range",
      "Access-Control-Expose-Headers": "Content-Range, Accept-Ranges, Content-Length",
      "Cache-Control": "no-store",
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...headers, "Access-Control-Allow-Methods": "GET, HEAD" }).end();
      return;
    }
    if (!file || !["GET", "HEAD"].includes(req.method)) {
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
    const type = MIME[extname(file).toLowerCase()] ?? "application/octet-stream";
    const count = (start, end) => {
      const c = (sent[path] ??= { requests: 0, bytes: 0, spans: [] });
      c.requests += 1;
      c.bytes += end - start;
      c.spans.push([start, end]);
    };
    const range = ranges && req.headers.range ? askedRange(req.headers.range, info.size) : null;
    if (ranges && req.headers.range && !range) {
      res.writeHead(416, { ...headers, "Content-Range": `bytes */${info.size}` }).end();
      return;
    }
    if (range) {
      let { start, end } = range;
      let total = info.size;
      // Other bytes than asked (and says so), or a length that changed since the tail.
      if (lie === "range" && start > 0) start -= 1, end -= 1;
      if (lie === "total" && end < info.size) total += 1;
      const said = `bytes ${start}-${end - 1}/${total}`;
      res.writeHead(206, {
        ...headers, "Content-Type": type, "Accept-Ranges": "bytes",
        "Content-Range": said, "Content-Length": end - start,
      });
      count(start, end);
      if (req.method === "HEAD" || end === start) return res.end();
      createReadStream(file, { start, end: end - 1 }).pipe(res);
      return;
    }
    res.writeHead(200, {
      ...headers,
      "Content-Type": type,
      "Content-Length": info.size,
      ...(ranges ? { "Accept-Ranges": "bytes" } : {}),
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    count(0, info.size);
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      const { port } = server.address();
      ok({
        url: `http://127.0.0.1:${port}/`,
        port,
        sent,
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
