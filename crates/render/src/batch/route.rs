//! Which renderer a prepared job goes to: the one that already has its texture pages,
//! unless that would leave another renderer without work.
//!
//! Each renderer keeps the pages it uploaded in its own texture cache, so a page drawn on
//! two renderers is decoded twice, uploaded twice (with its mips) and held twice. Models
//! that share pages (a folder of one game's components: most use one page) are sent to
//! the renderer that has them, so the renderers' pages stay mostly disjoint — but only
//! among the renderers whose waiting jobs are within [`SLACK`] of the least busy one's:
//! no renderer goes idle while another has a backlog.

use super::Prepared;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex};
use vitrine_core::files::{FileRef, Stamp};

/// How many more waiting jobs than the least busy renderer a renderer may have and still
/// be given a job for its pages.
pub(super) const SLACK: usize = 1;

/// A renderer as the prepare threads see it.
pub(super) struct Inbox {
    tx: SyncSender<Prepared>,
    /// The pages decoded for it (each version once).
    claimed: Mutex<HashSet<(FileRef, Stamp)>>,
    /// Jobs sent and not yet taken by its render thread.
    waiting: Arc<AtomicUsize>,
}

impl Inbox {
    /// An inbox sending on `tx`; its render thread counts `waiting` down as it takes
    /// each job ([`taken`]).
    pub(super) fn new(tx: SyncSender<Prepared>, waiting: Arc<AtomicUsize>) -> Inbox {
        Inbox {
            tx,
            claimed: Mutex::default(),
            waiting,
        }
    }

    fn claimed(&self) -> std::sync::MutexGuard<'_, HashSet<(FileRef, Stamp)>> {
        self.claimed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many of `pages` were decoded for this renderer.
    fn has(&self, pages: &[(FileRef, Stamp)]) -> usize {
        let claimed = self.claimed();
        pages.iter().filter(|p| claimed.contains(p)).count()
    }

    /// Whether `page` is new to this renderer (then the caller decodes it for it).
    pub(super) fn claim(&self, page: &(FileRef, Stamp)) -> bool {
        self.claimed().insert(page.clone())
    }

    /// Sends a job (waiting while its channel is full); `false` once its render thread
    /// has ended (the caller stopped reading results).
    pub(super) fn send(&self, p: Prepared) -> bool {
        self.waiting.fetch_add(1, Ordering::Relaxed);
        self.tx.send(p).is_ok()
    }
}

/// A render thread took a job from its channel.
pub(super) fn taken(waiting: &AtomicUsize) {
    waiting.fetch_sub(1, Ordering::Relaxed);
}

/// The renderer for a job using `pages`: among those with at most [`SLACK`] more waiting
/// jobs than the least busy, the one that has the most of the pages; then the fewest
/// waiting; then the first.
pub(super) fn choose(inboxes: &[Inbox], pages: &[(FileRef, Stamp)]) -> usize {
    let waiting: Vec<usize> = inboxes
        .iter()
        .map(|i| i.waiting.load(Ordering::Relaxed))
        .collect();
    pick(&waiting, |i| {
        if pages.is_empty() {
            0
        } else {
            inboxes[i].has(pages)
        }
    })
}

/// [`choose`] on the renderers' waiting jobs and how many pages each has.
fn pick(waiting: &[usize], has: impl Fn(usize) -> usize) -> usize {
    let least = waiting.iter().copied().min().unwrap_or(0);
    (0..waiting.len())
        .filter(|&i| waiting[i] <= least + SLACK)
        .max_by_key(|&i| (has(i), std::cmp::Reverse(waiting[i]), std::cmp::Reverse(i)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_goes_where_its_pages_are_unless_that_renderer_is_behind() {
        // (waiting per renderer, pages each has, chosen)
        let cases: [(&[usize], &[usize], usize); 7] = [
            (&[0], &[0], 0),
            (&[0, 0], &[0, 0], 0),
            (&[1, 0], &[0, 0], 1),
            (&[0, 0], &[0, 2], 1),
            (&[0, 1], &[0, 2], 1),
            (&[0, 2], &[0, 2], 0),
            (&[3, 2, 2], &[1, 1, 0], 1),
        ];
        for (waiting, has, chosen) in cases {
            assert_eq!(
                pick(waiting, |i| has[i]),
                chosen,
                "waiting {waiting:?}, pages {has:?}"
            );
        }
    }

    #[test]
    fn claims_are_per_renderer_and_per_version() {
        let (tx, _rx) = std::sync::mpsc::sync_channel(1);
        let inbox = Inbox::new(tx, Arc::default());
        let page = |s: u64| {
            let stamp = Stamp {
                modified_ns: s,
                len: 10,
            };
            (FileRef::Disk("page-7.png".into()), stamp)
        };
        assert!(inbox.claim(&page(1)));
        assert!(!inbox.claim(&page(1)));
        assert!(inbox.claim(&page(2)), "an edited page is decoded again");
        assert_eq!(inbox.has(&[page(1), page(3)]), 1);
    }
}
