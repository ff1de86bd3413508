//! Archives on a server (`?url=`, `&data=` of a `.wz` or `.zip`), read a piece at a time
//! with HTTP `Range` requests when the server serves them: the first request asks for
//! the archive's end, which says its length and holds its central directory; after that
//! only the entries read are fetched — a model and its pages out of a 100 MB archive
//! cost what they weigh. The core reads such an archive through [`Pieces`], as it reads
//! one on disk; a job that asked for bytes not there yet runs again once
//! [`RemoteFetch`] has fetched them. A server that ignores ranges sends the whole file
//! (with progress); small archives are read whole anyway ([`WHOLE_BELOW`]).

use crate::fetch::{get, header, read_body};
use crate::page_files::PageFiles;
use crate::ranges::{self, GAP, TAIL, WHOLE_BELOW, check_partial, range_header, tail_header};
use std::ops::Range;
use std::sync::{Arc, Mutex};
use vitrine_app::jobs::{Job, Refetch};
use vitrine_core::files::{MAX_FILE_BYTES, Pieces, ReadAt};

/// An archive opened from a URL.
pub enum Opened {
    /// Read whole (the server ignores ranges, or the archive is small).
    Whole(Vec<u8>),
    /// Read a piece at a time: its end (the directory) is there.
    Pieces(Arc<Pieces>),
}

/// Opens the archive at `url`: asks for its end; reads it whole if the server answers
/// with the whole file (calling `progress` as it arrives) or the archive is small.
pub async fn open_archive(
    url: &str,
    mut progress: impl FnMut(u64, Option<u64>),
) -> Result<Opened, String> {
    let response = get(url, Some(&tail_header())).await?;
    match response.status() {
        206 => {
            let said = header(&response, "content-range");
            let tail = read_body(url, &response, TAIL, |_, _| {}).await?;
            let got = check_partial(None, None, said.as_deref(), tail.len() as u64)
                .map_err(|e| format!("{url}: {e}"))?;
            progress(tail.len() as u64, Some(got.total));
            if got.total <= WHOLE_BELOW {
                let mut whole = match got.start {
                    0 => Vec::new(),
                    n => fetch_range(url, 0..n, got.total).await?,
                };
                whole.extend_from_slice(&tail);
                progress(got.total, Some(got.total));
                return Ok(Opened::Whole(whole));
            }
            let pieces = Arc::new(Pieces::new(url, got.total));
            pieces.insert(got.start, &tail);
            // A directory longer than the tail (base.wz's 3890 entries: 330 KB) is
            // fetched whole now: an archive whose directory is cut off does not open, and
            // every look-up in it until its bytes came read the part there was again.
            if let Some(start) = ranges::directory_start(&tail, got.start)
                && start < got.start
            {
                let rest = fetch_range(url, start..got.start, got.total).await?;
                pieces.insert(start, &rest);
            }
            Ok(Opened::Pieces(pieces))
        }
        200..=299 => Ok(Opened::Whole(
            read_body(url, &response, MAX_FILE_BYTES, progress).await?,
        )),
        status => Err(format!(
            "{url}: the server answered HTTP {status} {}",
            response.status_text()
        )),
    }
}

/// Fetches the bytes `range` of the file at `url`, believed `total` bytes long; refuses
/// an answer that is not exactly those bytes.
pub async fn fetch_range(url: &str, range: Range<u64>, total: u64) -> Result<Vec<u8>, String> {
    let (from, to) = (range.start, range.end);
    let response = get(url, Some(&range_header(&range))).await?;
    match response.status() {
        206 => {}
        status if response.ok() => {
            return Err(format!(
                "{url}: the server answered a request for bytes {from}..{to} with HTTP \
                 {status} (the whole file): it no longer serves ranges"
            ));
        }
        status => {
            return Err(format!(
                "{url}: the server answered HTTP {status} {} to a request for bytes \
                 {from}..{to}",
                response.status_text()
            ));
        }
    }
    let said = header(&response, "content-range");
    let body = read_body(url, &response, to - from, |_, _| {}).await?;
    check_partial(
        Some(&range),
        Some(total),
        said.as_deref(),
        body.len() as u64,
    )
    .map_err(|e| format!("{url}: {e}"))?;
    Ok(body)
}

