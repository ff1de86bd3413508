use super::resume::{MAX_AGE, Resume, VERSION, unix_ms};
use super::*;
use crate::app::commands::{AppCommand, DocumentCommand};
use crate::app::dispatch::apply;
use crate::app::settings::Settings;
use crate::files::FileRef;
use crate::render::ColourMode;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pie")
        .join(name)
}

/// A state with `file` opened as the window opens its command-line file.
fn opened(file: &Path) -> AppState {
    let mut s = AppState::new(
        Settings::default(),
        crate::desktop::window::DesktopHost::new(None),
    );
    apply(
        &mut s,
        AppCommand::Document(DocumentCommand::Open(crate::files::parse(file))),
    );
    assert!(s.document.open.is_some(), "{:?}", s.document.load_error);
    s
}

/// A state with the folder or archive `source` opened as a gallery.
fn opened_gallery(source: &Path) -> AppState {
    let mut s = AppState::new(
        Settings::default(),
        crate::desktop::window::DesktopHost::new(None),
    );
    apply(
        &mut s,
        AppCommand::Document(DocumentCommand::Open(crate::files::parse(source))),
    );
    assert!(s.panels.gallery.is_some());
    s
}

/// The animated two-level fixture, moved away from how a fresh open shows it.
fn changed_state() -> AppState {
    let mut s = opened(&fixture("interpolate_both.pie"));
    s.view.camera.yaw += 0.7;
    s.view.camera.pitch = -0.3;
    s.view.camera.distance *= 1.5;
    s.view.camera.orthographic = true;
    s.view.camera_moved = true;
    s.view.colour_mode = ColourMode::PerNode;
    let doc = s.document.open.as_mut().unwrap();
    doc.playback.time = 0.05;
    doc.playback.playing = false;
    doc.playback.speed = 2.0;
    doc.resample(0);
    let nodes = s.document.inspect.hidden.len();
    assert!(nodes >= 2, "two levels, two nodes");
    s.document.inspect.hidden[1] = true;
    s.document.inspect.selected = Some(0);
    s.document.inspect.isolate = true;
    s
}

#[test]
fn resume_round_trips_through_the_file_and_puts_the_view_back() {
    let dir = tempfile::tempdir().unwrap();
    let old = changed_state();
    let now = SystemTime::now();
    let saved = Resume::capture(&old, "Destroyed: test", now);
    let path = saved.write(dir.path(), 4242).unwrap();
    assert_eq!(path, dir.path().join("resume-4242.json"));

    let read = Resume::take(&path, now + Duration::from_secs(2)).unwrap();
    assert_eq!(read, saved);
    assert!(!path.exists(), "the resume file is deleted once read");
    assert_eq!(read.lost_at_ms, unix_ms(now));

    let mut new = opened(Path::new(read.file.as_deref().unwrap()));
    assert_ne!(
        new.view.camera, old.view.camera,
        "a fresh open frames the model"
    );
    read.restore(&mut new);
    assert_eq!(new.view.camera, old.view.camera);
    assert!(new.view.camera_moved);
    assert_eq!(new.view.colour_mode, ColourMode::PerNode);
    let (a, b) = (
        old.document.open.unwrap(),
        new.document.open.as_ref().unwrap(),
    );
    assert_eq!(b.playback, a.playback);
    assert_eq!(b.pose, a.pose, "the pose is sampled at the restored time");
    assert_eq!(new.document.inspect.hidden, old.document.inspect.hidden);
    assert_eq!(new.document.inspect.selected, Some(0));
    assert!(new.document.inspect.isolate);
}

#[test]
fn an_unmoved_camera_is_framed_again_and_a_shown_event_model_comes_back() {
    let mut old = opened(&fixture("events.pie"));
    crate::app::timeline::event_models::show_event(&mut old.document_context(), Some(0));
    crate::app::dispatch::poll_jobs(&mut old);
    assert_eq!(old.document.open.as_ref().unwrap().shown_event(), Some(0));
    let saved = Resume::capture(&old, "lost", SystemTime::now());
    assert!(!saved.camera_moved);
    let mut new = opened(&fixture("events.pie"));
    saved.restore(&mut new);
    assert_eq!(new.document.open.as_ref().unwrap().shown_event(), Some(0));
    assert!(!new.view.camera_moved);
}

