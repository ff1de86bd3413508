//! `vitrine install-desktop` puts the launcher, MIME types and icon under
//! `$XDG_DATA_HOME` and `--uninstall` takes them away again.

use crate::common;

use std::process::Command;

#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn install_desktop_writes_launcher_types_and_icon_and_uninstall_removes_them() {
    let tmp = common::temp_dir("install-desktop");
    let data = tmp.path().join("share");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_vitrine"))
            .arg("install-desktop")
            .args(extra)
            .env("XDG_DATA_HOME", &data)
            .env("HOME", tmp.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let said = run(&[]);
    let entry = std::fs::read_to_string(data.join("applications/vitrine.desktop")).unwrap();
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_vitrine")).unwrap();
    assert!(
        entry.contains(&format!("Exec=\"{}\" %f", exe.display())),
        "{entry}"
    );
    assert!(
        entry.contains("MimeType=model/x-warzone2100-pie;"),
        "{entry}"
    );
    let mime = std::fs::read_to_string(data.join("mime/packages/vitrine.xml")).unwrap();
    assert!(mime.contains("<glob pattern=\"*.tpm\"/>"));
    assert!(
        data.join("icons/hicolor/256x256/apps/vitrine.png")
            .is_file()
    );
    assert!(said.contains("wrote"), "{said}");

    let said = run(&["--uninstall"]);
    assert!(said.contains("removed"), "{said}");
    for f in vitrine::desktop::FILES {
        assert!(!data.join(f).exists(), "{f} left behind");
    }
}