/// Fetches what reads of the page's remote archives asked for, then runs the job that
/// asked again (the app's reading jobs, see [`vitrine_app::jobs::Lane::start_reading`],
/// and gallery thumbnails). One for the page: a job that finds nothing left to ask for
/// while another's fetch is under way (it took both jobs' ranges) waits for that fetch.
pub struct RemoteFetch {
    page: PageFiles,
    ctx: eframe::egui::Context,
    flight: Arc<Mutex<Flight>>,
}

/// The fetches under way, and the jobs waiting for them to end.
#[derive(Default)]
struct Flight {
    running: usize,
    waiting: Vec<Job>,
}

impl std::fmt::Debug for RemoteFetch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteFetch").finish_non_exhaustive()
    }
}

impl RemoteFetch {
    /// Fetches for `page`'s remote archives; asks `ctx` for a frame after each.
    pub fn new(page: PageFiles, ctx: eframe::egui::Context) -> RemoteFetch {
        RemoteFetch {
            page,
            ctx,
            flight: Arc::default(),
        }
    }
}

fn lock(m: &Mutex<Flight>) -> std::sync::MutexGuard<'_, Flight> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Refetch for RemoteFetch {
    fn wanting(&self) -> bool {
        self.page.wanting()
    }

    fn fetch_then(&self, then: Job) {
        let wanted = take_wanted(&self.page);
        if wanted.is_empty() {
            let mut flight = lock(&self.flight);
            if flight.running > 0 {
                flight.waiting.push(then);
                return;
            }
            drop(flight);
            then();
            return;
        }
        lock(&self.flight).running += 1;
        let (ctx, flight) = (self.ctx.clone(), self.flight.clone());
        wasm_bindgen_futures::spawn_local(async move {
            fetch(wanted).await;
            let waiting = {
                let mut f = lock(&flight);
                f.running -= 1;
                if f.running == 0 {
                    std::mem::take(&mut f.waiting)
                } else {
                    Vec::new()
                }
            };
            then();
            for job in waiting {
                job();
            }
            ctx.request_repaint();
        });
    }
}

/// What reads of the page's remote archives asked for: each archive's URL, pieces and
/// ranges (close ones merged); taken, so another fetch does not ask again.
pub fn take_wanted(page: &PageFiles) -> Vec<(String, Arc<Pieces>, Vec<Range<u64>>)> {
    page.remote()
        .into_iter()
        .map(|(url, pieces)| {
            let ranges = pieces.take_wanted(GAP);
            (url, pieces, ranges)
        })
        .filter(|(_, _, ranges)| !ranges.is_empty())
        .collect()
}

/// Fetches `wanted` into its pieces, every range at once (the browser runs the requests
/// side by side, and the job waits for the last, not for each in turn: one after another,
/// each answer waited for a frame, and a frame of a dense map takes seconds on a software
/// GPU); a range that fails makes reads there fail with why.
pub async fn fetch(wanted: Vec<(String, Arc<Pieces>, Vec<Range<u64>>)>) {
    let all = js_sys::Array::new();
    for (url, pieces, ranges) in wanted {
        for range in ranges {
            let (url, pieces) = (url.clone(), pieces.clone());
            all.push(&wasm_bindgen_futures::future_to_promise(async move {
                fetch_into(&url, &pieces, range).await;
                Ok(wasm_bindgen::JsValue::UNDEFINED)
            }));
        }
    }
    // Each range's future settles its own outcome in its pieces; none rejects.
    let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::all(&all)).await;
}

/// Fetches `range` of the archive at `url` into `pieces`, or marks it failed with why.
async fn fetch_into(url: &str, pieces: &Pieces, range: Range<u64>) {
    match fetch_range(url, range.clone(), pieces.size()).await {
        Ok(bytes) => pieces.insert(range.start, &bytes),
        Err(e) => {
            let why = e.strip_prefix(&format!("{url}: ")).unwrap_or(&e);
            pieces.failed(range, why);
        }
    }
}

/// Runs `read` until it no longer asks for bytes of remote archives that have not
/// arrived (fetching them between runs; a few rounds at most): its last result.
pub async fn settle<T>(page: &PageFiles, mut read: impl FnMut() -> T) -> T {
    let mut result = read();
    for _ in 0..4 {
        if !page.wanting() {
            break;
        }
        fetch(take_wanted(page)).await;
        result = read();
    }
    result
}
