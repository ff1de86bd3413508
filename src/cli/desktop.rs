//! `vitrine install-desktop [--uninstall]`: puts the launcher, the model MIME types and
//! the icon into the user's data folder ([`crate::desktop`]), then asks the desktop to
//! read them again (`update-mime-database`, `update-desktop-database`, when installed).

use super::exit;
use clap::Args;
use std::path::Path;

/// Arguments of `vitrine install-desktop`.
#[derive(Debug, Args)]
pub struct DesktopArgs {
    /// Remove the launcher, MIME types and icon instead.
    #[arg(long)]
    pub uninstall: bool,
}

/// Runs the subcommand; returns the exit code.
pub fn run(args: &DesktopArgs) -> i32 {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        eprintln!(
            "install-desktop is for Linux and other freedesktop.org desktops; on this \
             system open models with File ▸ Open… or drop them on the window"
        );
        return exit::FAILED;
    }
    let Some(data) = crate::desktop::data_dir() else {
        eprintln!("no home folder: cannot find where launchers go");
        return exit::FAILED;
    };
    let result = if args.uninstall {
        crate::desktop::uninstall(&data)
    } else {
        std::env::current_exe().and_then(|exe| crate::desktop::install(&exe, &data))
    };
    let files = match result {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::FAILED;
        }
    };
    let verb = if args.uninstall { "removed" } else { "wrote" };
    for f in &files {
        println!("{verb} {}", f.display());
    }
    if args.uninstall && files.is_empty() {
        println!("nothing to remove under {}", data.display());
    }
    refresh(&data);
    if !args.uninstall {
        println!(
            "Vitrine is now offered for .pie, .pmf, .pet/.apet/.bpet/.mpet, .tpm and .wz files \
             (types {})",
            crate::desktop::mime_types().join(", ")
        );
    }
    exit::OK
}

/// Asks the desktop's caches to read the folders again; a missing tool is not an error
/// (the desktop then notices at the next login).
fn refresh(data: &Path) {
    for (tool, folder) in [
        ("update-mime-database", data.join("mime")),
        ("update-desktop-database", data.join("applications")),
    ] {
        match std::process::Command::new(tool).arg(&folder).status() {
            Ok(s) if s.success() => println!("ran {tool} {}", folder.display()),
            Ok(s) => eprintln!("warning: {tool} {} exited with {s}", folder.display()),
            Err(_) => println!("({tool} not found: the desktop picks the files up at next login)"),
        }
    }
}
