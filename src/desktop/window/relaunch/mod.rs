//! Recovery from a lost GPU device by relaunch, as a browser restarts its GPU process.
//!
//! eframe 0.37 keeps the device it created for the window and cannot be given another,
//! winit cannot make a second event loop in one process, a lost device never comes back,
//! and egui-wgpu 0.37 panics painting a frame with anything in it on a lost device
//! (`write_buffer_with` gives no staging buffer). So when the window's device is lost
//! ([`crate::render::DeviceWatch`]) the window draws nothing more, saves what the user
//! sees to a [`resume::Resume`] file in the config folder, saves its settings, starts a
//! new process of the same executable ([`std::env::current_exe`]) with the open file as
//! its argument and [`RESUME_ENV`] naming the resume file, and closes. The new process
//! opens the file on a new device, reads (and deletes) the resume file, puts the view
//! back and says what happened in a toast.
//!
//! Loop guard: a process started by a relaunch that loses its device again within
//! [`LOOP_GUARD`] of the loss recorded in its resume file does not relaunch again
//! ([`Outcome::TooSoon`]); nor does one whose relaunch failed ([`Outcome::Failed`]: no
//! config folder, the executable gone). Its window cannot stay (nothing can be painted on
//! the dead device): it closes, and the reason is printed on standard error and shown in a
//! native message box ([`say_after_closing`]).
//!
//! Testing aid: [`LOSE_DEVICE_ENV`]`=SECONDS` destroys the window's device once, that many
//! seconds after the window opened ([`lose_device`]). The relaunched process does not
//! inherit it.

pub mod resume;

use crate::app::state::AppState;
use resume::Resume;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// The environment variable naming the resume file a relaunched process reads.
pub const RESUME_ENV: &str = "VITRINE_RESUME";

/// Testing aid: destroy the window's GPU device this many seconds after it opened.
pub const LOSE_DEVICE_ENV: &str = "VITRINE_DEBUG_LOSE_DEVICE_AFTER";

/// A relaunched process that loses its device again within this time of the loss it was
/// started after does not relaunch again.
pub const LOOP_GUARD: Duration = Duration::from_secs(30);

/// What the window did about its lost device.
#[derive(Debug)]
pub enum Outcome {
    /// A new process (`pid`) was started on the resume file `resume`: close this window.
    Relaunched {
        /// The new process.
        pid: u32,
        /// The resume file it reads.
        resume: PathBuf,
    },
    /// Lost again within [`LOOP_GUARD`] of the loss this process was started after.
    TooSoon,
    /// Relaunching failed, for this reason.
    Failed(String),
}

impl Outcome {
    /// What to tell the user when the window closes without a relaunch (standard error
    /// and a native message box); `None` after a relaunch, whose window says it.
    pub fn farewell(&self, why: &str, file: Option<&str>) -> Option<String> {
        let lost = format!("The GPU device was lost ({why}).");
        let again = match file {
            Some(f) => format!("Open {f} again to carry on."),
            None => "Start Vitrine again to carry on.".into(),
        };
        match self {
            Outcome::Relaunched { .. } => None,
            Outcome::TooSoon => Some(format!(
                "{lost} It was lost again within {} s of Vitrine reopening after a loss, so \
                 Vitrine does not reopen again. {again}",
                LOOP_GUARD.as_secs()
            )),
            Outcome::Failed(e) => Some(format!(
                "{lost} Vitrine could not reopen itself ({e}). {again}"
            )),
        }
    }
}

/// The message [`Outcome::farewell`] gave, kept for after the window has closed.
static FAREWELL: Mutex<Option<String>> = Mutex::new(None);

/// Keeps `message` to show once the window has closed ([`take_farewell`]).
pub fn say_after_closing(message: String) {
    *FAREWELL.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
}

