//! `vitrine publish --serve`: the site on `127.0.0.1`, to look at it before uploading.
//!
//! A static file server (tiny_http) with the types a browser insists on
//! (`application/wasm` for the viewer's module, `text/javascript` for its glue) and
//! `Range: bytes=a-b` requests answered with `206 Partial Content`, as the viewer reads
//! large archives in ranges. Only files under the site are served: a path with `..` is
//! refused, and so is a link that leads out of the site.
//!
//! Not a production server: one address, a few threads, no caching headers, no
//! compression.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    let path = crate::app::link::percent_decode(path);
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

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

/// Answers one request from the files under `site`.
fn answer(site: &Path, request: tiny_http::Request) {
    use tiny_http::{Method, Response, StatusCode};
    if !matches!(request.method(), Method::Get | Method::Head) {
        let _ = request.respond(Response::empty(StatusCode(405)));
        return;
    }
    let Some(path) = file_for(site, request.url()) else {
        let _ = request.respond(Response::from_string("not found").with_status_code(404));
        return;
    };
    let Ok(mut file) = std::fs::File::open(&path) else {
        let _ = request.respond(Response::from_string("not found").with_status_code(404));
        return;
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut headers = vec![
        header("Content-Type", content_type(&path)),
        header("Accept-Ranges", "bytes"),
        header("Cache-Control", "no-cache"),
    ];
    let range = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Range"))
        .and_then(|h| parse_range(h.value.as_str(), len));
    let result = match range {
        Some(Err(())) => {
            headers.push(header("Content-Range", &format!("bytes */{len}")));
            request.respond(Response::new(
                StatusCode(416),
                headers,
                std::io::empty(),
                Some(0),
                None,
            ))
        }
        Some(Ok((start, end))) => {
            headers.push(header(
                "Content-Range",
                &format!("bytes {start}-{}/{len}", end - 1),
            ));
            if file.seek(SeekFrom::Start(start)).is_err() {
                return;
            }
            let n = end - start;
            request.respond(Response::new(
                StatusCode(206),
                headers,
                file.take(n),
                usize::try_from(n).ok(),
                None,
            ))
        }
        None => request.respond(Response::new(
            StatusCode(200),
            headers,
            file,
            usize::try_from(len).ok(),
            None,
        )),
    };
    if let Err(e) = result
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        log::debug!("serve: {e}");
    }
}

/// Serves `site` on 127.0.0.1 (`port`, or a free one), printing
/// `Serving SITE at http://127.0.0.1:PORT/`, until the process is stopped.
///
/// # Errors
/// The port cannot be bound.
pub fn serve(site: &Path, port: Option<u16>) -> Result<(), String> {
    let server = tiny_http::Server::http(("127.0.0.1", port.unwrap_or(0)))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", port.unwrap_or(0)))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .unwrap_or_default();
    println!(
        "Serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)",
        site.display()
    );
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let server = Arc::new(server);
    let site = Arc::new(site.to_path_buf());
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let (server, site) = (server.clone(), site.clone());
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    answer(&site, request);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
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
}
