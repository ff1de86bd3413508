//! File ▸ Export PIE…: the open model written as a Warzone 2100 PIE 3 or 4, as
//! `vitrine convert` writes it. The dialog takes the version, the scale, the page name and
//! where to save; each change runs the writer and the `vitrine check` rules on a worker
//! ([`crate::jobs`]) and lists what they say *before* anything is written: an error
//! (the game would give the model up) blocks the button and shows the rule's message and
//! what to do, warnings are listed. Export writes on a worker — the text checked again,
//! then written through the host ([`crate::host::Output::write`]: atomically on the
//! desktop) — and a toast says where it went.
//!
//! An assembly is not offered: the game never reads one PIE for a droid or a structure
//! with its parts, it assembles the parts' own files at run time, so a modder exports the
//! part they changed (opened from the Assemble panel's list) instead.

use crate::check::{CheckOptions, Checker, Level, report};
use crate::commands::{AppCommand, Effect};
use crate::document::Document;
use crate::export::pie::{self, CheckedPie, PieOptions, PieVersion, checked::what_to_do};
use crate::export::pie_pack;
use crate::files::{FileRef, Files};
use crate::host::Host;
use crate::model::Model;
use crate::services::Services;
use crate::toasts::Toasts;
use std::path::{Path, PathBuf};

pub mod state;
mod ui;
pub use state::{Blocker, PieCommand, PieDialog, PieDone, PieSettings, Preview, Verdict};
pub use ui::window_ui;

/// What the dialog's commands work on: the dialog, the open model and the services
/// (the settings' data roots, the files, the host to write through, the dialog's job
/// lane and the toasts).
pub struct PieContext<'a> {
    /// The dialog, while open.
    pub dialog: &'a mut Option<PieDialog>,
    /// The open model, if any.
    pub document: Option<&'a Document>,
    /// The services.
    pub services: &'a mut Services,
}

fn cmd(c: PieCommand) -> AppCommand {
    AppCommand::ExportPie(c)
}

/// Why an open document cannot be exported as one PIE, if it cannot.
fn refusal(path: &FileRef) -> Option<String> {
    crate::panels::assemble::state::design_of(path).map(|_| {
        "An assembly is not exported as one PIE: the game draws a droid or a structure \
         from its parts' own files and never reads a merged model. Export the part you \
         changed instead (open it from the Assemble panel's parts list)."
            .to_string()
    })
}

/// The writer's options for `s`.
pub fn options(s: &PieSettings) -> PieOptions {
    let page = s.page.trim();
    PieOptions {
        version: s.version,
        scale: Some(s.scale),
        texture: (!page.is_empty()).then(|| page.to_string()),
        comment: Some(format!("written by Vitrine {}", env!("CARGO_PKG_VERSION"))),
    }
}

/// Writes `model` with `s` and checks the text (the pages to pack counting as present);
/// the checked text and the pages, or why not.
fn write_and_check(
    files: &Files,
    model: &Model,
    source: &FileRef,
    s: &PieSettings,
    data_roots: Vec<FileRef>,
) -> Result<(CheckedPie, pie_pack::Planned), String> {
    let page = s.page.trim();
    if page.contains(['/', '\\']) {
        return Err(format!("page {page:?}: a file name, without folders"));
    }
    let out = Path::new(s.output.trim());
    if out.as_os_str().is_empty() {
        return Err("Choose where to save".into());
    }
    let options = CheckOptions {
        data_roots,
        allow: Vec::new(),
    };
    let mut checker = Checker::new(files, options);
    let near = [source.clone(), files.parse(out)];
    let shown = out.display().to_string();
    let written = pie::write(model, &self::options(s))?;
    let planned = if s.pack {
        let dir = pie_pack::texpages_for(files, out.parent().unwrap_or(Path::new(".")));
        pie_pack::plan(files, model, &written, &dir, &Default::default())?
    } else {
        pie_pack::Planned::default()
    };
    let checked = pie::checked::check(written, &mut checker, &near, &shown, &planned.provided);
    Ok((checked, planned))
}

