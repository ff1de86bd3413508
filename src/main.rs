//! The `vitrine` binary: a thin shell over the library.
// Windows: no console window on a double-click; a terminal still gets the output
// (`vitrine::windows_console`).
#![cfg_attr(all(windows, feature = "gui"), windows_subsystem = "windows")]

use clap::Parser;
use vitrine::cli::{Cli, Command};

/// The system allocator, capped only in a map script's child process
/// (`vitrine::script_sandbox`).
#[global_allocator]
static ALLOCATOR: vitrine::script_sandbox::Capped = vitrine::script_sandbox::Capped;

fn main() {
    if std::env::args_os().nth(1).as_deref()
        == Some(std::ffi::OsStr::new(vitrine::script_sandbox::CHILD_FLAG))
    {
        let args: Vec<String> = std::env::args_os()
            .skip(2)
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        std::process::exit(vitrine::script_sandbox::child_main(&args));
    }
    // Every front-end of this binary runs map scripts in a child process of its own.
    vitrine::script_sandbox::install();
    #[cfg(all(windows, feature = "gui"))]
    vitrine::windows_console::attach_parent_console();
    // A panic writes a crash report and names the file being processed.
    vitrine::crash::install_hook();
    #[cfg(unix)]
    raise_open_file_limit();
    let cli = Cli::parse();
    if cli.command.is_some() {
        // A subcommand writes nothing but the output it is given: no crash report file
        // (printed on standard error instead) and no GPU driver's shader cache.
        vitrine::crash::report_on_standard_error();
        no_driver_shader_cache();
    }
    #[cfg(unix)]
    if cli.command.as_ref().is_some_and(prints_for_a_pipe) {
        end_quietly_on_a_closed_pipe();
    }
    let code = match &cli.command {
        Some(Command::Info(args)) => vitrine::cli::info::run(args),
        Some(Command::Render(args)) => vitrine::cli::render::run(args),
        Some(Command::Check(args)) => vitrine::cli::check::run(args),
        Some(Command::Export(args)) => vitrine::cli::export::run(args),
        Some(Command::Convert(args)) => vitrine::cli::convert::run(args),
        Some(Command::Publish(args)) => vitrine::cli::publish::run(args),
        Some(Command::InstallDesktop(args)) => vitrine::cli::desktop::run(args),
        Some(Command::Thumbnail(args)) => vitrine::cli::thumbnail::run(args),
        Some(Command::Maptools(args)) => vitrine::cli::maptools::run(args),
        Some(Command::Completions { shell }) => vitrine::cli::completions(*shell),
        Some(Command::Manpage) => vitrine::cli::manpage(),
        None => window(&cli),
    };
    std::process::exit(code);
}

/// `vitrine [FILE]`: the viewer's window.
#[cfg(feature = "gui")]
fn window(cli: &Cli) -> i32 {
    vitrine::desktop::window::run(cli.file.clone())
}

/// `vitrine [FILE]` in a build without the window (`--no-default-features --features
/// cli`): says so, as a usage error.
#[cfg(not(feature = "gui"))]
fn window(_cli: &Cli) -> i32 {
    eprintln!(
        "vitrine: this build has no window (built without the `gui` feature); \
         use a subcommand (vitrine --help)"
    );
    vitrine::cli::exit::USAGE
}

/// The environment variables that keep the GPU drivers from writing their shader caches
/// under the home folder (`~/.cache/mesa_shader_cache`, `~/.cache/nvidia`): Mesa (lavapipe,
/// llvmpipe, RADV, ANV, and its OpenGL drivers, old and new names) and NVIDIA's driver.
const NO_SHADER_CACHE: [(&str, &str); 3] = [
    ("MESA_SHADER_CACHE_DISABLE", "true"),
    ("MESA_GLSL_CACHE_DISABLE", "true"),
    ("__GL_SHADER_DISK_CACHE", "0"),
];

/// Turns the GPU drivers' on-disk shader caches off for this process ([`NO_SHADER_CACHE`]),
/// each unless the user set that variable (`MESA_SHADER_CACHE_DISABLE=false` keeps Mesa's
/// cache: about 1 s less per `render` or `thumbnail` on lavapipe, docs/reliability.md).
fn no_driver_shader_cache() {
    for (name, value) in NO_SHADER_CACHE {
        if std::env::var_os(name).is_none() {
            // SAFETY: called from `main` before any thread is started (the panic hook,
            // the file limit and the argument parsing start none), so nothing reads the
            // environment while it changes.
            unsafe { std::env::set_var(name, value) };
        }
    }
}

/// Subcommands whose output is text a shell may pipe into `head` (not `publish`, whose
/// server writes to sockets that may close, nor the window).
#[cfg(unix)]
fn prints_for_a_pipe(c: &Command) -> bool {
    matches!(
        c,
        Command::Info(_)
            | Command::Check(_)
            | Command::Maptools(_)
            | Command::Completions { .. }
            | Command::Manpage
    )
}

/// `vitrine info … | head` ends as Unix tools do when the reader goes away (killed by
/// SIGPIPE, silently), instead of a panic and a crash report: Rust programs ignore SIGPIPE
/// unless told otherwise.
#[cfg(unix)]
fn end_quietly_on_a_closed_pipe() {
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Lets the process keep as many files open as its hard limit allows: a folder of map
/// packages keeps each archive open while its maps are read, and a collection of 1,400
/// community maps is past the usual soft limit of 1,024. Where it cannot, nothing changes.
#[cfg(unix)]
fn raise_open_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write only the struct they are given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            let _ = libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
