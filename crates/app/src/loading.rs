//! Opening in the background: loading a model file (and running its checks), assembling
//! a Warzone 2100 design, and listing a folder or archive for the gallery run as
//! [`super::jobs`] on the lanes of [`crate::work::Work`], never on the UI thread. While
//! one runs the window keeps drawing the document it has, with a progress line and
//! Cancel ([`progress_ui`]); a second open cancels the first. When the result arrives,
//! [`crate::opening::finish`] makes it the document (or shows the error, keeping the
//! old one). This module starts jobs on the services it is given
//! ([`crate::services::Services`]) and knows no other state.

use super::commands::{AppCommand, DocumentCommand};
pub use super::document::Purpose;
use super::document::{Document, load_map, load_model};
pub use super::jobs::JobKind;
use super::page_detail::{DecodedPage, Step};
use super::services::Services;
use crate::check::{CheckOptions, Checker, Element, Finding};
use crate::files::{FileRef, Files};
use crate::formats::LoadOptions;
use crate::map::scene::MapDetails;
use crate::work::{Assembled, Listing, LoadedFile, Outcome, StatsRead, Work};
use crate::wz::{Assembly, Design, PartFinder, Stats, TurretPose};
use std::sync::{Arc, Mutex};

/// The `vitrine check` findings on `path` (read from `files`) over the viewer's data roots.
pub fn check_file(files: &Files, path: &FileRef, options: &LoadOptions) -> Vec<Finding> {
    checker(files, options).check_file(path).findings
}

/// The checker the viewer runs: over its data roots, no rule allowed.
fn checker(files: &Files, options: &LoadOptions) -> Checker {
    Checker::new(
        files,
        CheckOptions {
            data_roots: options.data_roots.clone(),
            allow: Vec::new(),
        },
    )
}

/// The `vitrine check` findings on the files of an assembly's parts (a design line is no
/// file to check), each file once, by one checker (the parts share its page and folder
/// look-ups). A finding names its part ("weapon 1 gnmcan.pie: …") and selects the part's
/// group: the part's own mesh and polygon numbers mean nothing in the composed model.
pub fn part_findings(files: &Files, assembly: &Assembly, options: &LoadOptions) -> Vec<Finding> {
    let mut checker = checker(files, options);
    let mut seen: Vec<&FileRef> = Vec::new();
    let mut out = Vec::new();
    for part in &assembly.parts {
        let Some(file) = part.file.as_ref().filter(|f| !seen.contains(f)) else {
            continue;
        };
        seen.push(file);
        for mut f in checker.check_file(file).findings {
            f.message = format!("{} {}: {}", part.role, file.file_name(), f.message);
            if f.element != Element::File {
                f.element = part
                    .node
                    .map_or(Element::File, |node| Element::Node { node });
            }
            out.push(f);
        }
    }
    out
}

/// The findings of `vitrine check MAP` on the level whose scene is `scene` (made with
/// them by [`crate::document::load_map`]), each finding on an object made to select the
/// object's node in the scene: the object itself where the game keeps it, else (a stacked
/// wall, a module merged into its building, oil under a derrick) the object standing at
/// its place; one with neither keeps its [`Element::Object`] and selects nothing.
pub fn map_findings(mut findings: Vec<Finding>, scene: &MapDetails) -> Vec<Finding> {
    for f in &mut findings {
        let Element::Object { object } = f.element else {
            continue;
        };
        if let Some(i) = scene.object_for_index(object) {
            f.element = Element::Node {
                node: scene.objects[i].node,
            };
        }
    }
    findings
}

/// Decodes every texture page `model` uses (a map's ground textures and tile images,
/// its objects' pages; a model's pages), each with its mip chain, in the job and across
/// the cores ([`crate::render::pages::read_and_decode_pages`]): the renderer is handed
/// them ([`crate::page_detail::DecodedPages`]) and only uploads them on the UI thread (a
/// map's from their smaller levels, [`crate::page_detail::first_side`]). On a
/// front-end that fetches bytes as they are read (the page's remote archives,
/// [`crate::jobs::Refetch`]) the reads here have them fetched before the document shows.
fn decode_textures(files: &Files, model: &crate::model::Model, is_map: bool) -> Vec<DecodedPage> {
    let pages = crate::render::batch::texture_files(model);
    let side = crate::page_detail::first_side(is_map);
    crate::render::pages::read_and_decode_pages(files, pages, side).unwrap_or_default()
}