/// The verdict on `checked`.
fn verdict(
    checked: &CheckedPie,
    planned: &pie_pack::Planned,
    model: &Model,
    packing: bool,
) -> Verdict {
    // Packing already: what is still missing has no image in the model.
    let packable = if packing {
        Vec::new()
    } else {
        checked.packable(model)
    };
    let unfound = checked
        .missing
        .iter()
        .filter(|m| !packable.contains(m))
        .cloned()
        .collect();
    let mut warnings = checked.written.warnings.clone();
    let (copies, not_packed): (Vec<String>, Vec<String>) = planned
        .lines
        .iter()
        .cloned()
        .partition(|l| l.ends_with("left as it is"));
    warnings.extend(not_packed);
    let copies = planned
        .new
        .iter()
        .map(|(p, _)| format!("{}: copied there", p.display()))
        .chain(copies)
        .collect();
    warnings.extend(checked.below_errors(Level::Note).map(report::human_line));
    Verdict {
        levels: checked.written.levels,
        pages: pie::page_names(&checked.written.text),
        errors: checked
            .errors()
            .map(|f| Blocker {
                line: report::human_line(f),
                what_to_do: what_to_do(f).to_string(),
            })
            .collect(),
        warnings,
        copies,
        packable,
        unfound,
    }
}

/// Checks `s` on `model` (a job).
pub fn check(
    files: &Files,
    model: &Model,
    source: &FileRef,
    s: &PieSettings,
    data_roots: Vec<FileRef>,
) -> Result<Verdict, String> {
    write_and_check(files, model, source, s, data_roots)
        .map(|(c, p)| verdict(&c, &p, model, s.pack))
}

/// Checks `s` on `model` again and writes the file (and its pages) when no error stops
/// it (a job); the toast's text.
pub fn write(
    host: &dyn Host,
    model: &Model,
    source: &FileRef,
    s: &PieSettings,
    data_roots: Vec<FileRef>,
) -> Result<String, String> {
    let (checked, planned) = write_and_check(&host.files(), model, source, s, data_roots)?;
    if let Some(first) = checked.errors().next() {
        return Err(format!(
            "PIE not written, the game would not load it: {}",
            first.message
        ));
    }
    let packed = pie_pack::write(host, &planned)?.len();
    let out = PathBuf::from(s.output.trim());
    host.write(&out, checked.written.text.as_bytes())
        .map_err(|e| format!("Cannot write {}: {e}", out.display()))?;
    let warnings = checked.written.warnings.len() + checked.below_errors(Level::Warning).count();
    Ok(format!(
        "Wrote PIE {} to {} ({} levels{}{})",
        s.version.number(),
        out.display(),
        checked.written.levels,
        match packed {
            0 => String::new(),
            1 => ", 1 page copied".into(),
            n => format!(", {n} pages copied"),
        },
        match warnings {
            0 => String::new(),
            1 => ", 1 warning".into(),
            n => format!(", {n} warnings"),
        }
    ))
}

/// Starts checking the dialog's settings on a worker.
fn start_check(ctx: &mut PieContext<'_>) {
    let (Some(d), Some(doc)) = (&mut *ctx.dialog, ctx.document) else {
        return;
    };
    if d.refused.is_some() {
        return;
    }
    d.preview = Preview::Checking;
    let (model, source, s) = (doc.model.clone(), doc.path.clone(), d.settings.clone());
    let roots = ctx.services.load_options().data_roots;
    let files = ctx.services.files.clone();
    ctx.services
        .work
        .pie
        .start(format!("Checking {}", doc.stem()), move |_| {
            let verdict = check(&files, &model, &source, &s, roots);
            PieDone::Checked(s, verdict)
        });
}

