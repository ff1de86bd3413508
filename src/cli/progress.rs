//! Progress of the batch commands (`render DIR`, `export DIR`, `check`, animation export)
//! on standard error, through indicatif: on a terminal a bar with the count and the item
//! in hand, redrawn at most 20 times a second and cleared when the run ends; when
//! standard error is a log (CI, a pipe) indicatif draws nothing, so every 100th item and
//! the last are written as plain `[n/total] item` lines instead.

use std::io::IsTerminal;

/// One run's progress line.
pub struct Progress {
    bar: indicatif::ProgressBar,
    total: u64,
    /// Standard error is not a terminal and the items are counted one by one: the plain
    /// lines are written.
    log: bool,
}

impl Progress {
    /// Progress over `total` items, each reported with [`Progress::set`]; `what` says
    /// what is being done ("rendering").
    pub fn new(total: usize, what: &str) -> Progress {
        Progress::with(total, what, true)
    }

    /// Progress of a job that is looked at now and then (its count jumps): a bar on a
    /// terminal, nothing in a log.
    pub fn polled(what: &str) -> Progress {
        Progress::with(0, what, false)
    }

    fn with(total: usize, what: &str, lines: bool) -> Progress {
        let total = total as u64;
        let terminal = std::io::stderr().is_terminal();
        let log = lines && !terminal;
        let bar = if !terminal {
            indicatif::ProgressBar::hidden()
        } else {
            indicatif::ProgressBar::new(total)
        };
        let template = format!("{what} {{bar:30}} {{pos}}/{{len}} {{wide_msg}}");
        bar.set_style(
            indicatif::ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Progress { bar, total, log }
    }

    /// Sets the count of items done to `done`, the last of them `item`.
    pub fn set(&self, done: usize, item: &str) {
        let done = done as u64;
        self.bar.set_message(item.to_string());
        self.bar.set_position(done);
        if self.log && done > 0 && (done.is_multiple_of(100) || done == self.total) {
            eprintln!("[{done}/{}] {item}", self.total);
        }
    }

    /// Changes the number of items (a job that learns its size once it runs).
    pub fn set_total(&mut self, total: usize) {
        self.total = total as u64;
        self.bar.set_length(self.total);
    }

    /// Removes the bar from the terminal (the summary line follows).
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
