//! Work that must not hold up the window (loading a model, assembling a droid, listing an
//! archive, running the checks) runs as a job that the front-end's host runs
//! ([`JobRunner`], which every [`crate::host::Host`] is): the desktop on a thread per
//! job, the page on its only thread after the frame; tests inline ([`Inline`]) or when
//! they choose ([`Queued`]). The app itself starts no
//! thread and reads no clock but [`web_time`] (which works in a browser).
//!
//! A [`Lane`] is one line of such work with at most one job that counts: starting a job
//! cancels the one before (its result is dropped when it arrives), and the app shows
//! what runs ([`Lane::running`]) with a Cancel button.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use web_time::{Duration, Instant};

/// A job: runs once, anywhere (it owns what it needs).
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// Runs jobs: the one way a front-end starts background work, for the app's lanes
/// ([`Lane`]) and its other jobs (thumbnails, exports) alike. Every
/// [`crate::host::Host`] is one.
pub trait JobRunner {
    /// Runs `job` now or later; `what` names it (a thread name, a log line). `Err` says
    /// why it could not start.
    fn spawn(&self, what: &str, job: Job) -> Result<(), String>;
}

impl<R: JobRunner + ?Sized> JobRunner for Arc<R> {
    fn spawn(&self, what: &str, job: Job) -> Result<(), String> {
        (**self).spawn(what, job)
    }
}

/// Runs each job at once on the calling thread (tests; the result is there when
/// [`Lane::start`] returns).
#[derive(Debug, Default, Clone, Copy)]
pub struct Inline;

impl JobRunner for Inline {
    fn spawn(&self, _what: &str, job: Job) -> Result<(), String> {
        job();
        Ok(())
    }
}

/// Keeps jobs until [`Queued::run_all`] or [`Queued::run_one`] runs them: a front-end
/// without threads runs them between frames; tests use it to look at the window while a
/// job is still running.
#[derive(Clone, Default)]
pub struct Queued(Arc<Mutex<VecDeque<Job>>>);

impl std::fmt::Debug for Queued {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Queued({} jobs)", self.len())
    }
}

impl Queued {
    /// Jobs waiting.
    pub fn len(&self) -> usize {
        self.0.lock().map_or(0, |q| q.len())
    }

    /// Whether no job is waiting.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs the oldest waiting job; `false` when there was none.
    pub fn run_one(&self) -> bool {
        let job = self.0.lock().ok().and_then(|mut q| q.pop_front());
        match job {
            Some(job) => {
                job();
                true
            }
            None => false,
        }
    }

    /// Runs every waiting job (and those they queue), oldest first; how many ran.
    pub fn run_all(&self) -> usize {
        let mut n = 0;
        while self.run_one() {
            n += 1;
        }
        n
    }
}

impl JobRunner for Queued {
    fn spawn(&self, _what: &str, job: Job) -> Result<(), String> {
        self.0
            .lock()
            .map_err(|_| "the job queue is poisoned".to_string())?
            .push_back(job);
        Ok(())
    }
}

/// Bytes a job read that had not arrived (an archive the page reads over the network a
/// piece at a time, [`crate::files::Pieces`]): the front-end fetches them and the job
/// runs again ([`Lane::start_reading`]). A front-end whose files are all at hand has
/// none.
pub trait Refetch: Send + Sync {
    /// Whether a read since the last fetch asked for bytes that have not arrived.
    fn wanting(&self) -> bool;
    /// Fetches what was asked for, then runs `then`. A fetch that fails makes the reads
    /// of those bytes fail with its reason, so the job's next run ends.
    fn fetch_then(&self, then: Job);
}

/// How many times one reading job is run again for bytes that arrived (each run finds
/// the next layer: a model, then its pages, then their sidecars…).
const MOST_REFETCHES: u32 = 16;

