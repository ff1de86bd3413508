//! The real window losing its GPU device, under Xvfb: `VITRINE_DEBUG_LOSE_DEVICE_AFTER`
//! destroys the window's device, the window relaunches Vitrine on the same file and
//! exits, and the new process's window shows that file; a second loss soon after a
//! relaunch closes the window and says why instead of relaunching again.
//!
//! Needs a Vulkan or GL adapter (Mesa's lavapipe will do; `#[vitrine_test(gpu)]`: ignored
//! where the build found none), and Xvfb and xdotool: skips loudly without those unless
//! VITRINE_REQUIRE_GPU=1 (CI).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant, SystemTime};
use vitrine::desktop::window::relaunch::resume::Resume;
use vitrine_test_needs::vitrine_test;

/// The window tests run one at a time: each starts lavapipe in a debug build.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn cube() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pie/cube.pie")
}

/// An X server of its own, stopped when dropped.
struct Xvfb {
    server: Child,
    display: String,
}

impl Xvfb {
    /// For a test marked `#[vitrine_test(gpu)]`, which panics without an adapter (it is
    /// reported as ignored where the build found none). `None` (and SKIPPED on standard
    /// error) without Xvfb or xdotool, unless VITRINE_REQUIRE_GPU=1.
    fn start() -> Option<Xvfb> {
        let required = std::env::var("VITRINE_REQUIRE_GPU").as_deref() == Ok("1");
        let skip = |why: String| {
            assert!(!required, "VITRINE_REQUIRE_GPU=1 but {why}");
            eprintln!("SKIPPED: the window test needs {why}");
        };
        vitrine_test_needs::require(vitrine_test_needs::Need::Gpu, "a GPU adapter (the window)");
        if let Err(e) = vitrine::render::Gpu::headless() {
            panic!("{e}, but the build found an adapter (or the test was run with --ignored)");
        }
        if Command::new("xdotool").arg("version").output().is_err() {
            skip("xdotool (not installed)".into());
            return None;
        }
        // Xvfb picks a free display and writes its number to standard output.
        let server = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut server = match server {
            Ok(s) => s,
            Err(e) => {
                skip(format!("Xvfb ({e})"));
                return None;
            }
        };
        let mut line = String::new();
        let mut out = BufReader::new(server.stdout.take().expect("piped"));
        out.read_line(&mut line).expect("Xvfb's display number");
        let display = format!(":{}", line.trim());
        assert!(line.trim().parse::<u32>().is_ok(), "Xvfb said {line:?}");
        Some(Xvfb { server, display })
    }

    /// `vitrine FILE` on this display with a config folder of its own and `env`;
    /// standard error (the relaunched process's too, which inherits it) comes line by
    /// line through the receiver.
    fn vitrine(
        &self,
        config: &Path,
        file: &Path,
        env: &[(&str, &str)],
    ) -> (Child, Receiver<String>) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_vitrine"));
        command
            .arg(file)
            .env("DISPLAY", &self.display)
            .env_remove("WAYLAND_DISPLAY")
            .env("VITRINE_CONFIG_DIR", config)
            .env("XDG_RUNTIME_DIR", config)
            .env_remove("VITRINE_RESUME")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("vitrine starts");
        let stderr = child.stderr.take().expect("piped");
        let (send, receive) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("  | {line}");
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        (child, receive)
    }

    /// The windows whose name contains `name`: (window id, process id).
    fn windows(&self, name: &str) -> Vec<(String, u32)> {
        let xdotool = |args: &[&str]| {
            let out = Command::new("xdotool")
                .args(args)
                .env("DISPLAY", &self.display)
                .output()
                .expect("xdotool runs");
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        let ids = xdotool(&["search", "--name", name]);
        ids.lines()
            .filter_map(|id| Some((id.to_string(), xdotool(&["getwindowpid", id]).parse().ok()?)))
            .collect()
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// The first line of `lines` containing `needle`, waiting at most `limit`; the lines
/// before it are kept in `seen`.
fn wait_for(
    lines: &Receiver<String>,
    needle: &str,
    limit: Duration,
    seen: &mut Vec<String>,
) -> Option<String> {
    let end = Instant::now() + limit;
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(needle) => return Some(line),
            Ok(line) => seen.push(line),
            Err(_) => break,
        }
    }
    None
}