/// The message kept by [`say_after_closing`], once.
pub fn take_farewell() -> Option<String> {
    FAREWELL.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// Whether a process whose device was lost at `now` may relaunch, `previous_loss` being
/// the loss it was itself started after (if it was started by a relaunch). A clock that
/// went back counts as too soon.
pub fn may_relaunch(previous_loss: Option<SystemTime>, now: SystemTime) -> bool {
    match previous_loss {
        None => true,
        Some(t) => now.duration_since(t).is_ok_and(|d| d >= LOOP_GUARD),
    }
}

/// After the window's device was lost at `now` for `why`: saves the settings and a resume
/// file of `state` into `config_dir` and starts `exe` on it, unless the loop guard says
/// not to. A failed start deletes the resume file again.
pub fn after_loss(
    state: &mut AppState,
    why: &str,
    previous_loss: Option<SystemTime>,
    now: SystemTime,
    exe: std::io::Result<PathBuf>,
    config_dir: Option<&Path>,
) -> Outcome {
    if !may_relaunch(previous_loss, now) {
        return Outcome::TooSoon;
    }
    let Some(dir) = config_dir else {
        return Outcome::Failed("no configuration folder for the resume file".into());
    };
    let exe = match exe {
        Ok(exe) => exe,
        Err(e) => return Outcome::Failed(format!("the executable was not found: {e}")),
    };
    // The new process reads them: team colour, overlays, lighting, data roots, window.
    if let Err(e) = state.services.settings.flush() {
        log::warn!("{e}");
    }
    let resume = Resume::capture(state, why, now);
    let path = match resume.write(dir, std::process::id()) {
        Ok(p) => p,
        Err(e) => return Outcome::Failed(format!("could not write the resume file: {e}")),
    };
    let mut command = Command::new(&exe);
    // The open file, else the gallery's folder or archive (not the demo model): an
    // absolute path, an archive entry or an assembly line, never a flag.
    let gallery = resume.gallery.as_ref().map(|g| &g.source);
    if let Some(arg) = resume.file.as_ref().or(gallery) {
        command.arg(arg);
    }
    command
        .env(RESUME_ENV, &path)
        .env_remove(LOSE_DEVICE_ENV)
        .stdin(Stdio::null());
    match command.spawn() {
        Ok(child) => Outcome::Relaunched {
            pid: child.id(),
            resume: path,
        },
        Err(e) => {
            if let Err(e) = crate::files::atomic::remove(&path) {
                log::warn!("{e}");
            }
            Outcome::Failed(format!("could not start {}: {e}", exe.display()))
        }
    }
}

/// How this process was started, as the window needs it: from a resume file or not.
#[derive(Debug)]
pub enum Start {
    /// An ordinary start.
    Fresh,
    /// A relaunch after a lost device, with what the resume file held.
    Resumed(Box<Resume>),
    /// A relaunch whose resume file could not be used (the warning to show).
    ResumeFailed(String),
}

impl Start {
    /// Reads [`RESUME_ENV`]'s resume file, if set (deleting it).
    pub fn from_env() -> Start {
        match std::env::var_os(RESUME_ENV) {
            None => Start::Fresh,
            Some(p) => Start::from_file(Path::new(&p)),
        }
    }

    /// Reads the resume file `path` (deleting it). One that is not there any more was
    /// read already: the variable was inherited by a program the relaunched window
    /// started (a file manager) that now starts Vitrine, which is an ordinary start.
    pub fn from_file(path: &Path) -> Start {
        if !path.exists() {
            log::warn!(
                "{RESUME_ENV} names {}, which is gone (read already); an ordinary start",
                path.display()
            );
            return Start::Fresh;
        }
        match Resume::take(path, SystemTime::now()) {
            Ok(r) => Start::Resumed(Box::new(r)),
            Err(w) => Start::ResumeFailed(w),
        }
    }

    /// Puts the resumed view back on `state` (its document already opened from the
    /// command line), tells the user, and returns the loss the loop guard compares with:
    /// the one recorded, or now for a relaunch whose record was unusable.
    pub fn apply(self, state: &mut AppState) -> Option<SystemTime> {
        match self {
            Start::Fresh => None,
            Start::Resumed(r) => {
                r.restore(state);
                let what = match (&state.document.open, &state.panels.gallery) {
                    (Some(d), _) => d.file_name(),
                    (None, Some(g)) => g.title.clone(),
                    (None, None) => "the window".to_string(),
                };
                let text =
                    format!("The GPU device was lost; Vitrine reopened {what} on a new device");
                eprintln!("vitrine: {text} (process {})", std::process::id());
                state.services.toasts.info(text);
                Some(r.lost_at())
            }
            Start::ResumeFailed(w) => {
                eprintln!("vitrine: {w}");
                state.services.toasts.error(format!(
                    "The GPU device was lost and Vitrine reopened on a new device. {w}"
                ));
                Some(SystemTime::now())
            }
        }
    }
}

/// [`LOSE_DEVICE_ENV`]'s delay, if set to a number of seconds.
pub fn lose_device_after() -> Option<Duration> {
    let value = std::env::var(LOSE_DEVICE_ENV).ok()?;
    match value.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s)),
        _ => {
            log::warn!("{LOSE_DEVICE_ENV}={value:?} is not a number of seconds; ignored");
            None
        }
    }
}

/// The testing aid's fault: destroys `device` (wgpu then reports it lost, `Destroyed`)
/// and polls it so the device-lost callback runs now.
pub fn lose_device(device: &wgpu::Device) {
    eprintln!("vitrine: {LOSE_DEVICE_ENV}: destroying the window's GPU device");
    device.destroy();
    let _ = device.poll(wgpu::PollType::Poll);
}

#[cfg(test)]
mod tests;