/// Runs `work`; while it read bytes that had not arrived, has them fetched and runs it
/// again (its earlier results dropped); hands the last result to `deliver`.
fn attempt<T: Send + 'static>(
    mut work: Box<dyn FnMut(&Cancel) -> T + Send>,
    cancel: Cancel,
    refetch: Option<Arc<dyn Refetch>>,
    round: u32,
    deliver: impl FnOnce(T) + Send + 'static,
) {
    let result = work(&cancel);
    if let Some(r) = refetch
        && round < MOST_REFETCHES
        && !cancel.is_set()
        && r.wanting()
    {
        drop(result);
        let again = r.clone();
        r.fetch_then(Box::new(move || {
            attempt(work, cancel, Some(again), round + 1, deliver)
        }));
        return;
    }
    deliver(result);
}

/// Set when the job's result is no longer wanted: a job may look at it between steps and
/// stop early.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Whether the job was cancelled.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn set(&self) {
        self.0.store(true, Ordering::Relaxed)
    }
}

/// The job of a lane that counts.
#[derive(Debug, Clone)]
pub struct Running {
    id: u64,
    /// What it does, for the progress line ("Opening tank.pie").
    pub what: String,
    /// When it started.
    pub started: Instant,
    cancel: Cancel,
}

impl Running {
    /// How long it has been running.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// One line of background work whose results are of type `T`; at most one job counts.
pub struct Lane<T> {
    runner: Box<dyn JobRunner>,
    tx: Sender<(u64, T)>,
    rx: Receiver<(u64, T)>,
    next_id: u64,
    running: Option<Running>,
    refetch: Option<Arc<dyn Refetch>>,
}

impl<T> std::fmt::Debug for Lane<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lane")
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

impl<T: Send + 'static> Lane<T> {
    /// A lane whose jobs `runner` runs.
    pub fn new(runner: Box<dyn JobRunner>) -> Self {
        let (tx, rx) = channel();
        Lane {
            runner,
            tx,
            rx,
            next_id: 1,
            running: None,
            refetch: None,
        }
    }

    /// From now on reading jobs ([`Lane::start_reading`]) run again when `refetch` has
    /// fetched bytes they asked for.
    pub fn set_refetch(&mut self, refetch: Arc<dyn Refetch>) {
        self.refetch = Some(refetch);
    }

    /// From now on `runner` runs the jobs (the front-end's own, replacing [`Inline`]).
    pub fn set_runner(&mut self, runner: Box<dyn JobRunner>) {
        self.runner = runner;
    }

    /// Starts `work` (cancelling the job running, whose result will be dropped); its
    /// result comes back from [`Lane::poll`].
    pub fn start(&mut self, what: String, work: impl FnOnce(&Cancel) -> T + Send + 'static) {
        let (cancel, deliver) = self.begin(&what);
        let job = Box::new(move || {
            let result = work(&cancel);
            deliver(result);
        });
        self.spawn(&what, job);
    }

    /// Starts `work`, a job that only reads (a load, an assembly, the stats), as
    /// [`Lane::start`] does; when it read bytes that had not arrived, it runs again once
    /// the front-end has fetched them (see [`Refetch`]), and only that run's result comes
    /// back.
    pub fn start_reading(&mut self, what: String, work: impl FnMut(&Cancel) -> T + Send + 'static) {
        let (cancel, deliver) = self.begin(&what);
        let refetch = self.refetch.clone();
        let job = Box::new(move || attempt(Box::new(work), cancel, refetch, 0, deliver));
        self.spawn(&what, job);
    }

    fn spawn(&self, what: &str, job: Job) {
        if let Err(e) = self.runner.spawn(what, job) {
            // The progress line stays until cancelled; say why.
            log::error!("could not start {what}: {e}");
        }
    }

    /// Cancels the job running and makes a new one the job that counts: its cancel
    /// flag, and where its result goes.
    fn begin(&mut self, what: &str) -> (Cancel, impl FnOnce(T) + Send + 'static) {
        self.cancel();
        let id = self.next_id;
        self.next_id += 1;
        let cancel = Cancel::default();
        self.running = Some(Running {
            id,
            what: what.to_string(),
            started: Instant::now(),
            cancel: cancel.clone(),
        });
        let tx = self.tx.clone();
        // The lane may be gone (the window closed): nobody wants the result.
        let deliver = move |result| {
            let _ = tx.send((id, result));
        };
        (cancel, deliver)
    }

