//! A map's texture pages in the window (`vitrine_app::page_detail`): the opening job
//! decodes them from their smaller levels alone (a large PNG page, which has none, not at
//! all: what is drawn with it waits), and once the view has drawn the map the
//! whole pages follow from a job of their own, handed to the view; a model's pages are
//! whole from the start, and the job never cancels another document's load.

use crate::map_support::open_map;
use egui_kittest::Harness;
use vitrine_app::commands::{AppCommand, DocumentCommand, Effect};
use vitrine_app::dispatch::apply;
use vitrine_app::frame::{FrontEnd, ViewReport};
use vitrine_app::loading::whole_pages;
use vitrine_app::page_detail::FIRST_FRAME_SIDE;
use vitrine_app::render::pages::WAITING_BYTES;
use vitrine_app::state::AppState;
use vitrine_test_needs::vitrine_test;

const MAP: &str = "multiplay/maps/2c-startup/game.map";

/// A front-end whose view reports every frame that it drew the open document (as the
/// desktop's and the page's do once they uploaded it).
struct Drawing;

impl FrontEnd for Drawing {
    fn arrived(&mut self, _ctx: &egui::Context, _state: &mut AppState) -> Vec<AppCommand> {
        Vec::new()
    }

    fn dt(&self, _ctx: &egui::Context) -> f32 {
        0.0
    }

    fn now(&self) -> std::time::Instant {
        vitrine_test_support::app::now()
    }

    fn view(&mut self, _ui: &mut egui::Ui, _state: &AppState) -> Vec<AppCommand> {
        Vec::new()
    }

    fn perform(
        &mut self,
        _effect: Effect,
        _ctx: &egui::Context,
        _state: &mut AppState,
    ) -> Option<AppCommand> {
        None
    }

    fn view_report(&self) -> Option<ViewReport<'_>> {
        GENERATION.with(|g| {
            g.get().map(|generation| ViewReport {
                size_px: [800, 600],
                uploaded: Some((generation, &[])),
            })
        })
    }
}

thread_local! {
    /// The generation [`Drawing`] reports drawn.
    static GENERATION: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Keeps the jobs started, to run when the test says.
#[derive(Clone, Default)]
struct Held(std::sync::Arc<std::sync::Mutex<Vec<vitrine_app::jobs::Job>>>);

impl vitrine_app::jobs::JobRunner for Held {
    fn spawn(&self, _what: &str, job: vitrine_app::jobs::Job) -> Result<(), String> {
        self.0.lock().unwrap().push(job);
        Ok(())
    }
}

fn window(state: AppState) -> Harness<'static, AppState> {
    Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .with_max_steps(1)
        .build_ui_state(
            |ui, state| vitrine_app::frame::run(ui, state, &mut Drawing),
            state,
        )
}

#[vitrine_test(shared)]
fn a_maps_pages_come_small_first_and_whole_after_its_first_frame() {
    GENERATION.with(|g| g.set(None));
    let mut h = open_map(MAP, window);
    let doc = h.state().document.open.as_ref().unwrap();
    let generation = doc.generation;
    // The opening job's pages: every one within the first frame's size, and those
    // larger in their files listed to follow whole.
    let first = doc.pages.take();
    assert!(!first.is_empty());
    for (file, _, page) in &first {
        let (w, h) = page.as_ref().expect("the page decodes").dimensions();
        assert!(w.max(h) <= FIRST_FRAME_SIDE, "{file}: {w}×{h}");
    }
    let partial = doc.page_detail.partial.clone();
    let big: Vec<_> = first
        .iter()
        .filter(|(_, _, p)| p.as_ref().is_ok_and(|p| !p.is_complete()))
        .map(|(f, _, _)| f.clone())
        .collect();
    assert!(
        !partial.is_empty(),
        "the corpus' 1024² pages are held in part"
    );
    assert_eq!(partial, big);
    // Frames before the view drew it start nothing.
    h.run_steps(3);
    assert!(h.state().services.work.document.running().is_none());
    assert!(
        !h.state()
            .document
            .open
            .as_ref()
            .unwrap()
            .page_detail
            .started
    );
    // The view draws it: the frame after the first drawn starts the job (inline here),
    // and the next takes its pages in.
    GENERATION.with(|g| g.set(Some(generation)));
    h.run_steps(3);
    let doc = h.state().document.open.as_ref().unwrap();
    assert!(doc.page_detail.started);
    assert!(doc.page_detail.partial.is_empty());
    let whole = doc.page_detail.whole.take();
    let files: Vec<_> = whole.iter().map(|(f, _, _)| f.clone()).collect();
    assert_eq!(files, big, "the pages held in part, whole");
    // Held in part: a KTX2 page from its smaller levels, or a PNG page over
    // WAITING_BYTES not read at all for the first frame (the objects' and the water's).
    let waited: Vec<_> = first
        .iter()
        .filter(|(_, _, p)| p.as_ref().is_ok_and(|p| p.is_waiting()))
        .map(|(f, _, _)| f.clone())
        .collect();
    assert!(
        waited.iter().any(|f| f.file_name().starts_with("page-")),
        "the structures' PNG pages wait: {waited:?}"
    );
    let sizes = vitrine_test_support::disk();
    for (file, _, page) in &whole {
        let page = page.as_ref().expect("the page decodes whole");
        assert!(page.is_complete(), "{file}");
        if waited.contains(file) {
            let bytes = sizes.size(file).unwrap();
            assert!(bytes > WAITING_BYTES, "{file}: {bytes} bytes waited");
            assert!(!file.file_name().ends_with(".ktx2"), "{file}");
        } else {
            assert!(page.dimensions().0 > FIRST_FRAME_SIDE, "{file}");
        }
    }
    // Drawn again: nothing more to decode.
    h.run_steps(2);
    assert!(h.state().services.work.document.running().is_none());
    GENERATION.with(|g| g.set(None));
}

#[vitrine_test(shared)]
fn the_whole_pages_wait_for_a_load_running_and_a_model_has_its_pages_whole() {
    let h = open_map(MAP, window);
    let mut state = h.into_state();
    // Another document's load is running: the map's whole pages are not started, so
    // that load is not cancelled.
    let held = Held::default();
    state.services.work.set_runner(held.clone());
    let generation = state.document.open.as_ref().unwrap().generation;
    let pie = crate::common::wz2100().join("data/base/structs/blderik_anim.pie");
    let pie = state.services.files.parse(&pie);
    let _ = apply(&mut state, AppCommand::Document(DocumentCommand::Open(pie)));
    assert!(state.services.work.document.running().is_some());
    let doc = state.document.open.as_mut();
    assert!(
        whole_pages(&mut state.services, doc, generation),
        "first frame sent"
    );
    let doc = state.document.open.as_mut();
    assert!(!whole_pages(&mut state.services, doc, generation));
    assert!(!state.document.open.as_ref().unwrap().page_detail.started);
    // The model opens, its pages whole: nothing to follow.
    let jobs = std::mem::take(&mut *held.0.lock().unwrap());
    assert_eq!(jobs.len(), 1, "the model's load alone");
    jobs.into_iter().for_each(|job| job());
    vitrine_app::dispatch::poll_jobs(&mut state);
    let doc = state.document.open.as_ref().unwrap();
    assert_eq!(doc.file_name(), "blderik_anim.pie");
    let pages = doc.pages.take();
    assert!(!pages.is_empty());
    assert!(
        pages
            .iter()
            .all(|(_, _, p)| p.as_ref().is_ok_and(|p| p.is_complete()))
    );
    assert!(doc.page_detail.partial.is_empty());
}
