//! The commands' logic without a window (jobs run inline).
use super::*;
use crate::settings::Settings;

#[test]
fn absolute_resolves_parent_folders_of_files_that_exist() {
    let dir = std::env::temp_dir().join(format!("vitrine-absolute-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.pie"), "PIE 3").unwrap();
    let real = std::fs::canonicalize(&dir).unwrap();
    let via_parent = FileRef::Disk(dir.join("sub").join("..").join("a.pie"));
    assert_eq!(absolute(via_parent), FileRef::Disk(real.join("a.pie")));
    // An archive's entry: the archive's path is resolved, the inner path kept.
    let entry = FileRef::Entry {
        archive: dir.join("sub/../a.pie"),
        path: "x/../y.pie".into(),
    };
    assert_eq!(
        absolute(entry),
        FileRef::Entry {
            archive: real.join("a.pie"),
            path: "x/../y.pie".into(),
        }
    );
    // A file that does not exist keeps its spelling (made absolute).
    let gone = dir.join("sub/../gone.pie");
    assert_eq!(absolute(FileRef::Disk(gone.clone())), FileRef::Disk(gone));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn failed_open_keeps_nothing_and_reports() {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    let missing = FileRef::Disk("/definitely/not/here.pie".into());
    assert_eq!(apply(&mut s, AppCommand::Open(missing.clone())), None);
    let err = s.load_error.as_ref().expect("an error");
    assert_eq!(err.path, missing);
    assert!(err.message.starts_with("here.pie"), "{}", err.message);
    assert!(s.settings.recent_files.is_empty());
}

#[test]
fn export_asks_for_a_path_then_exports_the_open_model_with_the_team() {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    assert_eq!(apply(&mut s, AppCommand::ExportGltfDialog), None);
    assert_eq!(s.toasts.items.len(), 1, "no model: an error toast");
    s.set_document(
        PathBuf::from("/models/tank.pie").into(),
        crate::model::Model::new(crate::model::Format::Pie, "3"),
    );
    apply(&mut s, AppCommand::SetTeam(5));
    assert_eq!(
        apply(&mut s, AppCommand::ExportGltfDialog),
        Some(Effect::PickExportPath(
            Some(PathBuf::from("/models")),
            "tank.glb".into()
        ))
    );
    match apply(&mut s, AppCommand::ExportGltf(PathBuf::from("/out/t.glb"))) {
        Some(Effect::ExportGltf(path, options)) => {
            assert_eq!(path, PathBuf::from("/out/t.glb"));
            assert_eq!(options.team, 5);
            assert_eq!(options.clips, crate::export::gltf::ClipChoice::All);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn without_folders_no_folder_dialog_is_asked_for_and_the_user_is_told_why() {
    // The memory host has no folders, as a browser.
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    assert_eq!(apply(&mut s, AppCommand::OpenFolderDialog), None);
    assert_eq!(
        apply(&mut s, AppCommand::PickDataRoot { archive: false }),
        None
    );
    assert_eq!(s.toasts.items.len(), 2);
    assert!(matches!(
        apply(&mut s, AppCommand::PickDataRoot { archive: true }),
        Some(Effect::PickDataRoot { archive: true, .. })
    ));
}

#[test]
fn team_out_of_range_is_ignored() {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    apply(&mut s, AppCommand::SetTeam(7));
    apply(&mut s, AppCommand::SetTeam(16));
    assert_eq!(s.settings.team, 7);
}

#[test]
fn screenshot_sizes_are_capped_and_need_a_model() {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    let req = ScreenshotRequest {
        size: Some([10_000, 0]),
        clean: true,
    };
    assert_eq!(apply(&mut s, AppCommand::Screenshot(req)), None);
    assert_eq!(s.toasts.items.len(), 1);
    s.set_document(
        FileRef::Disk("x.pie".into()),
        crate::model::Model::new(crate::model::Format::Pie, "3"),
    );
    assert_eq!(
        apply(&mut s, AppCommand::Screenshot(req)),
        Some(Effect::Screenshot(ScreenshotRequest {
            size: Some([4096, 1]),
            clean: true
        }))
    );
}
