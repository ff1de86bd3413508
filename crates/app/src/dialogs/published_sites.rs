//! Settings ▸ Published sites…: the mods published as web sites with `vitrine publish`
//! (the folder or `.wz` on this machine, the site's address), which Share ▸ Copy web
//! link turns a view into an address on ([`crate::published`]). Each row is edited in
//! place and saved as it changes; a row that cannot be used says why beside it.

use crate::commands::{AppCommand, SettingsCommand, ShareCommand};
use crate::published::{NO_SOURCE, PublishedSite, url_problem};
use crate::state::AppState;

/// The window while open: the rows, Add, Close.
pub fn window_ui(ctx: &egui::Context, state: &AppState) -> Vec<AppCommand> {
    let mut out = Vec::new();
    if !state.dialogs.published_sites {
        return out;
    }
    let mut sites = state.services.settings.published_sites.clone();
    let mut open = true;
    egui::Window::new("Published sites")
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.set_width(SOURCE_WIDTH + URL_WIDTH + 90.0);
            ui.add(
                egui::Label::new(
                    "Mods published as web sites (vitrine publish): where the mod is on \
                     this machine, and the address of its site. For a model in one of \
                     them, Share ▸ Copy web link gives the address of the view there.",
                )
                .wrap(),
            );
            ui.add_space(6.0);
            if sites.is_empty() {
                ui.weak("None yet.");
            } else {
                rows_ui(ui, &mut sites);
            }
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui
                    .button("Add a site")
                    .on_hover_text("A new row: the mod's folder or .wz, the site's address")
                    .clicked()
                {
                    sites.push(PublishedSite::default());
                }
                if ui.button("Close").clicked() {
                    out.push(AppCommand::Share(ShareCommand::ShowPublishedSites(false)));
                }
            });
        });
    if !open {
        out.push(AppCommand::Share(ShareCommand::ShowPublishedSites(false)));
    }
    if sites != state.services.settings.published_sites {
        out.push(AppCommand::Settings(SettingsCommand::SetPublishedSites(
            sites,
        )));
    }
    out
}

/// Widths of the two fields, in points.
const SOURCE_WIDTH: f32 = 340.0;
const URL_WIDTH: f32 = 260.0;

/// One row per site: the source, the address, Remove; each field's problem, if any,
/// under it.
fn rows_ui(ui: &mut egui::Ui, sites: &mut Vec<PublishedSite>) {
    let mut remove = None;
    let height = ui.spacing().interact_size.y;
    let colour = ui.visuals().error_fg_color;
    egui::Grid::new("published sites")
        .num_columns(3)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            ui.strong("Mod folder or .wz");
            ui.strong("Site address");
            ui.end_row();
            for (i, site) in sites.iter_mut().enumerate() {
                let mut source = site.source.to_string_lossy().into_owned();
                let edit =
                    egui::TextEdit::singleline(&mut source).hint_text("/home/me/mods/mymod.wz");
                let r = ui.add_sized([SOURCE_WIDTH, height], edit);
                let r = if site.source.as_os_str().is_empty() {
                    r
                } else {
                    r.on_hover_text(site.source.display().to_string())
                };
                if r.changed() {
                    site.source = source.into();
                }
                let edit = egui::TextEdit::singleline(&mut site.url)
                    .hint_text("https://me.github.io/mymod/");
                ui.add_sized([URL_WIDTH, height], edit);
                if ui
                    .button("Remove")
                    .on_hover_text("Forget this site")
                    .clicked()
                {
                    remove = Some(i);
                }
                ui.end_row();
                // Each problem under the field it is about.
                let no_source = site.source.as_os_str().is_empty();
                let bad_url = url_problem(&site.url);
                if no_source || bad_url.is_some() {
                    for why in [no_source.then_some(NO_SOURCE), bad_url] {
                        ui.label(egui::RichText::new(why.unwrap_or_default()).color(colour));
                    }
                    ui.end_row();
                }
            }
        });
    if let Some(i) = remove {
        sites.remove(i);
    }
}
