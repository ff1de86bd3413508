//! Drawing the Assemble panel. Reads [`AppState`], returns commands; changes nothing.

use super::AssembleCommand;
use crate::commands::{AppCommand, DocumentCommand};
use crate::panels::sections::Sections;
use crate::state::AppState;
use crate::wz::design::Parts;
use crate::wz::stats::{Entry, Stats, Table};
use crate::wz::{Design, TurretPose};

/// Which way of choosing a design the panel shows (kept in egui memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Tab {
    #[default]
    Template,
    Build,
    Structure,
}

fn cmd(c: AssembleCommand) -> AppCommand {
    AppCommand::Assemble(c)
}

/// The "Assemble" section, once the data roots (Settings ▸ Data roots) hold Warzone
/// 2100 stats.
pub fn sections_ui(ui: &mut egui::Ui, s: &mut Sections<'_>, state: &AppState) {
    if let Some(stats) = &state.panels.assemble.stats {
        s.show(ui, "assemble", "Assemble", true, |ui| {
            for w in state.panels.assemble.stats_warnings.iter().take(20) {
                ui.colored_label(egui::Color32::from_rgb(230, 170, 60), w);
            }
            assemble_ui(ui, state, stats)
        });
    }
}

fn assemble_ui(ui: &mut egui::Ui, state: &AppState, stats: &Stats) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let tab_id = egui::Id::unique("wz-tab");
    let mut tab: Tab = ui.data(|d| d.get_temp(tab_id)).unwrap_or_default();
    ui.horizontal(|ui| {
        ui.selectable_value(&mut tab, Tab::Template, "Template");
        ui.selectable_value(&mut tab, Tab::Build, "Build");
        ui.selectable_value(&mut tab, Tab::Structure, "Structure");
    });
    ui.data_mut(|d| d.insert_temp(tab_id, tab));
    if let Some(c) = show_on_droid_ui(ui, state, stats) {
        out.push(c);
    }
    match tab {
        Tab::Template => {
            if let Some(id) = search_list(ui, "wz-templates", "Search templates", &stats.templates)
            {
                out.push(cmd(AssembleCommand::Show(Design::Template { id })));
            }
        }
        Tab::Structure => {
            if let Some(id) =
                search_list(ui, "wz-structures", "Search structures", &stats.structures)
            {
                out.push(cmd(AssembleCommand::Show(Design::Structure { id })));
            }
        }
        Tab::Build => {
            if let Some(p) = build_ui(ui, state, stats) {
                out.push(cmd(AssembleCommand::Show(Design::Parts(p))));
            }
        }
    }
    ui.separator();
    out.extend(pose_ui(ui, state));
    out.extend(parts_ui(ui, state));
    out
}

/// "Show on a droid" for an open part file the stats know.
fn show_on_droid_ui(ui: &mut egui::Ui, state: &AppState, stats: &Stats) -> Option<AppCommand> {
    let doc = state.document.open.as_ref()?;
    if super::design_of(&doc.path).is_some() {
        return None;
    }
    let name = doc.file_name();
    let (kind, parts) = Parts::around(stats, &name)?;
    let r = ui
        .button(format!("Show {name} on a droid"))
        .on_hover_text(format!("The stats know it as a {kind:?} part"));
    r.clicked()
        .then(|| cmd(AssembleCommand::Show(Design::Parts(parts))))
}

/// A search box and the matching entries (by name or id); the clicked entry's id.
fn search_list<T: Entry>(
    ui: &mut egui::Ui,
    salt: &str,
    hint: &str,
    table: &Table<T>,
) -> Option<String> {
    let id = egui::Id::unique(("wz-search", salt));
    let mut query: String = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    ui.add(
        egui::TextEdit::singleline(&mut query)
            .hint_text(hint)
            .desired_width(f32::INFINITY),
    );
    ui.data_mut(|d| d.insert_temp(id, query.clone()));
    let q = query.to_lowercase();
    let mut picked = None;
    egui::ScrollArea::vertical()
        .id_salt(salt)
        .max_height(220.0)
        .show(ui, |ui| {
            for e in table.entries.iter().filter(|e| {
                q.is_empty()
                    || e.name().to_lowercase().contains(&q)
                    || e.id().to_lowercase().contains(&q)
            }) {
                let label = display_name(e);
                if ui
                    .selectable_label(false, label)
                    .on_hover_text(e.id())
                    .clicked()
                {
                    picked = Some(e.id().to_string());
                }
            }
        });
    picked
}

/// `Heavy Machinegun Viper Wheels` (the game's `*…*` internal names shown as their id).
fn display_name<T: Entry>(e: &T) -> String {
    let n = e.name().trim();
    if n.is_empty() || (n.starts_with('*') && n.ends_with('*')) {
        e.id().to_string()
    } else {
        n.to_string()
    }
}

