//! `vitrine publish --serve`: the site on `127.0.0.1`, to look at it before uploading.
//!
//! A small static file server on `std::net` (a thread per connection, HTTP/1.1
//! keep-alive, GET and HEAD only) with the types a browser insists on
//! (`application/wasm` for the viewer's module, `text/javascript` for its glue), always a
//! Content-Length, and `Range: bytes=a-b` requests answered with `206 Partial Content`,
//! as the viewer reads large archives in ranges. Only files under the site are served: a
//! path with `..` is refused, and so is a link that leads out of the site.
//!
//! Why not tiny_http: its connection pool starts four threads and queues further
//! connections behind busy ones, so Chromium's six keep-alive connections left two
//! thumbnails of the gallery waiting forever.
//!
//! Not a production server: loopback only, no caching, no compression, no TLS.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The Content-Type of a file by its extension.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "css" => "text/css; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "svg" => "image/svg+xml",
        "txt" | "md" => "text/plain; charset=utf-8",
        "wz" | "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

/// A `Range: bytes=…` header's one range over a file of `len` bytes, as `start..end`
/// (end exclusive): `Some(Err(()))` for a range that cannot be satisfied, `None` when
/// the header is not a single byte range (the whole file is sent).
pub fn parse_range(header: &str, len: u64) -> Option<Result<(u64, u64), ()>> {
    let spec = header.trim().strip_prefix("bytes=")?;
    if spec.contains(',') {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    let (a, b) = (a.trim(), b.trim());
    let range = if a.is_empty() {
        let n: u64 = b.parse().ok()?;
        (len.saturating_sub(n), len)
    } else {
        let start: u64 = a.parse().ok()?;
        let end = if b.is_empty() {
            len
        } else {
            b.parse::<u64>().ok()?.saturating_add(1).min(len)
        };
        (start, end)
    };
    Some(if range.0 < range.1 {
        Ok(range)
    } else {
        Err(())
    })
}

/// The file under `site` a request's URL path names (`/` is `index.html`), or `None`
/// when it leaves the site.
pub fn file_for(site: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let path = vitrine_core::files::percent_decode(path);
    let mut out = site.to_path_buf();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p if p.contains('\\') || p.contains('\0') => return None,
            p => out.push(p),
        }
    }
    if out.is_dir() {
        out.push("index.html");
    }
    let real = std::fs::canonicalize(&out).ok()?;
    let real_site = std::fs::canonicalize(site).ok()?;
    real.starts_with(&real_site).then_some(real)
}

/// Reads one line of a request's head (at most 8 KiB), without its line end; `None` at
/// the end of the stream or on an error.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    let n = reader.take(8192).read_until(b'\n', &mut line).ok()?;
    if n == 0 || !line.ends_with(b"\n") {
        return None;
    }
    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        line.pop();
    }
    String::from_utf8(line).ok()
}

