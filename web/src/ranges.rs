//! What the page believes of a server's answers to HTTP `Range` requests (the rules; the
//! requests themselves are `remote`'s): which bytes an answer holds, and whether they
//! are the bytes asked for. A server that ignores ranges is fine (the archive is read
//! whole); one that says it sent other bytes than it did, or whose file changes between
//! requests, is refused with what it said.

use std::ops::Range;

/// Bytes asked for first: the end of the archive, where its central directory is (the
/// end record and a directory of a few thousand entries fit).
pub const TAIL: u64 = 64 << 10;

/// Archives up to this size are read whole even when the server serves ranges: a few
/// round trips cost more than the bytes, and everything the app does (a gallery of every
/// model, the stats, assemblies) reads much of such an archive anyway.
pub const WHOLE_BELOW: u64 = 8 << 20;

/// Wanted ranges closer than this are fetched in one request.
pub const GAP: u64 = 16 << 10;

/// Where the central directory of the zip whose last bytes are `tail` (from byte
/// `tail_start` of the file) starts, as its end record says: the last end-of-directory
/// signature in the tail whose comment ends the file. `None` when there is none, or a
/// Zip64 archive's (the record's offset saturated: the Zip64 locator says, and the
/// archive reader asks for it when it reads it).
pub fn directory_start(tail: &[u8], tail_start: u64) -> Option<u64> {
    const END: [u8; 4] = [0x50, 0x4b, 0x05, 0x06];
    const FIXED: usize = 22;
    let last = tail.len().checked_sub(FIXED)?;
    let at = (0..=last).rev().find(|&i| {
        let comment = u16::from_le_bytes([tail[i + 20], tail[i + 21]]) as usize;
        tail[i..i + 4] == END && i + FIXED + comment == tail.len()
    })?;
    let offset = u32::from_le_bytes(tail[at + 16..at + 20].try_into().ok()?);
    let size = u32::from_le_bytes(tail[at + 12..at + 16].try_into().ok()?);
    if offset == u32::MAX || size == u32::MAX {
        return None;
    }
    // The directory ends where the end record starts.
    let end = tail_start + at as u64;
    (u64::from(offset) + u64::from(size) <= end).then_some(u64::from(offset))
}

/// A `Content-Range: bytes START-END/TOTAL` header: the bytes `START..END+1` of `TOTAL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentRange {
    /// The bytes sent.
    pub start: u64,
    /// One past the last byte sent.
    pub end: u64,
    /// The file's length.
    pub total: u64,
}

/// Reads a `Content-Range` header; `None` when it is missing, malformed, unsatisfied
/// (`bytes */N`) or impossible (end before start, past the total).
pub fn content_range(header: Option<&str>) -> Option<ContentRange> {
    let rest = header?.trim().strip_prefix("bytes")?.trim_start();
    let (span, total) = rest.split_once('/')?;
    let (start, last) = span.split_once('-')?;
    let (start, last, total): (u64, u64, u64) = (
        start.trim().parse().ok()?,
        last.trim().parse().ok()?,
        total.trim().parse().ok()?,
    );
    (start <= last && last < total).then_some(ContentRange {
        start,
        end: last + 1,
        total,
    })
}

/// The request header asking for `range`.
pub fn range_header(range: &Range<u64>) -> String {
    format!("bytes={}-{}", range.start, range.end.saturating_sub(1))
}

/// The request header asking for the last [`TAIL`] bytes, whatever the length.
pub fn tail_header() -> String {
    format!("bytes=-{TAIL}")
}

