//! The side panel of an open map: its facts (size, tileset, players, the objects of each
//! owner, the files with their formats and versions), the layer toggles, the object list
//! with its search, and the selected object's facts. Reads [`AppState`], returns
//! commands: a layer or an object is a node of the scene, so showing, hiding and
//! selecting are the inspection's commands.

use super::state::{MapCommand, filtered, selected_object};
use crate::commands::{AppCommand, ViewCommand};
use crate::document::{Document, DocumentCommand};
use crate::inspect::InspectCommand;
use crate::map::scene::{Counts, Layer, MapDetails, SceneObject, TerrainMode, file_label};
use crate::panels::sections::Sections;
use crate::state::AppState;

/// Height of the object list before it scrolls, points.
const LIST_HEIGHT: f32 = 240.0;

/// The panel's head for a map: the level's name, what it is, where it is.
pub fn head_ui(ui: &mut egui::Ui, doc: &Document, map: &MapDetails) {
    ui.heading(format!("{} (map)", map.name))
        .on_hover_text(doc.path.to_string());
    ui.label(format!(
        "Warzone 2100 map · {} · {} × {} tiles · {}",
        doc.file_name(),
        map.size.0,
        map.size.1,
        map.tileset
    ));
    if let Some(dir) = doc.path.parent() {
        ui.small(dir.to_string());
    }
}

/// The map's own sections, shown first: facts, layers, objects, the selection.
pub fn sections_ui(
    ui: &mut egui::Ui,
    s: &mut Sections<'_>,
    state: &AppState,
    doc: &Document,
    map: &MapDetails,
) {
    s.show(ui, "map facts", "Map", true, |ui| {
        facts_ui(ui, map);
        seed_ui(ui, state, map)
    });
    s.show(ui, "map layers", "Layers", true, |ui| {
        layers_ui(ui, state, map)
    });
    let title = format!("Objects ({})", map.objects.len());
    s.show(ui, "map objects", title, true, |ui| {
        objects_ui(ui, state, doc, map)
    });
    let selected = state
        .document
        .inspect_current()
        .and_then(|_| selected_object(map, state.document.inspect.selected));
    if let Some(o) = selected {
        s.show(ui, "map selection", "Selected object", true, |ui| {
            selection_ui(ui, o)
        });
    }
}

/// Size, tileset, players, shape, the objects of each owner and the files.
fn facts_ui(ui: &mut egui::Ui, map: &MapDetails) {
    ui.label(format!("Size: {} × {} tiles", map.size.0, map.size.1));
    ui.label(format!("Tileset: {}", map.tileset));
    match map.players {
        Some(p) => ui.label(format!("Players: {p}")),
        None => ui.weak("Players: not stated"),
    };
    ui.label(format!("Package: {}", shape_name(map.shape)));
    let mut total = Counts::default();
    for (owner, c) in map.counts() {
        ui.label(format!("{}: {}", owner.label(), counts_text(&c)));
        total.structures += c.structures;
        total.features += c.features;
        total.droids += c.droids;
    }
    ui.strong(format!("All: {}", counts_text(&total)));
    if map.start_positions.is_empty() {
        ui.weak("Start positions: none (no player has a truck)");
    } else {
        let list: Vec<String> = map
            .start_positions
            .iter()
            .map(|s| format!("{} ({}, {})", s.player, s.x, s.y))
            .collect();
        ui.label(format!("Start positions: {}", list.join(", ")))
            .on_hover_text("Where each player starts: the first truck of theirs the map places");
    }
    if !map.removed.is_empty() {
        ui.weak(format!(
            "{} more in the files, which the game removes on load",
            map.removed.len()
        ));
    }
    ui.add_space(4.0);
    ui.label("Files:");
    for f in &map.files {
        let records = if f.records == 1 { "record" } else { "records" };
        let text = format!("{} · {} {records}", file_label(f), f.records);
        if let Some(e) = &f.broken {
            ui.weak(format!("{} · broken, not read", f.name))
                .on_hover_text(e.to_string());
        } else if f.used {
            ui.monospace(text);
        } else {
            ui.weak(format!("{text} (not read by the game)"));
        }
    }
}