/// Whether `path` is a Warzone 2100 map's `game.map` or a script-generated map's
/// `game.js` (what [`crate::formats::load`] opens as the map's scene).
fn is_map_file(path: &FileRef) -> bool {
    crate::map::is_map_file_name(&path.file_name())
}

/// Starts loading `path` for `purpose` (cancelling the document job running).
pub fn load(services: &mut Services, path: FileRef, purpose: Purpose) {
    // A map holds no models or tiles: with no data roots set, they come from the
    // Warzone 2100 installation found on this machine (as `vitrine render MAP` does).
    let options = services.load_options_for(&path);
    let verb = match purpose {
        Purpose::Open | Purpose::Tile(_) => "Opening",
        Purpose::Reload | Purpose::LiveReload => "Reloading",
    };
    let what = format!("{verb} {}", path.file_name());
    let files = services.files.clone();
    // What a run loaded in full, kept for the next run when only its pages asked for
    // bytes that had not arrived (the page's remote archives: a map's pages come in two
    // rounds after its scene, which is then not built again for each).
    let mut loaded: Option<(crate::model::Model, Vec<Finding>)> = None;
    // What a map's run read whole before it stopped for bytes (the map, its stats, the
    // placement): the next run starts from it.
    let mut resume = crate::check::map_check::Resume::default();
    services.work.document.start_reading(what, move |cancel| {
        let path = path.clone();
        // A map is read and placed once for its scene and its `vitrine check MAP`
        // findings (its scene being no model file to check).
        let is_map = is_map_file(&path);
        let kept = loaded.take();
        let was_kept = kept.is_some();
        let result = if let Some(done) = kept {
            Ok(done)
        } else if is_map {
            load_map(&files, &path, &options, &mut resume).map(|(model, findings)| {
                let findings = match &model.details {
                    crate::model::Details::Map(scene) => map_findings(findings, scene),
                    _ => findings,
                };
                (model, findings)
            })
        } else {
            load_model(&files, &path, &options).map(|model| {
                // Not wanted any more: skip the second read the checks make.
                let findings = if cancel.is_set() {
                    Vec::new()
                } else {
                    check_file(&files, &path, &options)
                };
                (model, findings)
            })
        };
        let complete = was_kept || !files.wanting();
        let pages = match &result {
            Ok((model, _)) if !cancel.is_set() => decode_textures(&files, model, is_map),
            _ => Vec::new(),
        };
        if complete
            && files.wanting()
            && let Ok(done) = &result
        {
            loaded = Some(done.clone());
        }
        Outcome::File(Box::new(LoadedFile {
            path,
            purpose,
            result,
            pages,
        }))
    });
}

/// Called with each frame's report that the view drew document `generation`: the frame
/// after the first one drawn starts the job decoding the whole pages of those the open
/// document holds in part ([`crate::page_detail`]); returns whether a frame is to follow
/// to do that.
pub fn whole_pages(services: &mut Services, doc: Option<&mut Document>, generation: u64) -> bool {
    let Some(doc) = doc.filter(|d| d.generation == generation) else {
        return false;
    };
    let busy = services.work.document.running().is_some();
    let pages = match doc.page_detail.drawn(busy) {
        Step::Nothing => return false,
        Step::Repaint => return true,
        Step::Start(pages) => pages,
    };
    let files = services.files.clone();
    let what = format!("Loading the full-size textures of {}", doc.file_name());
    services.work.document.start_reading(what, move |_| {
        let whole = crate::render::pages::read_and_decode_pages(
            &files,
            pages.clone(),
            crate::render::pages::FULL,
        );
        Outcome::WholePages(generation, whole.unwrap_or_default())
    });
    false
}

/// Starts reading the Warzone 2100 stats of the data roots `roots` (read as `refs`).
pub fn read_stats(services: &mut Services, roots: Vec<std::path::PathBuf>, refs: Vec<FileRef>) {
    let files = services.files.clone();
    services
        .work
        .stats
        .start_reading("Reading Warzone 2100 stats".into(), move |_| {
            let (stats, warnings) = Stats::load(&files, &refs);
            StatsRead {
                roots: roots.clone(),
                stats: stats.is_present().then(|| Arc::new(stats)),
                warnings: warnings.iter().map(|w| w.to_string()).collect(),
            }
        });
}

