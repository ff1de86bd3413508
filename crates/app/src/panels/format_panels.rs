//! Side-panel sections that depend on the format: each format's own sections (shown
//! first: PIE textures with the tileset and levels; PET parts, motions and events; TPM
//! instances and materials; PMF pieces and the transform rules), the colour mode with its
//! legend, the data roots, and the banner of a PangYa animation opened without its
//! skeleton. Like the rest of the panel they read [`AppState`] and return commands.

use crate::commands::{AppCommand, DocumentCommand, ViewCommand};
use crate::document::Document;
use crate::formats::pet::PetRotations;
use crate::formats::pie::Tileset;
use crate::formats::pmf::{EulerOrder, PmfOptions, RootMode, RotationUnits};
use crate::model::{Details, Format, Model, NodeKind};
use crate::panels::sections::{Sections, found_mark, textures_title, textures_ui};
use crate::render::{ColourMode, legend};
use crate::state::AppState;

/// Side of a legend swatch, points.
const SWATCH: f32 = 14.0;

/// The banner under the file name, when the model needs one (an `.apet` without a
/// skeleton). Draws nothing otherwise.
pub fn banners_ui(ui: &mut egui::Ui, state: &AppState) {
    let Some(doc) = &state.document.open else {
        return;
    };
    if let Some(text) = missing_skeleton(&doc.model) {
        egui::Frame::new()
            .fill(egui::Color32::from_rgb(110, 80, 20))
            .inner_margin(6.0)
            .corner_radius(4.0)
            .show(ui, |ui| {
                ui.label(
                    egui::RichText::new("No skeleton")
                        .color(egui::Color32::WHITE)
                        .strong(),
                );
                ui.add(
                    egui::Label::new(egui::RichText::new(text).color(egui::Color32::WHITE)).wrap(),
                );
            });
    }
}

/// Why a PangYa model has bones but no skeleton to rest them on: an `.apet` (animation)
/// opened without the `.bpet`/`.mpet` of its character. `None` when it has one.
pub fn missing_skeleton(model: &Model) -> Option<String> {
    if model.format != Format::Pet || model.nodes.is_empty() {
        return None;
    }
    let parts = model.details.pet_files();
    if parts.is_empty() || parts.iter().any(|p| p.bone_matrices) {
        return None;
    }
    let (file, prefix) = match &model.details {
        Details::PetCharacter(c) => (c.file.as_str(), format!(" named {}_*.bpet", c.prefix)),
        _ => (parts[0].file.as_str(), String::new()),
    };
    Some(format!(
        "{file} is an animation: its bones have names and parents but no rest matrices, \
         and no skeleton (.bpet{prefix}) or mesh part (.mpet) was found beside it. The bones \
         rest at the origin and nothing is skinned. Put the character's .bpet and .mpet \
         files in the same folder and open it again."
    ))
}

/// Which of the generic sections a format's own sections already show.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OwnSections {
    /// The textures list.
    pub textures: bool,
    /// The node hierarchy.
    pub hierarchy: bool,
    /// The part toggles.
    pub parts: bool,
}

/// What [`format_sections_ui`] shows for `format`.
pub fn own_sections(format: Format) -> OwnSections {
    match format {
        Format::Pie => OwnSections {
            textures: true,
            hierarchy: true,
            parts: false,
        },
        Format::Pet => OwnSections {
            textures: false,
            hierarchy: false,
            parts: true,
        },
        Format::Tpm => OwnSections {
            textures: false,
            hierarchy: true,
            parts: false,
        },
        Format::Pmf | Format::Gltf | Format::Obj => OwnSections {
            textures: false,
            hierarchy: true,
            parts: false,
        },
    }
}