/// Checks a `206 Partial Content` answer to a request for `asked` (or, with `None`, for
/// the tail) of a file believed `total` bytes long (`None`: not known yet): the bytes it
/// says it sent, or why it is not believed.
pub fn check_partial(
    asked: Option<&Range<u64>>,
    total: Option<u64>,
    header: Option<&str>,
    body_len: u64,
) -> Result<ContentRange, String> {
    let Some(said) = content_range(header) else {
        return Err(match header {
            None => "the server answered a range request without saying which bytes it sent \
                     (no Content-Range; a server on another site must expose it with \
                     Access-Control-Expose-Headers)"
                .into(),
            Some(h) => format!("the server answered a range request with Content-Range {h:?}"),
        });
    };
    if let Some(t) = total
        && said.total != t
    {
        return Err(format!(
            "the file changed on the server: it was {t} bytes long, it is now {}",
            said.total
        ));
    }
    let expected = match asked {
        Some(r) => r.clone(),
        None => said.total.saturating_sub(TAIL)..said.total,
    };
    if said.start != expected.start || said.end != expected.end.min(said.total) {
        return Err(format!(
            "the server sent bytes {}..{} when asked for {}..{}",
            said.start, said.end, expected.start, expected.end
        ));
    }
    if body_len != said.end - said.start {
        return Err(format!(
            "the server said it sent {} bytes ({}..{}) and sent {body_len}",
            said.end - said.start,
            said.start,
            said.end
        ));
    }
    Ok(said)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_ranges_are_read_and_nonsense_refused() {
        assert_eq!(
            content_range(Some("bytes 100-199/1000")),
            Some(ContentRange {
                start: 100,
                end: 200,
                total: 1000
            })
        );
        for bad in [
            None,
            Some(""),
            Some("bytes */1000"),
            Some("bytes 200-100/1000"),
            Some("bytes 0-1000/1000"),
            Some("items 0-9/10"),
            Some("bytes 0-9/banana"),
        ] {
            assert_eq!(content_range(bad), None, "{bad:?}");
        }
        assert_eq!(range_header(&(10..20)), "bytes=10-19");
    }

    #[test]
    fn the_directory_start_comes_from_the_end_record() {
        // An end record saying: 3 records, 500 bytes from byte 9500, a 2-byte comment.
        let mut end = vec![0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0, 3, 0, 3, 0];
        end.extend_from_slice(&500u32.to_le_bytes());
        end.extend_from_slice(&9500u32.to_le_bytes());
        end.extend_from_slice(&[2, 0, b'h', b'i']);
        let mut tail = vec![7u8; 100];
        tail.extend_from_slice(&end);
        // The tail is the file's bytes 9900..; the record starts at 10000.
        assert_eq!(directory_start(&tail, 9900), Some(9500));
        // A directory said to run past the end record, or none at all: not believed.
        assert_eq!(directory_start(&tail, 9800), None);
        assert_eq!(directory_start(&tail[..110], 9900), None);
        let mut zip64 = tail.clone();
        zip64[100 + 16..100 + 20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(directory_start(&zip64, 9900), None);
    }

    #[test]
    fn an_answer_must_be_the_bytes_asked_for() {
        let ok = check_partial(Some(&(10..20)), Some(1000), Some("bytes 10-19/1000"), 10);
        assert_eq!(ok.map(|r| r.end), Ok(20));
        // The tail of a file shorter than TAIL is the whole file.
        let tail = check_partial(None, None, Some("bytes 0-499/500"), 500).unwrap();
        assert_eq!((tail.start, tail.total), (0, 500));
        let errors = [
            check_partial(Some(&(10..20)), Some(1000), None, 10),
            check_partial(Some(&(10..20)), Some(1000), Some("bytes 0-9/1000"), 10),
            check_partial(Some(&(10..20)), Some(1000), Some("bytes 10-19/2000"), 10),
            check_partial(Some(&(10..20)), Some(1000), Some("bytes 10-19/1000"), 4),
            check_partial(None, None, Some("bytes 0-99/100000"), 100),
        ];
        let words = [
            "without saying",
            "sent bytes 0..10",
            "changed",
            "sent 4",
            "asked for",
        ];
        for (e, w) in errors.iter().zip(words) {
            let e = e.clone().unwrap_err();
            assert!(e.contains(w), "{e} (wanted {w:?})");
        }
    }
}
