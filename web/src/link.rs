//! Views are links: the page keeps what it shows in its address's fragment
//! ([`vitrine_app::link`]: model or design, team, clip, time, camera, `embed`), written with
//! `history.replaceState` a few times a second at most while the view changes (no
//! history entries), and read at start and on `hashchange`. A field that makes no sense
//! is left out with a toast naming it; the others apply once their model is open.
//! A `design` is assembled from the data roots (the archive of the page's `?url=` is
//! one): asked for before their stats are read, the assembling job reads them itself.
//! `embed=1` (in the fragment or the query) shows only the view and the timeline.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::link::{ViewLink, design_path, model_path, parse, resolve_model, shows};
use vitrine_app::panels::assemble::{AssembleCommand, design_of};
use vitrine_app::state::AppState;
use vitrine_core::files::{FileRef, is_archive_path};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_futures::JsFuture;
use web_time::Instant;

/// Least time between two writes of the fragment.
const WRITE_EVERY: Duration = Duration::from_millis(300);

/// A link read, waiting for its model to open.
struct Pending {
    link: ViewLink,
    /// The file it applies to; `None` until the page's `?url=` is fetched.
    target: Option<FileRef>,
}

/// The page's link: the one being applied, the fragment last written.
pub struct Links {
    pending: Option<Pending>,
    written: String,
    written_at: Option<Instant>,
    /// `embed=1` in the query (kept whatever the fragment says).
    query_embed: bool,
    /// The fields of the link last read that were ignored (for the page's status).
    pub ignored: Vec<String>,
    /// Copy link's results, for a toast.
    copied: Rc<RefCell<Vec<Result<String, String>>>>,
}

fn location() -> Option<web_sys::Location> {
    web_sys::window().map(|w| w.location())
}

impl Links {
    /// Reads the page's fragment at start: the toast for bad fields, the team, embed; the
    /// command that opens its model (or assembles its design) when the page has no
    /// `?url=` (whose fetch opens it, see [`Links::opening`]) and the model is not
    /// `demo`, the file opened otherwise.
    pub fn start(state: &mut AppState, has_url: bool, demo: &str) -> (Links, Option<AppCommand>) {
        let query_embed = crate::fetch::page_parameter("embed")
            .is_some_and(|e| parse(&format!("embed={e}")).0.embed);
        let mut links = Links {
            pending: None,
            written: String::new(),
            written_at: None,
            query_embed,
            ignored: Vec::new(),
            copied: Rc::default(),
        };
        let hash = location().and_then(|l| l.hash().ok()).unwrap_or_default();
        let link = links.read(state, &hash);
        let mut open = None;
        let target = match (&link.design, &link.model) {
            _ if has_url => None,
            (Some(d), _) => {
                open = Some(AppCommand::Assemble(AssembleCommand::Show(d.clone())));
                Some(design_path(d))
            }
            (None, Some(m)) if m != demo => {
                let file = FileRef::Disk(m.into());
                open = Some(AppCommand::Document(DocumentCommand::Open(file.clone())));
                Some(file)
            }
            _ => Some(FileRef::Disk(demo.into())),
        };
        links.pending = Some(Pending { link, target });
        (links, open)
    }

    /// Parses `hash`, says which fields were left out, shows its team and embed now.
    fn read(&mut self, state: &mut AppState, hash: &str) -> ViewLink {
        let (link, bad) = parse(hash);
        self.ignored = bad.clone();
        if !bad.is_empty() {
            state
                .services
                .toasts
                .error(format!("Ignored in the link: {}", bad.join("; ")));
        }
        state.view.embedded = link.embed || self.query_embed;
        if let Some(team) = link.team {
            state.services.settings.team = team;
        }
        link
    }

