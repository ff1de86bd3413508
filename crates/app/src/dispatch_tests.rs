//! The commands' logic without a window (jobs run inline).
use super::*;
use crate::commands::{DocumentCommand, GltfCommand, ScreenshotCommand, SettingsCommand};
use crate::effect::ScreenshotRequest;
use crate::files::FileRef;
use crate::opening::absolute;
use crate::settings::Settings;
use std::path::{Path, PathBuf};

#[test]
fn absolute_asks_the_source_and_keeps_an_entrys_inner_path() {
    // A source whose full paths live under /root (the disk's rule is tested with it:
    // src/files/disk.rs).
    struct Rooted(crate::files::MemorySource);
    impl crate::files::FileSource for Rooted {
        fn read(&self, p: &Path) -> std::io::Result<Vec<u8>> {
            self.0.read(p)
        }
        fn kind(&self, p: &Path) -> Option<crate::files::EntryKind> {
            self.0.kind(p)
        }
        fn open(&self, p: &Path) -> std::io::Result<std::sync::Arc<dyn crate::files::ReadAt>> {
            self.0.open(p)
        }
        fn list(&self, d: &Path) -> std::io::Result<Vec<(String, crate::files::EntryKind)>> {
            self.0.list(d)
        }
        fn stamp(&self, p: &Path) -> std::io::Result<crate::files::Stamp> {
            self.0.stamp(p)
        }
        fn full_path(&self, p: &Path) -> std::path::PathBuf {
            Path::new("/root").join(p)
        }
    }
    let files = crate::files::Files::new(Rooted(crate::files::MemorySource::new()));
    let rooted = |p: &str| Path::new("/root").join(p);
    assert_eq!(
        absolute(&files, FileRef::Disk("a.pie".into())),
        FileRef::Disk(rooted("a.pie"))
    );
    let entry = FileRef::Entry {
        archive: "m/x.wz".into(),
        path: "x/../y.pie".into(),
    };
    assert_eq!(
        absolute(&files, entry),
        FileRef::Entry {
            archive: rooted("m/x.wz"),
            path: "x/../y.pie".into(),
        }
    );
}

#[test]
fn failed_open_keeps_nothing_and_reports() {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    let missing = FileRef::Disk("/definitely/not/here.pie".into());
    assert_eq!(
        apply(
            &mut s,
            AppCommand::Document(DocumentCommand::Open(missing.clone()))
        ),
        None
    );
    let err = s.document.load_error.as_ref().expect("an error");
    assert_eq!(err.path, missing);
    assert!(err.message.starts_with("here.pie"), "{}", err.message);
    assert!(s.services.settings.recent_files.is_empty());
}

#[test]
fn export_asks_for_a_path_then_exports_the_open_model_with_the_team() {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    assert_eq!(apply(&mut s, AppCommand::Gltf(GltfCommand::Dialog)), None);
    assert_eq!(s.services.toasts.items.len(), 1, "no model: an error toast");
    s.set_document(
        PathBuf::from("/models/tank.pie").into(),
        crate::model::Model::new(crate::model::Format::Pie, "3"),
    );
    apply(&mut s, AppCommand::Settings(SettingsCommand::SetTeam(5)));
    assert_eq!(
        apply(&mut s, AppCommand::Gltf(GltfCommand::Dialog)),
        Some(Effect::PickExportPath(
            Some(PathBuf::from("/models")),
            "tank.glb".into()
        ))
    );
    match apply(
        &mut s,
        AppCommand::Gltf(GltfCommand::Export(PathBuf::from("/out/t.glb"))),
    ) {
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
    assert_eq!(
        apply(
            &mut s,
            AppCommand::Document(DocumentCommand::OpenFolderDialog)
        ),
        None
    );
    assert_eq!(
        apply(
            &mut s,
            AppCommand::Document(DocumentCommand::PickDataRoot { archive: false })
        ),
        None
    );
    assert_eq!(s.services.toasts.items.len(), 2);
    assert!(matches!(
        apply(
            &mut s,
            AppCommand::Document(DocumentCommand::PickDataRoot { archive: true })
        ),
        Some(Effect::PickDataRoot { archive: true, .. })
    ));
}

#[test]
fn team_out_of_range_is_ignored() {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    apply(&mut s, AppCommand::Settings(SettingsCommand::SetTeam(7)));
    apply(&mut s, AppCommand::Settings(SettingsCommand::SetTeam(16)));
    assert_eq!(s.services.settings.team, 7);
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
    assert_eq!(
        apply(&mut s, AppCommand::Screenshot(ScreenshotCommand::Take(req))),
        None
    );
    assert_eq!(s.services.toasts.items.len(), 1);
    s.set_document(
        FileRef::Disk("x.pie".into()),
        crate::model::Model::new(crate::model::Format::Pie, "3"),
    );
    assert_eq!(
        apply(&mut s, AppCommand::Screenshot(ScreenshotCommand::Take(req))),
        Some(Effect::Screenshot(ScreenshotRequest {
            size: Some([4096, 1]),
            clean: true
        }))
    );
}