    /// Cancels the running job: its result is dropped when it arrives.
    pub fn cancel(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.set();
        }
    }

    /// The job that counts, while it runs.
    pub fn running(&self) -> Option<&Running> {
        self.running.as_ref()
    }

    /// The running job's result once it has arrived (results of cancelled jobs are
    /// dropped here).
    pub fn poll(&mut self) -> Option<T> {
        while let Ok((id, result)) = self.rx.try_recv() {
            if self.running.as_ref().is_some_and(|r| r.id == id) {
                self.running = None;
                return Some(result);
            }
        }
        None
    }
}

/// Which lane of [`crate::loading::Work`] a command means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// Opens, reloads and assemblies.
    Document,
    /// Gallery listings.
    Gallery,
    /// Reading the Warzone 2100 stats.
    Stats,
    /// Loading a PIE event model.
    Event,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_start_drops_the_first_result() {
        let q = Queued::default();
        let mut lane: Lane<&str> = Lane::new(Box::new(q.clone()));
        lane.start("first".into(), |_| "first");
        lane.start("second".into(), |_| "second");
        assert_eq!(lane.running().map(|r| r.what.as_str()), Some("second"));
        assert_eq!(lane.poll(), None, "nothing ran yet");
        assert_eq!(q.run_all(), 2);
        assert_eq!(lane.poll(), Some("second"));
        assert!(lane.running().is_none());
        assert_eq!(lane.poll(), None);
    }

    #[test]
    fn a_cancelled_job_sees_it_and_its_result_is_dropped() {
        let q = Queued::default();
        let mut lane: Lane<bool> = Lane::new(Box::new(q.clone()));
        lane.start("job".into(), |c| c.is_set());
        lane.cancel();
        assert!(lane.running().is_none());
        q.run_all();
        assert_eq!(lane.poll(), None);
    }

    /// Fetches nothing: says bytes are wanted the first `times` it is asked.
    struct Missing(Mutex<u32>, Arc<Mutex<u32>>);

    impl Refetch for Missing {
        fn wanting(&self) -> bool {
            let mut left = self.0.lock().unwrap();
            let wanting = *left > 0;
            *left = left.saturating_sub(1);
            wanting
        }
        fn fetch_then(&self, then: Job) {
            *self.1.lock().unwrap() += 1;
            then()
        }
    }

    #[test]
    fn a_reading_job_runs_again_after_each_fetch_and_only_its_last_result_counts() {
        let fetches = Arc::new(Mutex::new(0));
        let mut lane: Lane<u32> = Lane::new(Box::new(Inline));
        lane.set_refetch(Arc::new(Missing(Mutex::new(2), fetches.clone())));
        let mut runs = 0;
        lane.start_reading("load".into(), move |_| {
            runs += 1;
            runs
        });
        assert_eq!(lane.poll(), Some(3), "the run after the second fetch");
        assert_eq!(*fetches.lock().unwrap(), 2);
        // Without refetch, or for a plain job, one run.
        lane.start("write".into(), |_| 7);
        assert_eq!(lane.poll(), Some(7));
    }

    #[test]
    fn a_reading_job_gives_up_waiting_after_the_most_refetches() {
        let fetches = Arc::new(Mutex::new(0));
        let mut lane: Lane<&str> = Lane::new(Box::new(Inline));
        lane.set_refetch(Arc::new(Missing(Mutex::new(u32::MAX), fetches.clone())));
        lane.start_reading("load".into(), |_| "partial");
        assert_eq!(lane.poll(), Some("partial"));
        assert_eq!(*fetches.lock().unwrap(), MOST_REFETCHES);
    }

    #[test]
    fn inline_results_are_there_at_once() {
        let mut lane: Lane<u32> = Lane::new(Box::new(Inline));
        lane.start("job".into(), |_| 7);
        assert_eq!(lane.poll(), Some(7));
    }
}