/// Answers the requests of one connection, as long as the client keeps it open.
fn connection(site: &Path, stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let Ok(read) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read);
    let mut writer = stream;
    loop {
        let Some(request_line) = read_line(&mut reader) else {
            return;
        };
        let mut parts = request_line.split(' ');
        let (method, target, version) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        let mut headers: Vec<(String, String)> = Vec::new();
        loop {
            let Some(line) = read_line(&mut reader) else {
                return;
            };
            if line.is_empty() {
                break;
            }
            if headers.len() == 100 {
                return;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let header = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let close = header("connection").map(str::to_ascii_lowercase);
        let keep_alive = match version {
            "HTTP/1.1" => close.as_deref() != Some("close"),
            "HTTP/1.0" => close.as_deref() == Some("keep-alive"),
            _ => false,
        };
        // GET and HEAD have no body; a request with one is not read past: close.
        let has_body = header("content-length").is_some_and(|l| l != "0")
            || header("transfer-encoding").is_some();
        let head = method == "HEAD";
        let ok = if has_body || !matches!(method, "GET" | "HEAD") {
            let _ = respond(&mut writer, "405 Method Not Allowed", &[], (None, 0), false);
            false
        } else {
            answer(site, target, header("range"), head, keep_alive, &mut writer).is_ok()
        };
        if !ok || !keep_alive {
            return;
        }
    }
}

/// Writes a response: status line, `headers`, Content-Length `len`, and `len` bytes of
/// `body` (`None`: none, as for HEAD).
fn respond(
    w: &mut impl Write,
    status: &str,
    headers: &[(&str, String)],
    (body, len): (Option<&mut dyn Read>, u64),
    keep_alive: bool,
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status}\r\nServer: vitrine\r\nContent-Length: {len}\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    let conn = if keep_alive { "keep-alive" } else { "close" };
    head.push_str(&format!("Connection: {conn}\r\n\r\n"));
    w.write_all(head.as_bytes())?;
    if let Some(r) = body {
        let copied = std::io::copy(&mut r.take(len), w)?;
        if copied != len {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
    }
    w.flush()
}

/// Answers one GET or HEAD request for `target` from the files under `site`.
fn answer(
    site: &Path,
    target: &str,
    range: Option<&str>,
    head: bool,
    keep_alive: bool,
    w: &mut impl Write,
) -> std::io::Result<()> {
    let not_found = |w: &mut _| {
        let mut text: &[u8] = b"not found";
        let body: Option<&mut dyn Read> = if head { None } else { Some(&mut text) };
        let types = [("Content-Type", "text/plain".to_string())];
        respond(w, "404 Not Found", &types, (body, 9), keep_alive)
    };
    let Some(path) = file_for(site, target) else {
        return not_found(w);
    };
    let Ok(mut file) = std::fs::File::open(&path) else {
        return not_found(w);
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut headers = vec![
        ("Content-Type", content_type(&path).to_string()),
        ("Accept-Ranges", "bytes".to_string()),
        ("Cache-Control", "no-cache".to_string()),
    ];
    match range.and_then(|r| parse_range(r, len)) {
        Some(Err(())) => {
            headers.push(("Content-Range", format!("bytes */{len}")));
            respond(
                w,
                "416 Range Not Satisfiable",
                &headers,
                (None, 0),
                keep_alive,
            )
        }
        Some(Ok((start, end))) => {
            headers.push(("Content-Range", format!("bytes {start}-{}/{len}", end - 1)));
            file.seek(SeekFrom::Start(start))?;
            let body: Option<&mut dyn Read> = if head { None } else { Some(&mut file) };
            respond(
                w,
                "206 Partial Content",
                &headers,
                (body, end - start),
                keep_alive,
            )
        }
        None => {
            let body: Option<&mut dyn Read> = if head { None } else { Some(&mut file) };
            respond(w, "200 OK", &headers, (body, len), keep_alive)
        }
    }
}

/// Serves `site` on 127.0.0.1 (`port`, or a free one), printing
/// `Serving SITE at http://127.0.0.1:PORT/`, until the process is stopped.
///
/// # Errors
/// The port cannot be bound.
pub fn serve(site: &Path, port: Option<u16>) -> Result<(), String> {
    let listener = TcpListener::bind(("127.0.0.1", port.unwrap_or(0)))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", port.unwrap_or(0)))?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    println!("Serving {} at http://127.0.0.1:{port}/", site.display());
    eprintln!("(Ctrl-C stops)");
    let _ = std::io::stdout().flush();
    serve_on(listener, site);
    Ok(())
}

/// Answers the connections `listener` accepts from the files under `site`, a thread
/// each, for as long as it accepts.
pub fn serve_on(listener: TcpListener, site: &Path) {
    let site = Arc::new(site.to_path_buf());
    for stream in listener.incoming().flatten() {
        let site = site.clone();
        std::thread::spawn(move || connection(&site, stream));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let cases = [
            ("bytes=0-99", 1000, Some(Ok((0, 100)))),
            ("bytes=900-", 1000, Some(Ok((900, 1000)))),
            ("bytes=-100", 1000, Some(Ok((900, 1000)))),
            ("bytes=990-2000", 1000, Some(Ok((990, 1000)))),
            ("bytes=1000-1001", 1000, Some(Err(()))),
            ("bytes=0-1,5-9", 1000, None),
            ("items=0-1", 1000, None),
        ];
        for (h, len, want) in cases {
            assert_eq!(parse_range(h, len), want, "{h}");
        }
    }

    #[test]
    fn types_and_paths() {
        assert_eq!(
            content_type(Path::new("a/vitrine_bg.wasm")),
            "application/wasm"
        );
        assert!(content_type(Path::new("x.mjs")).starts_with("text/javascript"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "x").unwrap();
        assert_eq!(
            file_for(dir.path(), "/?x=1"),
            std::fs::canonicalize(dir.path().join("index.html")).ok()
        );
        assert_eq!(file_for(dir.path(), "/../etc/passwd"), None);
        assert_eq!(file_for(dir.path(), "/%2e%2e/etc/passwd"), None);
    }

    /// Sends `request` on `stream` and reads one response: (head, body).
    fn exchange(stream: &mut TcpStream, request: &str) -> (String, Vec<u8>) {
        stream.write_all(request.as_bytes()).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut head = String::new();
        loop {
            let line = read_line(&mut reader).unwrap();
            if line.is_empty() {
                break;
            }
            head.push_str(&line);
            head.push('\n');
        }
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .unwrap()
            .parse()
            .unwrap();
        let mut body = vec![0; if request.starts_with("HEAD") { 0 } else { len }];
        reader.read_exact(&mut body).unwrap();
        (head, body)
    }

    #[test]
    fn keep_alive_ranges_head_and_types_over_one_connection() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.path().join("site.wz"), b"0123456789").unwrap();
        std::fs::write(dir.path().join("v.wasm"), b"\0asm").unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let site = dir.path().to_path_buf();
        std::thread::spawn(move || serve_on(listener, &site));
        let mut s = TcpStream::connect(addr).unwrap();
        let (head, body) = exchange(&mut s, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
        assert!(head.contains("Content-Type: text/html"), "{head}");
        assert_eq!(body, b"<p>hi</p>");
        let (head, body) = exchange(
            &mut s,
            "GET /site.wz HTTP/1.1\r\nHost: x\r\nRange: bytes=2-4\r\n\r\n",
        );
        assert!(head.starts_with("HTTP/1.1 206"), "{head}");
        assert!(head.contains("Content-Range: bytes 2-4/10"), "{head}");
        assert!(head.contains("Accept-Ranges: bytes"), "{head}");
        assert_eq!(body, b"234");
        let (head, body) = exchange(&mut s, "HEAD /v.wasm HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(head.contains("Content-Type: application/wasm"), "{head}");
        assert!(head.contains("Content-Length: 4"), "{head}");
        assert!(body.is_empty());
        let (head, _) = exchange(&mut s, "GET /../x HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(head.starts_with("HTTP/1.1 404"), "{head}");
        let (head, _) = exchange(
            &mut s,
            "GET /site.wz HTTP/1.1\r\nRange: bytes=20-30\r\nConnection: close\r\n\r\n",
        );
        assert!(head.starts_with("HTTP/1.1 416"), "{head}");
        assert!(head.contains("Connection: close"), "{head}");
    }
}
