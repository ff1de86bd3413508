//! A map's `game.js` run in a child process of the program's own: every front-end of
//! the binary (the window, the CLI, the thumbnailer, `publish`) installs [`run`] as the
//! core's script engine, so a stranger's script never runs in the process that shows,
//! renders or writes anything.
//!
//! The child (`vitrine --run-map-script SEED PLAYERS`, the script on its standard input)
//! runs Boa at full speed ([`vitrine_core::map::script::run_script_watched`]) and is
//! bounded from outside the engine, for everything the engine does on the script's
//! behalf (builtins, callbacks from natives, getters, strings, the parser):
//! - **memory**: every allocation of the process is charged to a cap of [`MEMORY_CAP`]
//!   ([`Capped`], the binary's allocator, which counts only in the child); past it the
//!   child stops, saying so and the line the script was last seen on;
//! - **time**: a watchdog thread stops the child once it has taken [`TIME_LIMIT`] of
//!   processor time (or what [`TIME_SETTING`] says); the parent kills it after
//!   [`KILL_AFTER`] if it has not stopped;
//! - **stack**: the script runs on a thread of [`STACK`]; its nesting is bounded before
//!   it is parsed ([`vitrine_core::map::script::MAX_NESTING`]);
//! - **what it hands back**: the answer read from the child is at most [`MAX_ANSWER`]
//!   bytes ([`vitrine_core::map::script::wire`]).
//!
//! A child that dies another way (a crash) is a refusal naming the script, never a
//! crash of the program.

pub use vitrine_memory_cap::Capped;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use vitrine_core::formats::{ErrorKind, LoadError};
use vitrine_core::map::script::{self, ScriptMap, wire};
use vitrine_core::model::Location;

/// The argument that makes the binary a script child (not a user-facing option).
pub const CHILD_FLAG: &str = "--run-map-script";
/// The child's memory, all its allocations together: the script engine's cap.
pub const MEMORY_CAP: usize = script::MEMORY_CAP;
/// The child's processor time (its threads together) unless [`TIME_SETTING`] says
/// otherwise.
pub const TIME_LIMIT: Duration = Duration::from_secs(script::TIME_LIMIT_SECONDS);
/// The environment variable that sets the time limit, whole seconds from 1 to 600 (for a
/// slow machine, or a heavy script one trusts).
pub const TIME_SETTING: &str = "VITRINE_SCRIPT_SECONDS";
/// How long the parent waits, wall clock, before it kills a child that has not stopped
/// (the child's own watchdog counts processor time, which a busy machine hands out
/// slowly).
pub const KILL_AFTER: Duration = Duration::from_secs(60);
/// The script thread's stack.
pub const STACK: usize = 64 << 20;
/// The most bytes the parent reads of the child's answer: a 256×256 map with 65,535 of
/// each object kind, each with a name of the longest length, fits.
pub const MAX_ANSWER: u64 = 64 << 20;

/// The processor time this process has taken (its threads together): what the time
/// limit counts, so that a busy machine does not stop a script that a quiet one runs.
#[cfg(unix)]
fn process_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only the struct it is given.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The processor time this process has taken (kernel and user, its threads together).
#[cfg(windows)]
fn process_time() -> Duration {
    use windows_sys::Win32::Foundation::FILETIME;
    use windows_sys::Win32::System::Threading::{GetCurrentProcess, GetProcessTimes};
    let zero = || FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero(), zero(), zero(), zero());
    // SAFETY: the pseudo-handle of the current process, and four FILETIMEs to write.
    let ok = unsafe {
        GetProcessTimes(
            GetCurrentProcess(),
            &mut created,
            &mut exited,
            &mut kernel,
            &mut user,
        )
    };
    if ok == 0 {
        return Duration::ZERO;
    }
    // FILETIME counts 100 ns.
    let ticks = |t: FILETIME| (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime);
    Duration::from_nanos((ticks(kernel) + ticks(user)).saturating_mul(100))
}

/// Elsewhere, the time since the child started (the processor time of a process is not
/// read there).
#[cfg(not(any(unix, windows)))]
fn process_time() -> Duration {
    static STARTED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    STARTED.get_or_init(Instant::now).elapsed()
}

/// Exit code of a child stopped at its memory cap.
const EXIT_MEMORY: i32 = 3;
/// Exit code of a child stopped by its watchdog.
const EXIT_TIME: i32 = 4;

/// Makes [`run`] the core's script engine. Called once by `main`.
pub fn install() {
    // A second call (never made by `main`) keeps the first.
    let _ = vitrine_core::engines::install_script(run);
}