/// Starts assembling `design` with `pose` from `stats` (or, not read yet, from the stats
/// of these data roots, read in the job), the parts found by `finder`.
pub fn assemble(
    services: &mut Services,
    stats: Result<Arc<Stats>, Vec<FileRef>>,
    finder: Arc<Mutex<PartFinder>>,
    design: Design,
    pose: TurretPose,
    remember: bool,
) {
    let options = services.load_options();
    let what = format!("Assembling {}", design.to_line());
    let files = services.files.clone();
    services.work.document.start_reading(what, move |cancel| {
        let stats = stats.clone().map_or_else(
            |roots| {
                let (stats, _) = Stats::load(&files, &roots);
                stats.is_present().then(|| Arc::new(stats))
            },
            Some,
        );
        let design = match &stats {
            Some(stats) => crate::panels::assemble::state::fill_propulsion(stats, &design),
            None => design.clone(),
        };
        let result = match stats {
            None => Err(
                "Assembling needs Warzone 2100 data roots with stats (Settings ▸ Data roots: \
                 data/mp or mp.wz, then data/base or base.wz)"
                    .to_string(),
            ),
            // A slider drag starts one job per frame: only the last one assembles.
            Some(_) if cancel.is_set() => Err("cancelled".into()),
            Some(stats) => {
                let mut finder = finder.lock().unwrap_or_else(|e| e.into_inner());
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    crate::wz::assemble(&stats, &mut finder, &design, pose)
                }))
                .unwrap_or_else(|_| Err("internal error: assembling crashed".into()))
            }
        };
        let result = result.map(|a| {
            let findings = part_findings(&files, &a, &options);
            (a, findings)
        });
        Outcome::Assembly(Box::new(Assembled {
            design,
            remember,
            result,
        }))
    });
}

/// Starts listing a folder or archive (`source`) or dropped `files` for the gallery.
pub fn list(services: &mut Services, source: Option<FileRef>, files: Vec<FileRef>) {
    let what = match &source {
        Some(s) => format!("Listing {}", s.file_name()),
        None => format!("Listing {} dropped files", files.len()),
    };
    let host = services.host.clone();
    services.work.gallery.start_reading(what, move |_| {
        let inputs = source.clone().map_or_else(|| files.clone(), |s| vec![s]);
        let mut walk = host.walk(&inputs, &crate::gallery::maps::is_listed_name);
        crate::gallery::maps::add_packages(&host.files(), &inputs, &mut walk);
        let maps = crate::gallery::maps::level_names(&host.files(), &mut walk);
        Listing {
            source: source.clone(),
            files: files.clone(),
            walk,
            maps,
            relist: None,
        }
    });
}

/// Starts listing the open gallery's folder or archive `source` again (models were
/// added or removed on disk); the tiles of `redo` are drawn again when it arrives.
pub fn relist(services: &mut Services, source: FileRef, redo: std::collections::HashSet<FileRef>) {
    let what = format!("Listing {} again", source.file_name());
    let host = services.host.clone();
    services.work.gallery.start(what, move |_| {
        let mut walk = host.walk(
            std::slice::from_ref(&source),
            &crate::gallery::maps::is_listed_name,
        );
        crate::gallery::maps::add_packages(&host.files(), std::slice::from_ref(&source), &mut walk);
        let maps = crate::gallery::maps::level_names(&host.files(), &mut walk);
        Listing {
            source: Some(source),
            files: Vec::new(),
            walk,
            maps,
            relist: Some(redo),
        }
    });
}

/// How often the window redraws while a job runs, for its progress line's elapsed time
/// (a finished job wakes the window itself).
pub const PROGRESS_FRAME: std::time::Duration = std::time::Duration::from_millis(500);

/// The progress line of the running jobs: what, for how long, and Cancel. Returns the
/// commands (Cancel clicked).
pub fn progress_ui(ui: &mut egui::Ui, work: &Work) -> Vec<AppCommand> {
    let mut out = Vec::new();
    for (lane, running) in [
        (JobKind::Document, work.document.running()),
        (JobKind::Gallery, work.gallery.running()),
        (JobKind::Stats, work.stats.running()),
        (JobKind::Event, work.event.running()),
    ] {
        let Some(r) = running else { continue };
        ui.horizontal(|ui| {
            // No spinner: it asks for frames without end, and on a software renderer
            // (Mesa's lavapipe, SwiftShader) those frames take the cores the job needs.
            // The elapsed time moves on instead, at [`PROGRESS_FRAME`]'s rate.
            ui.label(format!("{}… {:.1} s", r.what, r.elapsed().as_secs_f32()));
            if ui.button("Cancel").clicked() {
                out.push(AppCommand::Document(DocumentCommand::CancelJob(lane)));
            }
        });
    }
    out
}