/// A script-generated map's seed, and a seed to run its `game.js` with again (the game
/// draws a new one each game: each seed is another map).
fn seed_ui(ui: &mut egui::Ui, state: &AppState, map: &MapDetails) -> Vec<AppCommand> {
    let Some(seed) = map.seed else {
        return Vec::new();
    };
    let mut out = Vec::new();
    ui.label(format!("Seed: {seed}")).on_hover_text(
        "game.js ran with this seed; the game draws a new one for each game \
         (its log says: \"Loaded script-generated map … with random seed: N\")",
    );
    ui.horizontal(|ui| {
        let mut next = state.panels.map.seed.unwrap_or(seed);
        let label = ui.label("Another seed:");
        let typed = ui
            .add(egui::DragValue::new(&mut next).range(0..=u32::MAX))
            .labelled_by(label.id);
        if typed.changed() {
            out.push(AppCommand::Map(MapCommand::SetSeed(next)));
        }
        if ui
            .button("Run again")
            .on_hover_text("Run game.js again with this seed")
            .clicked()
        {
            out.push(AppCommand::Document(DocumentCommand::RunMapSeed(next)));
        }
    });
    out
}

/// `12 structures, 3 features, 0 droids`.
fn counts_text(c: &Counts) -> String {
    format!(
        "{} structures, {} features, {} droids",
        c.structures, c.features, c.droids
    )
}

fn shape_name(shape: crate::map::Shape) -> &'static str {
    match shape {
        crate::map::Shape::Classic => "classic (.lev, .gam, game.map)",
        crate::map::Shape::LevelJson => "level.json",
        crate::map::Shape::Script => "script (game.js)",
        crate::map::Shape::Folder => "a folder no level names",
    }
}

/// A checkbox per layer the map has: hiding one hides its nodes in the view.
fn layers_ui(ui: &mut egui::Ui, state: &AppState, map: &MapDetails) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let inspect = &state.document.inspect;
    for layer in Layer::ALL {
        let nodes = map.layer_nodes(layer);
        if nodes.is_empty() {
            continue;
        }
        let was = nodes.iter().all(|&n| !inspect.is_hidden(n));
        let mut shown = was;
        if ui.checkbox(&mut shown, layer.name()).changed() {
            // Each node to the same state, whatever the hierarchy's eyes did to them.
            out.extend(
                nodes
                    .iter()
                    .filter(|&&n| inspect.is_hidden(n) == shown)
                    .map(|&n| AppCommand::Inspect(InspectCommand::ToggleHidden(n))),
            );
        }
    }
    out.extend(terrain_ui(ui, state.services.settings.map_terrain));
    out.extend(atmosphere_ui(ui, &state.services.settings));
    out
}

/// *Fog and sky*, *Shadows* and *Moving water and sky*: the map's environment drawn or
/// not (off by default), its objects' shadows (on by default, as in the game), its water
/// and sky moving or still (on by default); all saved.
fn atmosphere_ui(ui: &mut egui::Ui, settings: &crate::settings::Settings) -> Vec<AppCommand> {
    use crate::settings::SettingsCommand;
    let mut out = Vec::new();
    let mut fog = settings.map_fog;
    if ui
        .checkbox(&mut fog, "Fog and sky")
        .on_hover_text(
            "The distance fog and the tileset's sky as Warzone 2100 4.3 draws them: the fog \
             thickens from about 800 + 1.3 × the camera's distance to 3300 + 1.3 × it, in \
             front of the eye (the game's fog settings 4000 and 8000 in its 1024 × 768 \
             view), in the data's palette colour (#b05f08 in 4.3; without the data the tileset's colour of \
             later versions). Both show in perspective views only. Off by default: the fog \
             grows with the camera's distance, and a whole map framed is far beyond the \
             game's zoom (try the Game view, 9).",
        )
        .changed()
    {
        out.push(AppCommand::Settings(SettingsCommand::SetMapFog(fog)));
    }
    let mut shadows = settings.map_shadows;
    if ui
        .checkbox(&mut shadows, "Shadows")
        .on_hover_text(
            "The shadows of the structures, of the droids and of the features the game \
             casts them for (buildings, skyscrapers, oil drums), as Warzone 2100 4.3 draws \
             them with its setting Shadows on: each model's outline pulled along the sun \
             (x 225, y −600, z 450) and the ground inside it, and the models' own sides, \
             drawn at half their brightness. On by default, as in the game.",
        )
        .changed()
    {
        out.push(AppCommand::Settings(SettingsCommand::SetMapShadows(
            shadows,
        )));
    }
    let mut animate = settings.map_animate;
    if ui
        .checkbox(&mut animate, "Moving water and sky")
        .on_hover_text(
            "The first water page scrolls and the sky turns as in the game. Off: both stand \
             still and the window draws only when something changes.",
        )
        .changed()
    {
        out.push(AppCommand::Settings(SettingsCommand::SetMapAnimate(
            animate,
        )));
    }
    out
}