/// The core's [`vitrine_core::engines::RunScript`]: runs `source` in a child process.
///
/// # Errors
/// The script's own refusal (its line), the memory cap or the time limit reached (the
/// line the script was last seen on), a crash of the child, or a child that could not
/// be started.
pub fn run(source: &[u8], seed: u32, players: u32) -> Result<ScriptMap, LoadError> {
    script::screen_text(source)?;
    let seconds = time_limit().as_secs();
    let exe = std::env::current_exe().map_err(|e| cannot_start(&e))?;
    let mut child = Command::new(exe)
        .args([
            CHILD_FLAG,
            &seed.to_string(),
            &players.to_string(),
            &seconds.to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| cannot_start(&e))?;
    let mut stdin = child.stdin.take().expect("piped");
    let source = source.to_vec();
    let feeder = std::thread::spawn(move || {
        // A child that stops early closes its end: nothing more to say.
        let _ = stdin.write_all(&source);
    });
    let answer = drain(child.stdout.take().expect("piped"), MAX_ANSWER);
    let said = drain(child.stderr.take().expect("piped"), 64 << 10);
    let deadline = Instant::now() + KILL_AFTER;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let _ = feeder.join();
    let answer = answer.join().unwrap_or_default();
    let said = String::from_utf8_lossy(&said.join().unwrap_or_default()).into_owned();
    match status.map(|s| s.code()) {
        None => Err(stopped(&said, "time", seconds)),
        Some(Some(0)) => wire::decode(&answer),
        Some(Some(EXIT_MEMORY)) => Err(stopped(&said, "memory", seconds)),
        Some(Some(EXIT_TIME)) => Err(stopped(&said, "time", seconds)),
        Some(_) => Err(crashed(&said)),
    }
}

/// Reads `from` to its end (at most `limit` bytes, the rest read and dropped) on a thread.
fn drain(from: impl Read + Send + 'static, limit: u64) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut from = from;
        let _ = from.by_ref().take(limit).read_to_end(&mut kept);
        let _ = std::io::copy(&mut from, &mut std::io::sink());
        kept
    })
}

fn cannot_start(e: &std::io::Error) -> LoadError {
    LoadError::new(
        ErrorKind::Io,
        Location::File,
        format!("could not start the process that runs map scripts: {e}"),
    )
}

/// The line a child said it stopped on (`memory N` / `time N`), if it said one.
fn said_line(said: &str, what: &str) -> Option<u32> {
    said.lines()
        .filter_map(|l| l.strip_prefix(what)?.trim().parse().ok())
        .next_back()
        .filter(|&n| n > 0)
}

/// [`TIME_LIMIT`], or the whole seconds [`TIME_SETTING`] gives (1–600).
fn time_limit() -> Duration {
    std::env::var(TIME_SETTING)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| (1..=600).contains(s))
        .map_or(TIME_LIMIT, Duration::from_secs)
}

fn stopped(said: &str, limit: &str, seconds: u64) -> LoadError {
    let line = said_line(said, &format!("{limit} "));
    if limit == "memory" {
        return script::stopped_at_memory(line);
    }
    script::stopped(
        &format!(
            "the script ran past the {seconds} s of processor time map scripts may take \
             (the heaviest shipped map's takes under 2; {TIME_SETTING} sets the limit)"
        ),
        line,
    )
}

fn crashed(said: &str) -> LoadError {
    let last = said
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let why = if said.contains("overflowed its stack") {
        "its engine ran out of stack".to_string()
    } else if last.is_empty() {
        "its engine stopped without an answer".to_string()
    } else {
        format!("its engine stopped: {}", last.trim())
    };
    script::could_not_run(&why)
}

/// The child: `vitrine --run-map-script SEED PLAYERS SECONDS`, `game.js` on standard
/// input, the answer ([`wire::encode`]) on standard output. Returns the exit code.
pub fn child_main(args: &[String]) -> i32 {
    let number = |i: usize| args.get(i).and_then(|a| a.parse::<u32>().ok());
    let (Some(seed), Some(players), Some(seconds)) = (number(0), number(1), number(2)) else {
        eprintln!("usage: vitrine {CHILD_FLAG} SEED PLAYERS SECONDS < game.js");
        return 2;
    };
    let limit = Duration::from_secs(u64::from(seconds.clamp(1, 600)));
    static LINE: AtomicU32 = AtomicU32::new(0);
    vitrine_memory_cap::arm(MEMORY_CAP, &LINE, past_cap);
    let mut source = Vec::new();
    if std::io::stdin()
        .take(script::MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut source)
        .is_err()
    {
        return 2;
    }
    std::thread::spawn(move || {
        while process_time() < limit {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = writeln!(std::io::stderr(), "time {}", LINE.load(Ordering::Relaxed));
        std::process::exit(EXIT_TIME);
    });
    let runner = std::thread::Builder::new()
        .name("game.js".into())
        .stack_size(STACK)
        .spawn(move || {
            let answer = script::run_script_watched(&source, seed, players, &LINE);
            wire::encode(&answer)
        });
    let Ok(Ok(bytes)) = runner.map(std::thread::JoinHandle::join) else {
        return 1;
    };
    let mut out = std::io::stdout().lock();
    if out.write_all(&bytes).and_then(|()| out.flush()).is_err() {
        return 1;
    }
    0
}

/// The child past its memory cap: says `memory LINE` on standard error and ends.
fn past_cap(line: u32) {
    // No formatting machinery that could allocate: the digits by hand.
    let mut text = *b"memory 0000000000\n";
    let mut n = line;
    for slot in text[7..17].iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let _ = std::io::stderr().write_all(&text);
    std::process::exit(EXIT_MEMORY)
}