/// The settings a new dialog starts with for the open document.
fn initial(doc: Option<&Document>, services: &Services) -> Option<PieDialog> {
    let doc = doc?;
    let folder = doc
        .path
        .parent()
        .and_then(|p| p.as_disk().map(Path::to_path_buf))
        .or_else(|| services.settings.last_folder.clone())
        .unwrap_or_default();
    let settings = PieSettings {
        version: PieVersion::V3,
        scale: pie::default_scale(&doc.model),
        page: String::new(),
        output: folder
            .join(default_file_name(&doc.stem(), &doc.model))
            .display()
            .to_string(),
        // A PIE's pages are the game's already; another format's come with it.
        pack: doc.model.format != crate::model::Format::Pie,
    };
    Some(PieDialog {
        settings,
        preview: Preview::Checking,
        generation: doc.generation,
        refused: refusal(&doc.path),
    })
}

/// The name the dialog proposes: the stem with `.pie`; `-converted` added for a PIE source,
/// so that the upgrade does not replace the file it was read from.
pub fn default_file_name(stem: &str, model: &Model) -> String {
    if model.format == crate::model::Format::Pie {
        format!("{stem}-converted.pie")
    } else {
        format!("{stem}.pie")
    }
}

/// Carries out a dialog command.
pub fn apply(mut ctx: PieContext<'_>, c: PieCommand) -> Option<Effect> {
    match c {
        PieCommand::Show => {
            let Some(dialog) = initial(ctx.document, ctx.services) else {
                ctx.services
                    .toasts
                    .error("Nothing to export: no model is open");
                return None;
            };
            let same = ctx
                .dialog
                .as_ref()
                .is_some_and(|d| d.generation == dialog.generation);
            if !same {
                *ctx.dialog = Some(dialog);
                start_check(&mut ctx);
            }
            None
        }
        PieCommand::Close => {
            if !matches!(
                ctx.dialog.as_ref().map(|d| &d.preview),
                Some(Preview::Writing)
            ) {
                ctx.services.work.pie.cancel();
            }
            *ctx.dialog = None;
            None
        }
        PieCommand::Set(s) => {
            if let Some(d) = &mut *ctx.dialog
                && d.settings != s
                && d.preview != Preview::Writing
            {
                d.settings = s;
                start_check(&mut ctx);
            }
            None
        }
        PieCommand::Browse => {
            let d = ctx.dialog.as_ref()?;
            Some(Effect::PickPiePath(PathBuf::from(d.settings.output.trim())))
        }
        PieCommand::SetOutput(path) => {
            let mut path = path;
            if path.extension().is_none() {
                path.set_extension("pie");
            }
            let s = ctx.dialog.as_ref().map(|d| PieSettings {
                output: path.display().to_string(),
                ..d.settings.clone()
            })?;
            apply(ctx, PieCommand::Set(s))
        }
        PieCommand::Write => {
            let (Some(d), Some(doc)) = (&mut *ctx.dialog, ctx.document) else {
                return None;
            };
            let ready = matches!(&d.preview, Preview::Done(Ok(v)) if v.errors.is_empty());
            if !ready || d.refused.is_some() {
                return None;
            }
            d.preview = Preview::Writing;
            let (model, source, s) = (doc.model.clone(), doc.path.clone(), d.settings.clone());
            let roots = ctx.services.load_options().data_roots;
            let host = ctx.services.host.clone();
            ctx.services
                .work
                .pie
                .start(format!("Writing {}", s.output), move |_| {
                    PieDone::Written(write(&*host, &model, &source, &s, roots))
                });
            None
        }
    }
}

/// Takes in a finished job: the verdict shown in `dialog`, or the write's toast.
pub fn finished(dialog: &mut Option<PieDialog>, toasts: &mut Toasts, done: PieDone) {
    match done {
        PieDone::Checked(s, verdict) => {
            if let Some(d) = dialog
                && d.settings == s
                && d.preview == Preview::Checking
            {
                d.preview = Preview::Done(verdict);
            }
        }
        PieDone::Written(Ok(text)) => {
            toasts.info(text);
            *dialog = None;
        }
        PieDone::Written(Err(e)) => {
            toasts.error(e.clone());
            if let Some(d) = dialog {
                d.preview = Preview::Done(Err(e));
            }
        }
    }
}