/// *Classic tiles*: the terrain drawn with the tile images only, or (off, the default)
/// the ground textures blended as the game draws them.
fn terrain_ui(ui: &mut egui::Ui, current: TerrainMode) -> Option<AppCommand> {
    let mut classic = current == TerrainMode::Classic;
    let changed = ui
        .checkbox(&mut classic, "Classic tiles")
        .on_hover_text(
            "The terrain drawn with the 128-pixel tile images only. Off (the default): the \
             tileset's ground textures blended by ground type, the decal tiles over them, as \
             Warzone 2100 4.3 draws it (data without ground textures falls back to the tiles).",
        )
        .changed();
    let mode = if classic {
        TerrainMode::Classic
    } else {
        TerrainMode::Blended
    };
    changed.then_some(AppCommand::Document(DocumentCommand::SetMapTerrain(mode)))
}

/// The object's row text: `structure A0LightFactory · player 0 · 1088, 2240`.
fn row_text(o: &SceneObject) -> String {
    format!(
        "{} {} · {} · {}, {}",
        o.kind.name(),
        o.stats_id,
        o.owner.label(),
        o.x,
        o.y
    )
}

/// The search box and the objects that match it; a click selects one.
fn objects_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    doc: &Document,
    map: &MapDetails,
) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let mut search = state.panels.map.search.clone();
    ui.horizontal(|ui| {
        let l = ui.label("Search");
        let r = ui
            .add(
                egui::TextEdit::singleline(&mut search)
                    // A fixed id: the focus stays on it however the panel above changes.
                    .id_salt("map object search")
                    .hint_text("stats id, kind, player…")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(l.id);
        if r.changed() {
            out.push(AppCommand::Map(MapCommand::Search(search.clone())));
        }
    });
    let shown = filtered(map, &search);
    ui.weak(format!("{} of {} objects", shown.len(), map.objects.len()));
    let selected = state
        .document
        .inspect_current()
        .and(state.document.inspect.selected);
    let row = ui.text_style_height(&egui::TextStyle::Button) + ui.spacing().item_spacing.y;
    egui::ScrollArea::vertical()
        .id_salt(("map objects", doc.generation))
        .max_height(LIST_HEIGHT)
        .auto_shrink([false, true])
        .show_rows(ui, row, shown.len(), |ui, rows| {
            for &i in &shown[rows] {
                let o = &map.objects[i];
                let on = selected == Some(o.node);
                if ui.selectable_label(on, row_text(o)).clicked() {
                    let node = (!on).then_some(o.node);
                    out.push(AppCommand::Inspect(InspectCommand::Select(node)));
                }
            }
        });
    out
}

/// The selected object's facts, and Frame.
fn selection_ui(ui: &mut egui::Ui, o: &SceneObject) -> Vec<AppCommand> {
    ui.label(format!("Stats id: {}", o.stats_id));
    ui.label(format!("Kind: {}", o.kind.name()));
    ui.label(format!("Player: {}", o.owner.label()));
    ui.label(format!("Position: x {}, y {}, z {}", o.x, o.y, o.z));
    ui.weak("world units: x east, y south, z up");
    ui.label(format!("Direction: {:.1}°", o.degrees()));
    ui.label(format!(
        "Footprint: {} × {} tiles",
        o.footprint.0, o.footprint.1
    ));
    ui.weak(format!("In its file: {}", o.key));
    let mut out = Vec::new();
    if ui
        .button("Frame object")
        .on_hover_text("Frame the selected object (F)")
        .clicked()
    {
        out.push(AppCommand::View(ViewCommand::Frame));
    }
    out
}