    /// Whether the link read at start names a model or a design for the page's `?url=`
    /// to open (rather than the archive's gallery).
    pub fn names_model(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| {
            p.target.is_none() && (p.link.model.is_some() || p.link.design.is_some())
        })
    }

    /// The command that opens what the page's `?url=` fetched: with the link's model,
    /// that entry of a fetched archive rather than the archive's gallery; with its
    /// design, the assembly (the fetched archive is a data root by then).
    pub fn opening(&mut self, cmd: AppCommand) -> AppCommand {
        let Some(p) = self.pending.as_mut().filter(|p| p.target.is_none()) else {
            return cmd;
        };
        let AppCommand::Document(DocumentCommand::Open(FileRef::Disk(file))) = &cmd else {
            self.pending = None;
            return cmd;
        };
        let cmd = match (&p.link.design, &p.link.model) {
            (Some(d), _) => AppCommand::Assemble(AssembleCommand::Show(d.clone())),
            (None, Some(m)) if is_archive_path(file) => {
                AppCommand::Document(DocumentCommand::Open(FileRef::Entry {
                    archive: file.clone(),
                    path: m.clone(),
                }))
            }
            _ => cmd,
        };
        match &cmd {
            // The archive's gallery: no model to show the view on.
            AppCommand::Document(DocumentCommand::Open(FileRef::Disk(f))) if is_archive_path(f) => {
                self.pending = None
            }
            AppCommand::Document(DocumentCommand::Open(f)) => p.target = Some(f.clone()),
            AppCommand::Assemble(AssembleCommand::Show(d)) => p.target = Some(design_path(d)),
            _ => {}
        }
        cmd
    }

    /// The fragment changed (the user edited the address, or a link to this page was
    /// followed): the command that opens its model (or assembles its design) when it
    /// names another one.
    pub fn hash_changed(&mut self, state: &mut AppState, hash: &str) -> Option<AppCommand> {
        if hash.trim_start_matches('#') == self.written {
            return None;
        }
        let link = self.read(state, hash);
        let current = state.document.open.as_ref().map(|d| &d.path);
        // Beside an assembly, a model is looked for in the first archive of the data
        // roots (the page's `?url=`).
        let beside = current
            .filter(|c| design_of(c).is_none())
            .cloned()
            .or_else(|| {
                let archive = state
                    .services
                    .settings
                    .data_roots
                    .iter()
                    .find(|r| is_archive_path(r))?;
                Some(FileRef::Entry {
                    archive: archive.clone(),
                    path: String::new(),
                })
            });
        let (target, open) = match (&link.design, &link.model) {
            (Some(d), _) => {
                let file = design_path(d);
                match current {
                    Some(c) if shows(&file, c) => (current.cloned(), None),
                    _ => (
                        Some(file),
                        Some(AppCommand::Assemble(AssembleCommand::Show(d.clone()))),
                    ),
                }
            }
            (None, Some(m)) if current.and_then(model_path).as_ref() != Some(m) => {
                let file = resolve_model(m, beside.as_ref());
                (
                    Some(file.clone()),
                    Some(AppCommand::Document(DocumentCommand::Open(file))),
                )
            }
            _ => (current.cloned(), None),
        };
        if target.is_some() {
            self.pending = Some(Pending { link, target });
        }
        open
    }

    /// Once a frame: applies the link read once its model is open (drops it when that
    /// failed: the error is shown), then writes the view's fragment when it changed and
    /// the last write is old enough.
    pub fn sync(&mut self, state: &mut AppState, ctx: &eframe::egui::Context) {
        for result in self.copied.borrow_mut().drain(..) {
            match result {
                Ok(url) => state.services.toasts.info(format!("Link copied: {url}")),
                Err(e) => state
                    .services
                    .toasts
                    .error(format!("Could not copy the link: {e}")),
            }
        }
        if let Some(p) = &self.pending {
            let Some(target) = &p.target else {
                // The `?url=` fetch failed: nothing opens.
                if state.document.load_error.is_some() {
                    self.pending = None;
                }
                return;
            };
            if !state.services.work.idle() {
                return;
            }
            if state
                .document
                .open
                .as_ref()
                .is_some_and(|d| shows(target, &d.path))
            {
                let notes = p.link.apply_view(state);
                self.ignored.extend(notes.iter().cloned());
                if !notes.is_empty() {
                    state
                        .services
                        .toasts
                        .error(format!("Ignored in the link: {}", notes.join("; ")));
                }
            }
            // Shown, or failed (its error is up), or replaced by another open.
            self.pending = None;
            ctx.request_repaint();
        }
        if state.document.open.is_none() || state.panels.gallery.as_ref().is_some_and(|g| g.shown) {
            return;
        }
        let fragment = ViewLink::of_state(state, state.view.embedded).to_fragment();
        if fragment == self.written {
            return;
        }
        if let Some(wait) = self
            .written_at
            .map(|at| WRITE_EVERY.saturating_sub(at.elapsed()))
            .filter(|w| !w.is_zero())
        {
            ctx.request_repaint_after(wait);
            return;
        }
        let written = web_sys::window()
            .and_then(|w| w.history().ok())
            .is_some_and(|h| {
                h.replace_state_with_url(
                    &wasm_bindgen::JsValue::NULL,
                    "",
                    Some(&format!("#{fragment}")),
                )
                .is_ok()
            });
        if written {
            self.written = fragment;
            self.written_at = Some(Instant::now());
        }
    }

    /// Share ▸ Copy link: the page's address with the view's fragment, to the clipboard;
    /// a toast says so (or why not) once the browser answers.
    pub fn copy(&self, state: &AppState) {
        let Some(href) = location().and_then(|l| l.href().ok()) else {
            return;
        };
        let base = href.split('#').next().unwrap_or(&href);
        let url = format!(
            "{base}#{}",
            ViewLink::of_state(state, state.view.embedded).to_fragment()
        );
        let copied = self.copied.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let result = write_clipboard(&url).await.map(|()| url);
            copied.borrow_mut().push(result);
        });
    }
}

/// `navigator.clipboard.writeText(text)`.
async fn write_clipboard(text: &str) -> Result<(), String> {
    use js_sys::{Function, Promise, Reflect};
    let navigator = web_sys::window().ok_or("no window")?.navigator();
    let clipboard = Reflect::get(&navigator, &"clipboard".into())
        .ok()
        .filter(|c| !c.is_undefined())
        .ok_or("this page has no clipboard (it needs HTTPS)")?;
    let write: Function = Reflect::get(&clipboard, &"writeText".into())
        .map_err(|e| crate::fetch::js_text(&e))?
        .dyn_into()
        .map_err(|_| "the clipboard cannot write text")?;
    let promise: Promise = write
        .call1(&clipboard, &text.into())
        .map_err(|e| crate::fetch::js_text(&e))?
        .dyn_into()
        .map_err(|_| "the clipboard gave no answer")?;
    JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| crate::fetch::js_text(&e))
}

/// Calls `changed` with the page's fragment each time it changes (`hashchange`).
pub fn listen(changed: impl Fn(String) + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let f = Closure::<dyn Fn()>::new(move || {
        changed(location().and_then(|l| l.hash().ok()).unwrap_or_default())
    });
    let _ = window.add_event_listener_with_callback("hashchange", f.as_ref().unchecked_ref());
    // The page lives as long as the listener.
    f.forget();
}
