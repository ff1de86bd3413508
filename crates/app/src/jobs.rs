//! Work that must not hold up the window (loading a model, assembling a droid, listing an
//! archive, running the checks) runs as a job that the front-end runs: the desktop
//! shell on a thread per job ([`crate::shell`]), the tests inline ([`Inline`]), and
//! a front-end without threads between frames ([`Queued`]). The app itself starts no
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

/// Runs jobs; the front-end provides one.
pub trait JobRunner {
    /// Runs `job` now or later; `what` names it (a thread name, a log line).
    fn spawn(&self, what: &str, job: Job);
}

/// Runs each job at once on the calling thread (tests; the result is there when
/// [`Lane::start`] returns).
#[derive(Debug, Default, Clone, Copy)]
pub struct Inline;

impl JobRunner for Inline {
    fn spawn(&self, _what: &str, job: Job) {
        job()
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
    fn spawn(&self, _what: &str, job: Job) {
        if let Ok(mut q) = self.0.lock() {
            q.push_back(job);
        }
    }
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
        }
    }

    /// From now on `runner` runs the jobs (the front-end's own, replacing [`Inline`]).
    pub fn set_runner(&mut self, runner: Box<dyn JobRunner>) {
        self.runner = runner;
    }

    /// Starts `work` (cancelling the job running, whose result will be dropped); its
    /// result comes back from [`Lane::poll`].
    pub fn start(&mut self, what: String, work: impl FnOnce(&Cancel) -> T + Send + 'static) {
        self.cancel();
        let id = self.next_id;
        self.next_id += 1;
        let cancel = Cancel::default();
        self.running = Some(Running {
            id,
            what: what.clone(),
            started: Instant::now(),
            cancel: cancel.clone(),
        });
        let tx = self.tx.clone();
        self.runner.spawn(
            &what,
            Box::new(move || {
                let result = work(&cancel);
                // The lane may be gone (the window closed): nobody wants the result.
                let _ = tx.send((id, result));
            }),
        );
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

    #[test]
    fn inline_results_are_there_at_once() {
        let mut lane: Lane<u32> = Lane::new(Box::new(Inline));
        lane.start("job".into(), |_| 7);
        assert_eq!(lane.poll(), Some(7));
    }
}