/// A combo box with a search field: the chosen id (`""` = none when `none` is offered).
fn picker<T: Entry>(
    ui: &mut egui::Ui,
    label: &str,
    current: &str,
    entries: &[&T],
    none: bool,
) -> Option<String> {
    let shown = entries.iter().find(|e| e.id() == current).map_or_else(
        || {
            if current.is_empty() {
                "(none)".into()
            } else {
                current.to_string()
            }
        },
        |e| display_name(*e),
    );
    // Named entries first, alphabetically; the game's internal `*…*` ones after.
    let mut entries = entries.to_vec();
    entries.sort_by_cached_key(|e| {
        let n = e.name().trim();
        let internal = n.is_empty() || (n.starts_with('*') && n.ends_with('*'));
        (internal, display_name(*e).to_lowercase())
    });
    let mut picked = None;
    // One row of the caller's two-column grid: label, then the list.
    ui.label(label);
    {
        egui::ComboBox::from_id_salt(("wz-pick", label))
            .selected_text(shown)
            .width(200.0)
            .height(320.0)
            .show_ui(ui, |ui| {
                let id = egui::Id::unique(("wz-pick-search", label));
                let mut q: String = ui.data(|d| d.get_temp(id)).unwrap_or_default();
                let r = ui.add(egui::TextEdit::singleline(&mut q).hint_text("Search"));
                // Typing goes to the search field, not to the view's shortcut keys.
                if ui.memory(|m| m.focused().is_none()) {
                    r.request_focus();
                }
                ui.data_mut(|d| d.insert_temp(id, q.clone()));
                let q = q.to_lowercase();
                if none && ui.selectable_label(current.is_empty(), "(none)").clicked() {
                    picked = Some(String::new());
                }
                for e in entries.iter().filter(|e| {
                    q.is_empty()
                        || e.name().to_lowercase().contains(&q)
                        || e.id().to_lowercase().contains(&q)
                }) {
                    if ui
                        .selectable_label(e.id() == current, display_name(*e))
                        .on_hover_text(e.id())
                        .clicked()
                    {
                        picked = Some(e.id().to_string());
                    }
                }
            });
    }
    ui.end_row();
    picked
}

/// Body, propulsion, then weapons (one per slot) or one system turret, in a grid.
fn build_ui(ui: &mut egui::Ui, state: &AppState, stats: &Stats) -> Option<Parts> {
    let fresh = !matches!(&state.panels.assemble.shown.design, Some(Design::Parts(_)));
    let changed = egui::Grid::new("wz-build")
        .num_columns(2)
        .show(ui, |ui| build_rows(ui, state, stats))
        .inner;
    match changed {
        Some(p) => Some(p),
        None if fresh && ui.button("Assemble").clicked() => Some(current_parts(state, stats)),
        None => None,
    }
}

/// The design the Build tab edits: the one shown if it was built part by part, else a
/// Cobra (the first body without one).
fn current_parts(state: &AppState, stats: &Stats) -> Parts {
    match &state.panels.assemble.shown.design {
        Some(Design::Parts(p)) => p.clone(),
        _ => Parts {
            body: stats
                .bodies
                .get("Body5REC")
                .or_else(|| stats.bodies.entries.first())
                .map(|b| b.id.clone())
                .unwrap_or_default(),
            ..Parts::default()
        },
    }
}

