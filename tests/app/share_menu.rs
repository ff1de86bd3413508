//! Share ▸ Copy web link on the desktop (egui_kittest, no GPU): greyed out, saying why,
//! for a model outside every published site; Settings ▸ Published sites… adds one (a
//! row, a note under a field that cannot be used); then the item copies the view's
//! address on that site, with the fragment the page's own Copy link writes.

use crate::{app_support, common};

use eframe::egui::{Key, OutputCommand};
use egui_kittest::kittest::{NodeT, Queryable};
use vitrine::app::commands::{AppCommand, DocumentCommand, SettingsCommand, ShareCommand};
use vitrine::app::dispatch::apply;
use vitrine::app::link::ViewLink;
use vitrine::app::published::{NO_SOURCE, PublishedSite};
use vitrine::app::state::AppState;

const SOURCE_HINT: &str = "/home/me/mods/mymod.wz";
const URL_HINT: &str = "https://me.github.io/mymod/";

fn harness_on_cube() -> egui_kittest::Harness<'static, AppState> {
    let mut h = app_support::fresh_harness(900.0);
    h.run_steps(4);
    let cube = common::fixtures().join("pie").join("cube.pie");
    let _ = apply(
        h.state_mut(),
        AppCommand::Document(DocumentCommand::Open(cube.into())),
    );
    h.run_steps(8);
    assert!(
        h.state().document.load_error.is_none(),
        "{:?}",
        h.state().document.load_error
    );
    h
}

/// Types `text` into the empty field whose hint is `hint`.
fn type_into(h: &mut egui_kittest::Harness<'static, AppState>, hint: &str, text: &str) {
    h.get_by(|n| n.placeholder() == Some(hint)).click();
    h.run();
    h.get_by(|n| n.is_focused() && n.placeholder() == Some(hint))
        .type_text(text);
    h.run();
}

#[test]
fn copy_web_link_is_greyed_until_the_model_is_in_a_published_site_then_copies_its_address() {
    let mut h = harness_on_cube();
    h.get_by_label("Share").click();
    h.run();
    let item = h.get_by_label("Copy web link");
    assert!(item.accesskit_node().is_disabled(), "no published site yet");
    item.hover();
    h.run_steps(30);
    h.get_by_label_contains("This model is not in a published site: add the mod");
    h.key_press(Key::Escape);
    h.run();

    // Settings ▸ Published sites…: a row, each field's problem under it.
    h.get_by_label("Settings").click();
    h.run();
    h.get_by_label("Published sites…").click();
    h.run();
    assert!(h.state().dialogs.published_sites);
    h.get_by_label("None yet.");
    h.get_by_label("Add a site").click();
    h.run();
    h.get_by_label(NO_SOURCE);
    h.get_by_label("Must start with http:// or https://");
    let folder = common::fixtures().join("pie");
    type_into(&mut h, SOURCE_HINT, &folder.to_string_lossy());
    assert!(h.query_by_label(NO_SOURCE).is_none());
    type_into(&mut h, URL_HINT, "me.github.io/mymod");
    h.get_by_label("Must start with http:// or https://");
    // Still in the field: the scheme before what was typed.
    h.key_press(Key::Home);
    h.run();
    h.get_by(|n| n.is_focused()).type_text("https://");
    h.run();
    assert!(
        h.query_by_label("Must start with http:// or https://")
            .is_none()
    );
    assert_eq!(
        h.state().services.settings.published_sites,
        vec![PublishedSite {
            source: folder.clone(),
            url: "https://me.github.io/mymod".into(),
        }],
        "kept in the settings as typed"
    );
    h.get_by_label("Close").click();
    h.run();
    assert!(!h.state().dialogs.published_sites);

    // Now the item copies the view's address on the site.
    h.get_by_label("Share").click();
    h.run();
    let item = h.get_by_label("Copy web link");
    assert!(!item.accesskit_node().is_disabled());
    item.click();
    let mut copied = Vec::new();
    for _ in 0..4 {
        h.step();
        copied.extend(
            h.output()
                .platform_output
                .commands
                .iter()
                .filter_map(|c| match c {
                    OutputCommand::CopyText(t) => Some(t.clone()),
                    _ => None,
                }),
        );
    }
    let mut page = ViewLink::of_state(h.state(), false);
    page.model = Some("cube.pie".into());
    let want = format!(
        "https://me.github.io/mymod/view.html?url=site.wz#{}",
        page.to_fragment()
    );
    assert_eq!(copied, vec![want.clone()]);
    assert!(want.contains("#model=cube.pie&team=0&cam="), "{want}");
    let toasts = &h.state().services.toasts.items;
    assert!(
        toasts
            .iter()
            .any(|t| t.text == format!("Web link copied: {want}")),
        "{toasts:?}"
    );
}

#[test]
fn a_relative_source_names_the_same_folder_and_removing_it_greys_the_item_again() {
    let mut h = harness_on_cube();
    // Relative to the working folder (the package's, as cargo runs tests), as a path
    // typed beside a command line would be; the model's path is absolute.
    let folder = common::fixtures().join("pie");
    let cwd = std::env::current_dir().unwrap();
    let relative = folder
        .strip_prefix(&cwd)
        .expect("the fixtures under the working folder");
    let site = PublishedSite {
        source: relative.to_path_buf(),
        url: "http://localhost:8000/".into(),
    };
    let _ = apply(
        h.state_mut(),
        AppCommand::Settings(SettingsCommand::SetPublishedSites(vec![site])),
    );
    h.run();
    h.get_by_label("Share").click();
    h.run();
    assert!(
        !h.get_by_label("Copy web link")
            .accesskit_node()
            .is_disabled()
    );
    h.key_press(Key::Escape);
    h.run();
    let _ = apply(
        h.state_mut(),
        AppCommand::Share(ShareCommand::ShowPublishedSites(true)),
    );
    h.run();
    h.get_by_label("Remove").click();
    h.run();
    assert!(h.state().services.settings.published_sites.is_empty());
    h.get_by_label("None yet.");
    h.get_by_label("Share").click();
    h.run();
    assert!(
        h.get_by_label("Copy web link")
            .accesskit_node()
            .is_disabled()
    );
}
