//! The Windows program is built for the GUI subsystem (`windows_subsystem = "windows"` in
//! `main.rs`), so a double-click opens the window without a console window beside it. Such
//! a program starts with no console of its own: when it was started from a terminal (cmd,
//! PowerShell, Windows Terminal) [`attach_parent_console`] attaches to the terminal's
//! console, so `vitrine info …` and every other subcommand still print there. Output that
//! the caller redirected (a pipe, a file: valid handles at start) is left as it is.

use windows_sys::Win32::Foundation::{GENERIC_READ, GENERIC_WRITE, HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::Storage::FileSystem::{
    CreateFileW, FILE_SHARE_READ, FILE_SHARE_WRITE, OPEN_EXISTING,
};
use windows_sys::Win32::System::Console::{
    ATTACH_PARENT_PROCESS, AttachConsole, GetStdHandle, STD_ERROR_HANDLE, STD_HANDLE,
    STD_OUTPUT_HANDLE, SetStdHandle,
};

/// Attaches to the parent's console where standard output or error has no handle yet; does
/// nothing when the parent has no console (Explorer) or both are redirected.
pub fn attach_parent_console() {
    let missing = |which: STD_HANDLE| {
        // SAFETY: GetStdHandle only reads the process's standard handle table.
        let h = unsafe { GetStdHandle(which) };
        h.is_null() || h == INVALID_HANDLE_VALUE
    };
    let (out, err) = (missing(STD_OUTPUT_HANDLE), missing(STD_ERROR_HANDLE));
    if !out && !err {
        return;
    }
    // SAFETY: plain Win32 call; fails harmlessly when the parent has no console.
    if unsafe { AttachConsole(ATTACH_PARENT_PROCESS) } == 0 {
        return;
    }
    // Attaching fills in the handles on current Windows; where it did not, open the console.
    for (which, was_missing) in [(STD_OUTPUT_HANDLE, out), (STD_ERROR_HANDLE, err)] {
        if was_missing && missing(which) {
            if let Some(h) = console_output() {
                // SAFETY: `h` is a valid handle this process owns from here on.
                unsafe { SetStdHandle(which, h) };
            }
        }
    }
}

/// The attached console's screen buffer (`CONOUT$`), opened for writing.
fn console_output() -> Option<HANDLE> {
    let name: Vec<u16> = "CONOUT$\0".encode_utf16().collect();
    // SAFETY: `name` is NUL-terminated UTF-16; the other arguments are plain values.
    let h = unsafe {
        CreateFileW(
            name.as_ptr(),
            GENERIC_READ | GENERIC_WRITE,
            FILE_SHARE_READ | FILE_SHARE_WRITE,
            std::ptr::null(),
            OPEN_EXISTING,
            0,
            std::ptr::null_mut(),
        )
    };
    (h != INVALID_HANDLE_VALUE && !h.is_null()).then_some(h)
}