#[test]
fn a_failed_open_comes_back_as_the_same_error() {
    let mut old = AppState::new(
        Settings::default(),
        crate::desktop::window::DesktopHost::new(None),
    );
    let missing = FileRef::Disk("/not/here/tank.pie".into());
    apply(
        &mut old,
        AppCommand::Document(DocumentCommand::Open(missing)),
    );
    let saved = Resume::capture(&old, "lost", SystemTime::now());
    assert_eq!(saved.file.as_deref(), Some("/not/here/tank.pie"));
}

#[test]
fn what_no_longer_fits_the_file_is_left_as_a_fresh_open_leaves_it() {
    let mut saved = Resume::capture(&changed_state(), "lost", SystemTime::now());
    saved.playback.as_mut().unwrap().clip = Some(99);
    saved.hidden = vec![true; 50];
    saved.camera.distance = f32::NAN;
    let mut new = opened(&fixture("interpolate_both.pie"));
    let fresh = (
        new.view.camera,
        new.document.open.as_ref().unwrap().playback.clone(),
    );
    saved.restore(&mut new);
    assert_eq!(new.view.camera, fresh.0, "a non-finite camera is not taken");
    assert_eq!(new.document.open.as_ref().unwrap().playback, fresh.1);
    assert!(new.document.inspect.hidden.iter().all(|h| !h));
    assert_eq!(new.document.inspect.selected, None);

    // Another file open than the one saved: only the gallery would be restored.
    let other = Resume::capture(&changed_state(), "lost", SystemTime::now());
    let mut cube = opened(&fixture("cube.pie"));
    let camera = cube.view.camera;
    other.restore(&mut cube);
    assert_eq!(cube.view.camera, camera);
    assert_eq!(cube.view.colour_mode, ColourMode::Textured);
}

#[test]
fn a_gallery_comes_back_with_its_scroll_and_focus() {
    let mut old = opened_gallery(&fixture(""));
    let g = old.panels.gallery.as_mut().unwrap();
    g.scroll = 240.0;
    g.filter = "pie".into();
    g.group = true;
    g.format = Some(crate::app::gallery::TileKind::Map);
    g.selected = Some(3);
    let focused = g.tiles[3].file.clone();
    let saved = Resume::capture(&old, "lost", SystemTime::now());
    assert!(saved.file.is_none());

    // The relaunch names the gallery's folder on the command line (no demo model).
    let mut new = opened_gallery(Path::new(&saved.gallery.as_ref().unwrap().source));
    saved.restore(&mut new);
    assert!(new.document.open.is_none());
    let g = new.panels.gallery.as_ref().expect("the gallery is back");
    assert_eq!(g.scroll, 240.0);
    assert!(g.restore_scroll);
    assert_eq!((g.filter.as_str(), g.group, g.shown), ("pie", true, true));
    assert_eq!(
        g.format,
        Some(crate::app::gallery::TileKind::Map),
        "maps only"
    );
    assert_eq!(g.selected.map(|i| g.tiles[i].file.clone()), Some(focused));
    let toast = Start::Resumed(Box::new(saved)).apply(&mut new);
    assert!(toast.is_some());
    let text = &new.services.toasts.items.last().unwrap().text;
    assert_eq!(
        text,
        "The GPU device was lost; Vitrine reopened pie on a new device"
    );

    // Opened afresh when the command line named something else.
    let mut other = opened(&fixture("cube.pie"));
    Resume::capture(&old, "lost", SystemTime::now()).restore(&mut other);
    assert_eq!(other.panels.gallery.as_ref().map(|g| g.scroll), Some(240.0));
}