/// The format's own sections, shown before everything else.
pub fn format_sections_ui(
    ui: &mut egui::Ui,
    s: &mut Sections<'_>,
    state: &AppState,
    doc: &Document,
) {
    let m = &doc.model;
    let hierarchy = |ui: &mut egui::Ui| crate::panels::hierarchy::hierarchy_ui(ui, state, doc);
    match m.format {
        Format::Pie => {
            s.show(ui, "pie textures", textures_title(m), true, |ui| {
                let out = tileset_ui(ui, state.services.settings.tileset);
                textures_ui(ui, m);
                out
            });
            s.show(
                ui,
                "pie levels",
                format!("Levels ({})", m.nodes.len()),
                true,
                hierarchy,
            );
        }
        Format::Pet => {
            crate::panels::hierarchy::parts_ui(ui, s, state, doc);
            if m.clips.iter().any(|c| !c.node_tracks.is_empty()) {
                s.show(ui, "pet rotations", "ANIM rotations", false, |ui| {
                    pet_rotations_ui(ui, state.services.settings.pet_rotations)
                });
            }
            let clip = m.clips.first();
            let motions = clip.map_or(&[][..], |c| &c.motions[..]);
            if !motions.is_empty() {
                s.show(
                    ui,
                    "pet motions",
                    format!("Motions ({})", motions.len()),
                    true,
                    |ui| {
                        motions_ui(ui, motions);
                        Vec::new()
                    },
                );
            }
            let events = clip.map_or(&[][..], |c| &c.events[..]);
            if !events.is_empty() {
                s.show(
                    ui,
                    "pet events",
                    format!("Events ({})", events.len()),
                    true,
                    |ui| {
                        for e in events {
                            ui.add(
                                egui::Label::new(format!("frame {}: {}", e.frame, e.text)).wrap(),
                            );
                        }
                        Vec::new()
                    },
                );
            }
        }
        Format::Tpm => {
            let instances = m
                .nodes
                .iter()
                .filter(|n| n.kind == NodeKind::Instance)
                .count();
            s.show(
                ui,
                "tpm instances",
                format!("Instances ({instances})"),
                true,
                hierarchy,
            );
            s.show(
                ui,
                "tpm materials",
                format!("Materials ({})", m.materials.len()),
                true,
                |ui| {
                    materials_ui(ui, m);
                    Vec::new()
                },
            );
        }
        Format::Pmf => {
            s.show(
                ui,
                "pmf pieces",
                format!("Pieces ({})", m.nodes.len()),
                true,
                hierarchy,
            );
            s.show(ui, "pmf settings", "Transform rules", true, |ui| {
                pmf_settings_ui(ui, state.services.settings.pmf, doc)
            });
        }
        Format::Gltf | Format::Obj => {
            s.show(
                ui,
                "imported nodes",
                format!("Nodes ({})", m.nodes.len()),
                true,
                hierarchy,
            );
            s.show(
                ui,
                "imported materials",
                format!("Materials ({})", m.materials.len()),
                true,
                |ui| {
                    materials_ui(ui, m);
                    Vec::new()
                },
            );
        }
    }
}

/// The tileset switch: which of the game's tilesets the pages are drawn for.
fn tileset_ui(ui: &mut egui::Ui, current: Tileset) -> Vec<AppCommand> {
    let mut out = Vec::new();
    ui.horizontal_wrapped(|ui| {
        ui.label("Tileset");
        for t in Tileset::ALL {
            if ui
                .selectable_label(current == t, t.name())
                .on_hover_text(format!(
                    "Draw with the {t} pages: the model's own TEXTURE {} lines (PIE 4), and \
                     the pages the game's rules script swaps for {t} maps",
                    t.slot()
                ))
                .clicked()
                && current != t
            {
                out.push(AppCommand::Document(DocumentCommand::SetTileset(t)));
            }
        }
    });
    out
}

/// The PET rotation reading: conjugated (default) or as stored.
fn pet_rotations_ui(ui: &mut egui::Ui, current: PetRotations) -> Vec<AppCommand> {
    let mut out = Vec::new();
    for (r, label, hint) in [
        (
            PetRotations::Conjugated,
            "Conjugated (default)",
            "The stored quaternion is the conjugate of the key's rotation: how PangyaWeb \
             and Acrisio Filho's add-on read the game's files",
        ),
        (
            PetRotations::AsStored,
            "As stored",
            "The stored quaternion is the key's rotation: how this project's synthetic \
             samples were written",
        ),
    ] {
        if ui.radio(current == r, label).on_hover_text(hint).clicked() && current != r {
            out.push(AppCommand::Document(DocumentCommand::SetPetRotations(r)));
        }
    }
    out
}

/// PET motions (MOTI): name, frames, what follows.
fn motions_ui(ui: &mut egui::Ui, motions: &[crate::model::Motion]) {
    egui::Grid::new("motions").striped(true).show(ui, |ui| {
        for mo in motions {
            ui.label(&mo.name);
            ui.monospace(format!("{}–{}", mo.start, mo.end));
            ui.label(
                mo.next
                    .as_deref()
                    .map_or(String::new(), |n| format!("then {n}")),
            );
            ui.end_row();
        }
    });
}

/// One line per material: name and its base texture.
fn materials_ui(ui: &mut egui::Ui, m: &Model) {
    for mat in &m.materials {
        ui.horizontal_wrapped(|ui| {
            ui.label(&mat.name);
            match mat.base.and_then(|i| m.textures.get(i)) {
                Some(t) => {
                    ui.weak(&t.name);
                    found_mark(ui, t.resolved.as_ref());
                }
                None => {
                    ui.weak("no texture");
                }
            }
        });
    }
}

/// The display sections: colour mode and legend, data roots.
pub fn display_sections_ui(ui: &mut egui::Ui, s: &mut Sections<'_>, state: &AppState) {
    s.show(ui, "colour", "Colour", true, |ui| {
        let out: Vec<AppCommand> = colour_mode_ui(ui, state.view.colour_mode)
            .into_iter()
            .collect();
        if let Some(doc) = &state.document.open {
            legend_ui(ui, doc, state.view.colour_mode);
        }
        out
    });
    s.show(ui, "data roots", "Data roots", false, |ui| {
        crate::panels::data_roots::data_roots_ui(ui, state)
    });
}