/// Waits for `child` to exit, at most `limit`.
fn wait_exit(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

fn zenity_installed() -> bool {
    Command::new("zenity")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Waits at most `limit` for a message box titled "Vitrine" while `child` runs and
/// presses Return in it, as a user presses OK; whether one was there.
fn dismiss_message_box(x: &Xvfb, child: &mut Child, limit: Duration) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if child.try_wait().expect("try_wait").is_some() {
            return false;
        }
        if let Some((id, _)) = x.windows("^Vitrine$").into_iter().next() {
            let _ = Command::new("xdotool")
                .args([
                    "windowfocus",
                    "--sync",
                    &id,
                    "key",
                    "--window",
                    &id,
                    "Return",
                ])
                .env("DISPLAY", &x.display)
                .status();
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    false
}

/// Stops a process by id (the relaunched one is no child of the test).
fn stop(pid: u32) {
    let _ = Command::new("kill").arg(pid.to_string()).status();
}

/// The files in `config` whose name starts with `prefix`.
fn files_named(config: &Path, prefix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(config)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn resume_files(config: &Path) -> Vec<PathBuf> {
    files_named(config, "resume-")
}

fn crash_reports(config: &Path) -> Vec<PathBuf> {
    files_named(config, "crash-")
}

#[vitrine_test(gpu)]
fn a_lost_device_relaunches_vitrine_on_the_same_file() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let config = tempfile::tempdir().unwrap();
    let (mut first, lines) = x.vitrine(
        config.path(),
        &cube(),
        &[("VITRINE_DEBUG_LOSE_DEVICE_AFTER", "2")],
    );
    let mut seen = Vec::new();
    let relaunched = wait_for(
        &lines,
        "reopened in process",
        Duration::from_secs(30),
        &mut seen,
    );
    let Some(relaunched) = relaunched else {
        let _ = first.kill();
        panic!("no relaunch; standard error: {seen:#?}");
    };
    let pid: u32 = relaunched
        .split("reopened in process ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .expect("the new process's id");
    let status = wait_exit(&mut first, Duration::from_secs(15));
    let reopened = wait_for(
        &lines,
        "Vitrine reopened cube.pie on a new device",
        Duration::from_secs(30),
        &mut seen,
    );
    // The second window, found by its title once the first process is gone.
    let mut windows = Vec::new();
    let end = Instant::now() + Duration::from_secs(15);
    while windows.is_empty() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(250));
        windows = x.windows("cube.pie");
    }
    let leftovers = resume_files(config.path());
    stop(pid);
    assert!(
        status.is_some_and(|s| s.success()),
        "the first window closes by itself: {status:?}"
    );
    assert!(
        reopened.is_some_and(|l| l.contains(&format!("(process {pid})"))),
        "{seen:#?}"
    );
    assert!(
        windows.iter().any(|&(_, p)| p == pid) && windows.iter().all(|&(_, p)| p != first.id()),
        "the window showing cube.pie belongs to the new process {pid}: {windows:?}"
    );
    assert!(
        leftovers.is_empty(),
        "the resume file is deleted once read: {leftovers:?}"
    );
    assert!(crash_reports(config.path()).is_empty(), "nothing panicked");
}

#[vitrine_test(gpu)]
fn a_second_loss_soon_after_a_relaunch_closes_the_window_and_says_why() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let config = tempfile::tempdir().unwrap();
    // What a window that just lost its device would have written.
    let mut state = vitrine::app::state::AppState::new(
        Default::default(),
        vitrine::desktop::window::DesktopHost::new(None),
    );
    let open = vitrine::files::parse(&cube());
    vitrine::app::dispatch::apply(
        &mut state,
        vitrine::app::commands::AppCommand::Document(
            vitrine::app::commands::DocumentCommand::Open(open),
        ),
    );
    let resume = Resume::capture(&state, "Destroyed: test", SystemTime::now());
    let file = resume.write(config.path(), 1).unwrap();
    let file = file.to_string_lossy().into_owned();
    let env = [
        ("VITRINE_DEBUG_LOSE_DEVICE_AFTER", "2"),
        ("VITRINE_RESUME", file.as_str()),
    ];
    let (mut window, lines) = x.vitrine(config.path(), &cube(), &env);
    let mut seen = Vec::new();
    let said = wait_for(
        &lines,
        "does not reopen again",
        Duration::from_secs(30),
        &mut seen,
    );
    // The same message in the platform's message box (zenity on Linux, where installed):
    // the user presses OK, and then the process ends.
    let boxed = dismiss_message_box(&x, &mut window, Duration::from_secs(15));
    let status = wait_exit(&mut window, Duration::from_secs(15));
    if status.is_none() {
        let _ = window.kill();
    }
    let _ = window.wait();
    let said = said.expect("the loop guard's message on standard error");
    if zenity_installed() {
        assert!(boxed, "a message box titled Vitrine (zenity is installed)");
    }
    assert!(
        said.ends_with(&format!("Open {} again to carry on.", cube().display())),
        "{said}"
    );
    assert!(
        seen.iter().any(|l| l.contains("Vitrine reopened cube.pie")),
        "{seen:#?}"
    );
    let relaunched = seen.iter().any(|l| l.contains("reopened in process"));
    assert!(!relaunched, "no second relaunch: {seen:#?}");
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(1),
        "the window closes, exit code 1"
    );
    assert!(x.windows("cube.pie").is_empty(), "no window left");
    assert!(resume_files(config.path()).is_empty());
    assert!(crash_reports(config.path()).is_empty(), "nothing panicked");
}
