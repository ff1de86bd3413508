//! Hostile map packages, built in a test's temporary folder from a map of the shared
//! corpus's `mp.wz` (its `game.map` and `ttypes.ttp`, or a flat `game.map` of any size)
//! with object files written here — never stored — and the `vitrine` child that reads
//! them, measured: its peak memory (`wait4`'s `ru_maxrss`, the child's own, as
//! `tests/resource_limits.rs` measures) and how long it ran. A child running past
//! [`HANG`] is killed and the test fails: a guard against hangs, never a timing
//! assertion (the times go to docs/reliability.md).

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A million bytes.
pub const MB: u64 = 1_000_000;

/// A child still running after this has hung.
pub const HANG: Duration = Duration::from_secs(180);

/// What a `vitrine` child did.
#[derive(Debug)]
pub struct Measured {
    /// Its exit code (−1 where a signal ended it).
    pub code: i32,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
    /// Its peak resident memory, bytes.
    pub peak: u64,
    /// How long it ran.
    pub seconds: f64,
    /// The processor time it and its reaped children took (a script's child
    /// included): what a busy machine does not stretch.
    pub cpu_seconds: f64,
}

impl Measured {
    /// One line for the test's output: what ran, its exit code, peak memory and time.
    pub fn line(&self, what: &str) -> String {
        format!(
            "{what}: exit {}, peak {} MB, {:.2} s",
            self.code,
            self.peak / MB,
            self.seconds
        )
    }
}

/// Runs the `vitrine` binary with `args`, measured; panics where it runs past [`HANG`].
pub fn run_measured(args: &[OsString]) -> Measured {
    run_measured_with(&[], args)
}

/// [`run_measured`] with the environment variables `env` set.
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which gives its peak memory"
)]
pub fn run_measured_with(env: &[(&str, &str)], args: &[OsString]) -> Measured {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vitrine"))
        .envs(env.iter().copied())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("vitrine starts");
    let pid = child.id() as libc::pid_t;
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = read(Box::new(child.stdout.take().expect("piped")));
    let err = read(Box::new(child.stderr.take().expect("piped")));
    let start = Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: wait4 fills the zeroed rusage and the status of our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break (status, usage);
        }
        assert!(r == 0, "wait4 failed: {}", std::io::Error::last_os_error());
        if start.elapsed() > HANG {
            // SAFETY: our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("vitrine {args:?} hung: still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let seconds = start.elapsed().as_secs_f64();
    let time = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    Measured {
        code,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        // Linux reports kilobytes.
        peak: usage.ru_maxrss as u64 * 1024,
        seconds,
        cpu_seconds: time(usage.ru_utime) + time(usage.ru_stime),
    }
}

/// `args` as the child's arguments.
pub fn args<S: AsRef<OsStr>>(args: &[S]) -> Vec<OsString> {
    args.iter().map(|a| a.as_ref().to_os_string()).collect()
}

/// The shared corpus's `mp.wz`.
pub fn mp_wz(shared: &Path) -> PathBuf {
    shared.join("corpus/wz2100/archives/mp.wz")
}

/// `--data` for the shared corpus's game data: `mp.wz` over the base data's stats and
/// models (no tile images: the ground is drawn in one colour).
pub fn data_args(shared: &Path) -> Vec<OsString> {
    args(&[
        OsString::from("--data"),
        mp_wz(shared).into_os_string(),
        OsString::from("--data"),
        shared.join("corpus/wz2100/data/base").into_os_string(),
    ])
}

/// The bytes of `path` in the archive `wz`.
pub fn read_entry(wz: &Path, path: &str) -> Vec<u8> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(wz).expect("mp.wz")).expect("a zip");
    let mut e = z.by_name(path).expect("the entry");
    let mut bytes = Vec::new();
    e.read_to_end(&mut bytes).expect("inflates");
    bytes
}

/// A `game.map` (version 40) of `w` × `h` flat tiles, no gateways.
pub fn flat_game_map(w: u32, h: u32) -> Vec<u8> {
    let mut b = b"map ".to_vec();
    for v in [40, w, h] {
        b.extend(v.to_le_bytes());
    }
    for _ in 0..w * h {
        b.extend(1u16.to_le_bytes());
        b.extend(100u16.to_le_bytes());
    }
    b.extend(1u32.to_le_bytes());
    b.extend(0u32.to_le_bytes());
    b
}

/// A `level.json` package in `dir`: `game_map` and `mp.wz`'s `map`'s `ttypes.ttp`, a
/// level of `players`; returns `dir`.
pub fn package(dir: &Path, shared: &Path, map: &str, game_map: Vec<u8>, players: u64) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("game.map"), game_map).unwrap();
    let ttp = read_entry(&mp_wz(shared), &format!("multiplay/maps/{map}/ttypes.ttp"));
    std::fs::write(dir.join("ttypes.ttp"), ttp).unwrap();
    let level = format!(
        r#"{{"name": "Hostile", "type": "skirmish", "players": {players}, "tileset": "arizona"}}"#
    );
    std::fs::write(dir.join("level.json"), level).unwrap();
    dir.to_path_buf()
}

/// `mp.wz`'s `map`'s own `game.map`.
pub fn mp_game_map(shared: &Path, map: &str) -> Vec<u8> {
    read_entry(&mp_wz(shared), &format!("multiplay/maps/{map}/game.map"))
}

/// Writes a version 2 object file `name` in `dir` of `entries` (each an entry's JSON),
/// one entry a line: entry `i` is on line `i + 3`.
pub fn write_objects(dir: &Path, name: &str, list: &str, entries: impl Iterator<Item = String>) {
    let file = std::fs::File::create(dir.join(name)).unwrap();
    let mut f = std::io::BufWriter::new(file);
    write!(f, "{{\"version\": 2,\n\"{list}\": [\n").unwrap();
    for (i, e) in entries.enumerate() {
        if i > 0 {
            f.write_all(b",\n").unwrap();
        }
        f.write_all(e.as_bytes()).unwrap();
    }
    f.write_all(b"\n]}\n").unwrap();
    f.flush().unwrap();
}

/// The centres of the tiles of a `w` × `h` map, `margin` tiles in from its edges, row
/// by row, as many as asked (again from the first where there are fewer tiles).
pub fn tile_centres(n: usize, (w, h): (i32, i32), margin: i32) -> impl Iterator<Item = (i32, i32)> {
    let (cols, rows) = (w - 2 * margin, h - 2 * margin);
    (0..n).map(move |i| {
        let t = i as i32 % (cols * rows);
        (
            (margin + t % cols) * 128 + 64,
            (margin + t / cols) * 128 + 64,
        )
    })
}

/// A droid entry of `template` at (x, y) for `player`.
pub fn droid(template: &str, (x, y): (i32, i32), player: usize) -> String {
    format!(
        r#"{{"template": "{template}", "position": [{x}, {y}], "rotation": 0, "player": {player}}}"#
    )
}

/// A structure entry.
pub fn structure(name: &str, (x, y): (i32, i32), player: usize) -> String {
    format!(r#"{{"name": "{name}", "position": [{x}, {y}], "rotation": 0, "player": {player}}}"#)
}

/// A feature entry.
pub fn feature(name: &str, (x, y): (i32, i32)) -> String {
    format!(r#"{{"name": "{name}", "position": [{x}, {y}], "rotation": 0}}"#)
}