#[test]
fn a_corrupt_stale_or_foreign_resume_file_is_ignored_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let now = SystemTime::now();
    let corrupt = dir.path().join("resume-1.json");
    crate::files::atomic::write(&corrupt, b"{\"version\": 1, \"lost_at").unwrap();
    let w = Resume::take(&corrupt, now).unwrap_err();
    assert!(w.contains("not a resume file"), "{w}");
    assert!(!corrupt.exists(), "a corrupt file is deleted too");

    let saved = Resume::capture(&changed_state(), "lost", now - MAX_AGE * 2);
    let stale = saved.write(dir.path(), 2).unwrap();
    let w = Resume::take(&stale, now).unwrap_err();
    assert!(w.contains("stale"), "{w}");

    let future = Resume::capture(&changed_state(), "lost", now + Duration::from_secs(600));
    let w = Resume::take(&future.write(dir.path(), 3).unwrap(), now).unwrap_err();
    assert!(w.contains("stale"), "{w}");

    let mut other = Resume::capture(&changed_state(), "lost", now);
    other.version = VERSION + 1;
    let w = Resume::take(&other.write(dir.path(), 4).unwrap(), now).unwrap_err();
    assert!(w.contains("version"), "{w}");

    let w = Resume::take(&dir.path().join("resume-9.json"), now).unwrap_err();
    assert!(w.contains("Could not read"), "{w}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // Through the window's start: a corrupt file is a relaunch that says why; a file
    // already read (the variable inherited by a later, ordinary start) is no relaunch.
    crate::files::atomic::write(&corrupt, b"not json").unwrap();
    assert!(matches!(Start::from_file(&corrupt), Start::ResumeFailed(_)));
    assert!(matches!(Start::from_file(&corrupt), Start::Fresh));

    // A relaunch whose file was unusable still counts as one for the loop guard.
    let mut state = AppState::new(
        Settings::default(),
        crate::desktop::window::DesktopHost::new(None),
    );
    let guard = Start::ResumeFailed(w).apply(&mut state);
    assert!(guard.is_some());
    assert!(state.services.toasts.items[0].error);
}

#[test]
fn the_loop_guard_refuses_a_second_relaunch_within_thirty_seconds() {
    let now = SystemTime::now();
    assert!(may_relaunch(None, now));
    assert!(!may_relaunch(Some(now - Duration::from_secs(5)), now));
    assert!(!may_relaunch(
        Some(now - LOOP_GUARD + Duration::from_millis(1)),
        now
    ));
    assert!(may_relaunch(Some(now - LOOP_GUARD), now));
    assert!(
        !may_relaunch(Some(now + Duration::from_secs(5)), now),
        "a clock that went back"
    );

    let dir = tempfile::tempdir().unwrap();
    let mut state = changed_state();
    let recent = Some(now - Duration::from_secs(3));
    let outcome = after_loss(
        &mut state,
        "lost",
        recent,
        now,
        Ok("/bin/x".into()),
        Some(dir.path()),
    );
    assert!(matches!(outcome, Outcome::TooSoon), "{outcome:?}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no file written"
    );
    let message = outcome.farewell("Destroyed", Some("/m/cube.pie")).unwrap();
    assert!(message.contains("does not reopen again"), "{message}");
    assert!(
        message.ends_with("Open /m/cube.pie again to carry on."),
        "{message}"
    );
}

#[test]
fn a_relaunch_that_cannot_start_leaves_no_resume_file_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = changed_state();
    let now = SystemTime::now();
    let missing = dir.path().join("no-such-vitrine");
    let outcome = after_loss(&mut state, "lost", None, now, Ok(missing), Some(dir.path()));
    let Outcome::Failed(why) = &outcome else {
        panic!("{outcome:?}")
    };
    assert!(why.contains("no-such-vitrine"), "{why}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let message = outcome.farewell("x", None).unwrap();
    assert!(message.contains("could not reopen itself"), "{message}");
    assert!(message.contains("no-such-vitrine"), "{message}");

    let no_exe = after_loss(
        &mut state,
        "lost",
        None,
        now,
        Err(std::io::Error::other("gone")),
        Some(dir.path()),
    );
    assert!(matches!(no_exe, Outcome::Failed(_)));
    let no_dir = after_loss(&mut state, "lost", None, now, Ok("/bin/x".into()), None);
    assert!(matches!(no_dir, Outcome::Failed(_)));
}

#[test]
fn a_resumed_start_says_what_it_reopened() {
    let old = changed_state();
    let saved = Resume::capture(&old, "lost", SystemTime::now());
    let mut new = opened(&fixture("interpolate_both.pie"));
    let guard = Start::Resumed(Box::new(saved.clone())).apply(&mut new);
    assert_eq!(guard, Some(saved.lost_at()));
    let toast = &new.services.toasts.items.last().unwrap().text;
    assert_eq!(
        toast,
        "The GPU device was lost; Vitrine reopened interpolate_both.pie on a new device"
    );
    assert_eq!(Start::Fresh.apply(&mut new), None);
}