/// The grid rows of [`build_ui`]; the changed design, if the user changed it.
fn build_rows(ui: &mut egui::Ui, state: &AppState, stats: &Stats) -> Option<Parts> {
    let current = current_parts(state, stats);
    let mut p = current.clone();
    let bodies: Vec<_> = stats
        .bodies
        .entries
        .iter()
        .filter(|b| b.model.is_some())
        .collect();
    if let Some(b) = picker(ui, "Body", &p.body, &bodies, false) {
        p.body = b;
    }
    let body = stats.bodies.get(&p.body);
    // Only propulsions this body has models for are drawn on it.
    let props: Vec<_> = stats
        .propulsion
        .entries
        .iter()
        .filter(|x| body.is_some_and(|b| b.propulsion_extra_models.contains_key(&x.id)))
        .collect();
    if let Some(x) = picker(ui, "Propulsion", &p.propulsion, &props, true) {
        p.propulsion = x;
    }
    let slots = body
        .and_then(|b| b.weapon_slots)
        .unwrap_or(1.0)
        .clamp(1.0, 3.0) as usize;
    let weapons: Vec<_> = stats
        .weapons
        .entries
        .iter()
        .filter(|w| w.model.is_some() || w.mount_model.is_some())
        .collect();
    for i in 0..slots {
        let cur = p.weapons.get(i).cloned().unwrap_or_default();
        if let Some(w) = picker(ui, &format!("Weapon {}", i + 1), &cur, &weapons, true) {
            p.weapons.resize(slots.max(p.weapons.len()), String::new());
            p.weapons[i] = w;
            if !p.weapons[i].is_empty() {
                clear_system(&mut p);
            }
        }
    }
    p.weapons.retain(|w| !w.is_empty());
    // One system turret instead of weapons.
    let turret_kinds: [(&str, &SystemTable, PartsField); 3] = [
        ("Sensor", &stats.sensors, |p| &mut p.sensor),
        ("Construct", &stats.construction, |p| &mut p.construct),
        ("ECM", &stats.ecm, |p| &mut p.ecm),
    ];
    for (label, table, field) in turret_kinds {
        let list: Vec<_> = table
            .entries
            .iter()
            .filter(|t| t.sensor_model.is_some() && t.is_turret())
            .collect();
        let cur = field(&mut p).clone().unwrap_or_default();
        if let Some(x) = picker(ui, label, &cur, &list, true) {
            clear_system(&mut p);
            p.weapons.clear();
            *field(&mut p) = Some(x).filter(|x| !x.is_empty());
        }
    }
    let repairs: Vec<_> = stats
        .repair
        .entries
        .iter()
        .filter(|r| r.model.is_some())
        .collect();
    let cur = p.repair.clone().unwrap_or_default();
    if let Some(x) = picker(ui, "Repair", &cur, &repairs, true) {
        clear_system(&mut p);
        p.weapons.clear();
        p.repair = Some(x).filter(|x| !x.is_empty());
    }
    let brains: Vec<_> = stats
        .brains
        .entries
        .iter()
        .filter(|b| !crate::wz::stats::is_null_id(&b.id))
        .collect();
    let cur = p.brain.clone().unwrap_or_default();
    if let Some(x) = picker(ui, "Commander", &cur, &brains, true) {
        clear_system(&mut p);
        p.weapons.clear();
        p.brain = Some(x).filter(|x| !x.is_empty());
    }
    (p != current).then_some(p)
}

/// A system turret table and the field of [`Parts`] it fills.
type SystemTable = Table<crate::wz::stats::SystemTurret>;
type PartsField = fn(&mut Parts) -> &mut Option<String>;

fn clear_system(p: &mut Parts) {
    p.sensor = None;
    p.construct = None;
    p.repair = None;
    p.ecm = None;
    p.brain = None;
}

/// Turret yaw and pitch (within the weapon's elevation limits), moving / still.
fn pose_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let old: TurretPose = state.services.settings.assembly_pose;
    let mut pose = old;
    ui.add(egui::Slider::new(&mut pose.yaw_deg, -180.0..=180.0).text("Turret yaw °"));
    let (lo, hi) = state
        .panels
        .assemble
        .shown
        .elevation
        .unwrap_or((-90.0, 90.0));
    let (lo, hi) = (lo.min(hi), hi.max(lo));
    ui.add_enabled(
        state.panels.assemble.shown.elevation.is_some(),
        egui::Slider::new(&mut pose.pitch_deg, lo..=hi).text("Pitch °"),
    )
    .on_hover_text(format!(
        "The weapon's minElevation..maxElevation: {lo}..{hi}"
    ));
    ui.checkbox(&mut pose.moving, "Moving").on_hover_text(
        "Show the moving models (VTOL jets, a cyborg running) instead of the still ones",
    );
    if pose != old {
        out.push(cmd(AssembleCommand::SetPose(pose)));
    }
    out
}

/// The parts of the assembly on screen, each with "Open part".
fn parts_ui(ui: &mut egui::Ui, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let shown = &state.panels.assemble.shown;
    let on_screen = state
        .document
        .open
        .as_ref()
        .and_then(|d| super::design_of(&d.path))
        .is_some_and(|d| Some(&d) == shown.design.as_ref());
    if !on_screen {
        return out;
    }
    ui.strong(&shown.title);
    egui::Grid::new("wz-parts").striped(true).show(ui, |ui| {
        for p in &shown.parts {
            ui.label(&p.role);
            match (&p.file, &p.error) {
                (Some(f), _) => {
                    ui.label(f.file_name()).on_hover_text(f.to_string());
                    if ui.small_button("Open part").clicked() {
                        out.push(AppCommand::Document(DocumentCommand::Open(f.clone())));
                    }
                }
                (None, e) => {
                    ui.colored_label(egui::Color32::from_rgb(230, 90, 80), &p.model_name)
                        .on_hover_text(e.clone().unwrap_or_default());
                    ui.label("");
                }
            }
            ui.end_row();
        }
    });
    for m in &shown.messages {
        ui.add(egui::Label::new(egui::RichText::new(m).weak()).wrap());
    }
    out
}
