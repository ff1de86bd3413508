//! `vitrine publish --serve`: the site on `127.0.0.1`, to look at it before uploading.
//!
//! A small static file server on `std::net` (a thread per connection, HTTP/1.1
//! keep-alive, GET and HEAD only) with the types a browser insists on
//! (`application/wasm` for the viewer's module, `text/javascript` for its glue), always a
//! Content-Length, and `Range: bytes=a-b` requests answered with `206 Partial Content`,
//! as the viewer reads large archives in ranges. Only regular files under the site are
//! served: a path with `..` is refused, and so is a link that leads out of the site, and a
//! FIFO, device or socket (404, checked before it is opened, and opened non-blocking).
//!
//! Under load ([`Limits`]): at most 64 connections at once; one over the cap is answered
//! `503 Service Unavailable` (`Retry-After: 1`) at once by the accepting thread, without
//! reading its request, and closed; a thread that cannot be started is answered the same
//! way (never a panic). Each connection waits at most 30 s for a request (read timeout)
//! and 10 s for the client to take each write (write timeout): a client that stops
//! reading loses its connection, and cannot hold a thread. A method other than GET and
//! HEAD is `405` with `Allow: GET, HEAD`.
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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How much one server lets its clients hold.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections served at once; more are answered 503 and closed.
    pub connections: usize,
    /// How long a connection may wait for (the rest of) a request.
    pub read_timeout: Duration,
    /// How long one write may wait for the client to read.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 64,
            read_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(10),
        }
    }
}

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
fn connection(site: &Path, stream: TcpStream, limits: Limits) {
    let _ = stream.set_read_timeout(Some(limits.read_timeout));
    let _ = stream.set_write_timeout(Some(limits.write_timeout));
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
            let allow = [("Allow", "GET, HEAD".to_string())];
            let _ = respond(
                &mut writer,
                "405 Method Not Allowed",
                &allow,
                (None, 0),
                false,
            );
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
    let Some((mut file, len)) = open_regular(&path) else {
        return not_found(w);
    };
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

/// `path` opened for reading if it is a regular file, with its length: a FIFO, device or
/// socket is refused before it is opened (opening a FIFO waits for a writer), and the
/// file is opened non-blocking and checked again (it may have been replaced between).
fn open_regular(path: &Path) -> Option<(std::fs::File, u64)> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).ok()?;
    let meta = file.metadata().ok()?;
    meta.is_file().then_some((file, meta.len()))
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
/// each, within the default [`Limits`], for as long as it accepts.
pub fn serve_on(listener: TcpListener, site: &Path) {
    serve_within(listener, site, Limits::default());
}

/// One connection being served: the count of those goes down when it is dropped (the
/// thread ends, or could not start).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Tells a connection the server cannot take it now (`503`, `Retry-After: 1`) and closes
/// it, without reading its request and without ever blocking the accepting thread (the
/// few bytes fit a new socket's buffer; if not, they are dropped).
fn busy(mut stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    let _ = stream.write_all(
        b"HTTP/1.1 503 Service Unavailable\r\nServer: vitrine\r\nRetry-After: 1\r\n\
          Content-Length: 0\r\nConnection: close\r\n\r\n",
    );
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// [`serve_on`] within `limits`.
pub fn serve_within(listener: TcpListener, site: &Path, limits: Limits) {
    let site = Arc::new(site.to_path_buf());
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            // Out of file descriptors, say: wait a little rather than spin.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        if active.fetch_add(1, Ordering::SeqCst) >= limits.connections {
            active.fetch_sub(1, Ordering::SeqCst);
            busy(stream);
            continue;
        }
        let slot = Slot(active.clone());
        let site = site.clone();
        let Ok(answer) = stream.try_clone() else {
            continue;
        };
        let spawned = std::thread::Builder::new()
            .name("vitrine-serve".into())
            .spawn(move || {
                let _slot = slot;
                connection(&site, answer, limits);
            });
        if spawned.is_err() {
            busy(stream);
        }
    }
}

#[cfg(test)]
mod tests;
