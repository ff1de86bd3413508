//! The server's parsing, and its behaviour under hostile clients (127.0.0.1 only; every
//! wait is bounded).

use super::*;
use std::time::Instant;

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

/// A server on 127.0.0.1 within `limits`, serving `site`; its address.
fn start(site: &Path, limits: Limits) -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let site = site.to_path_buf();
    std::thread::spawn(move || serve_within(listener, &site, limits));
    addr
}

/// A connection whose reads give up after 10 s (a test must not hang on a server that
/// does not answer).
fn connect(addr: std::net::SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

fn quick() -> Limits {
    Limits {
        connections: 4,
        read_timeout: Duration::from_secs(5),
        write_timeout: Duration::from_secs(1),
    }
}

/// Issue 31, item 7: a client that asks for a large file and never reads held its
/// thread forever; now the write times out and the connection is closed, and another
/// client is served meanwhile.
#[test]
fn a_client_that_never_reads_loses_its_connection_and_others_are_served() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<p>hi</p>").unwrap();
    let big = std::fs::File::create(dir.path().join("site.wz")).unwrap();
    let size: u64 = 256 << 20;
    big.set_len(size).unwrap(); // sparse: no disk used
    let addr = start(dir.path(), quick());
    let mut stalled = connect(addr);
    stalled
        .write_all(b"GET /site.wz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let (head, body) = exchange(&mut connect(addr), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(body, b"<p>hi</p>");
    // Past the write timeout the server has given up: what is left to read ends early.
    std::thread::sleep(Duration::from_secs(3));
    let mut got = 0u64;
    let mut buf = vec![0; 1 << 20];
    let started = Instant::now();
    let ended = loop {
        if started.elapsed() > Duration::from_secs(20) {
            break false;
        }
        match stalled.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => got += n as u64,
            Err(e) => break e.kind() == std::io::ErrorKind::ConnectionReset,
        }
    };
    assert!(
        ended && got < size,
        "{got} of {size} bytes came, ended: {ended}: the server never gave up"
    );
}

/// Over the connection cap a client is answered 503 at once; once the others close, a
/// normal request is served again.
#[test]
fn over_the_cap_is_503_and_requests_are_served_once_others_close() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<p>hi</p>").unwrap();
    let addr = start(dir.path(), quick());
    // Four idle connections (sending nothing) fill the cap.
    let idle: Vec<TcpStream> = (0..4).map(|_| connect(addr)).collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut over = connect(addr);
    let mut answer = String::new();
    let _ = over.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
    assert!(answer.contains("Retry-After: 1"), "{answer}");
    drop(idle);
    // The server sees them close at once; a few tries at most.
    let mut last = String::new();
    for _ in 0..100 {
        last = get_and_close(addr);
        if last.starts_with("HTTP/1.1 200") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        last.starts_with("HTTP/1.1 200") && last.ends_with("<p>hi</p>"),
        "{last}"
    );
}

/// `GET /` on a new connection that the server closes after: the whole answer as text,
/// or what came before an error.
fn get_and_close(addr: std::net::SocketAddr) -> String {
    let mut s = connect(addr);
    let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let mut text = Vec::new();
    let _ = s.read_to_end(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// A FIFO in the site blocked the thread that opened it (for ever: no writer); now it is
/// not served, and the server keeps answering on the same connection.
#[cfg(unix)]
#[test]
fn a_fifo_in_the_site_is_refused_and_the_server_keeps_answering() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<p>hi</p>").unwrap();
    let fifo = dir.path().join("pipe.png");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let addr = start(dir.path(), quick());
    let mut s = connect(addr);
    let (head, _) = exchange(&mut s, "GET /pipe.png HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(head.starts_with("HTTP/1.1 404"), "{head}");
    let (head, body) = exchange(&mut s, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(body, b"<p>hi</p>");
}

#[test]
fn a_method_not_allowed_says_which_are() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(dir.path(), quick());
    let (head, _) = exchange(&mut connect(addr), "DELETE / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(head.starts_with("HTTP/1.1 405"), "{head}");
    assert!(head.contains("Allow: GET, HEAD"), "{head}");
}