/// The three colour modes as a row of toggles.
pub fn colour_mode_ui(ui: &mut egui::Ui, current: ColourMode) -> Option<AppCommand> {
    let mut out = None;
    ui.horizontal_wrapped(|ui| {
        for mode in ColourMode::ALL {
            if ui.selectable_label(current == mode, mode.label()).clicked() && current != mode {
                out = Some(AppCommand::View(ViewCommand::SetColourMode(mode)));
            }
        }
    });
    out
}

/// The View ▸ Colour mode submenu.
pub fn colour_mode_menu_ui(ui: &mut egui::Ui, current: ColourMode) -> Option<AppCommand> {
    let mut out = None;
    for mode in ColourMode::ALL {
        if ui
            .add(egui::Button::new(mode.label()).selected(current == mode))
            .clicked()
        {
            out = Some(AppCommand::View(ViewCommand::SetColourMode(mode)));
            ui.close();
        }
    }
    out
}

/// `#RRGGBB`.
fn hex(c: [u8; 3]) -> String {
    format!("#{:02X}{:02X}{:02X}", c[0], c[1], c[2])
}

/// The legend of the current colour mode: a swatch and a name per colour.
fn legend_ui(ui: &mut egui::Ui, doc: &Document, mode: ColourMode) {
    if mode == ColourMode::Textured {
        return;
    }
    let entries = legend(&doc.model, mode);
    if mode == ColourMode::ByJoint && entries.iter().all(|e| e.node.is_none()) {
        ui.weak("No point of this model is bound to a joint: everything is grey.");
    }
    let what = match (mode, doc.model.format) {
        (ColourMode::ByJoint, _) => "joints",
        (_, Format::Pmf) => "pieces",
        (_, Format::Tpm) => "instances",
        (_, Format::Pet) => "parts",
        (_, Format::Pie) => "levels",
        (_, Format::Gltf | Format::Obj) => "nodes",
    };
    ui.weak(format!("Legend ({} {what})", entries.len()));
    egui::ScrollArea::vertical()
        .id_salt("legend")
        .max_height(260.0)
        .show(ui, |ui| {
            for e in &entries {
                ui.horizontal(|ui| {
                    let (rect, response) =
                        ui.allocate_exact_size(egui::vec2(SWATCH, SWATCH), egui::Sense::hover());
                    let [r, g, b] = e.colour;
                    ui.painter()
                        .rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
                    let name = format!("{} colour {}", e.label, hex(e.colour));
                    response.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Image, true, name.clone())
                    });
                    ui.label(&e.label);
                });
            }
        });
}

/// Units, Euler order and root mode as toggles; any change reloads the model.
fn pmf_settings_ui(ui: &mut egui::Ui, current: PmfOptions, doc: &Document) -> Vec<AppCommand> {
    let mut out = Vec::new();
    let mut want = current;
    ui.add(
        egui::Label::new(
            "The PMF format does not say how its frame rotations are meant; these choose. \
             Changing one reloads the model.",
        )
        .wrap(),
    );
    ui.horizontal(|ui| {
        ui.label("Rotation units");
        for (units, label) in [
            (RotationUnits::Degrees, "Degrees"),
            (RotationUnits::Radians, "Radians"),
        ] {
            ui.selectable_value(&mut want.units, units, label);
        }
    });
    ui.label("Euler order (first axis applied first)");
    ui.horizontal(|ui| {
        for order in EulerOrder::ALL {
            ui.selectable_value(&mut want.euler, order, order.name().to_uppercase())
                .on_hover_text(order.formula());
        }
    });
    ui.horizontal(|ui| {
        ui.label("Root position");
        ui.selectable_value(&mut want.root, RootMode::Replace, "Replaces")
            .on_hover_text("A frame's root position replaces the root piece's translation");
        ui.selectable_value(&mut want.root, RootMode::Add, "Adds to")
            .on_hover_text("A frame's root position is added to the root piece's translation");
    });
    ui.weak(format!(
        "Now: {}, {} ({}), root {}{}",
        want.units.name(),
        want.euler.name(),
        want.euler.formula(),
        want.root.name(),
        if want == PmfOptions::default() {
            " — the defaults"
        } else {
            ""
        }
    ));
    if want != PmfOptions::default() && ui.button("Reset to defaults").clicked() {
        want = PmfOptions::default();
    }
    if doc.model.clips.is_empty() {
        ui.weak("This file has no animation: the rest pose does not depend on these.");
    }
    if want != current {
        out.push(AppCommand::Document(DocumentCommand::SetPmfOptions(want)));
    }
    out
}
