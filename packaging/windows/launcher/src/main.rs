//! `vitrine.com`, beside `vitrine.exe` in the Windows zip.
//!
//! `vitrine.exe` is a GUI-subsystem program, so a double-click opens the window without a
//! console window. A terminal does not wait for such a program: typed in cmd or PowerShell
//! its output would land after the next prompt and its exit code would be lost. Both look
//! for `.COM` before `.EXE` (`PATHEXT`), so typing `vitrine …` runs this console program,
//! which runs `vitrine.exe` beside it with the same arguments and the terminal's handles,
//! waits for it and exits with its exit code: the command line behaves like any console
//! program's, and Explorer still opens the window-only `vitrine.exe`.

use std::process::Command;

fn main() {
    let Some(exe) = std::env::current_exe()
        .ok()
        .map(|p| p.with_extension("exe"))
    else {
        eprintln!("vitrine: cannot tell where vitrine.com is, so cannot find vitrine.exe");
        std::process::exit(1);
    };
    match Command::new(&exe)
        .args(std::env::args_os().skip(1))
        .status()
    {
        Ok(status) => std::process::exit(status.code().unwrap_or(1)),
        Err(e) => {
            eprintln!("vitrine: cannot start {}: {e}", exe.display());
            std::process::exit(1);
        }
    }
}
