use super::*;
use crate::link::ViewLink;
use crate::model::{Format, Model};
use crate::settings::Settings;
use crate::share::{site_url, web_link};
use crate::state::AppState;
use crate::wz::Design;

fn site(source: &str, url: &str) -> PublishedSite {
    PublishedSite {
        source: source.into(),
        url: url.into(),
    }
}

#[test]
fn addresses_must_be_http() {
    for (url, ok) in [
        ("https://me.github.io/mymod/", true),
        ("http://localhost:8000", true),
        ("  https://x.org  ", true),
        ("me.github.io/mymod", false),
        ("ftp://x.org/", false),
        ("https://", false),
        ("https:///", false),
        ("", false),
    ] {
        assert_eq!(url_problem(url).is_none(), ok, "{url:?}");
    }
    assert!(site("", "https://x.org/").problem().is_some());
    assert!(site("/m", "x.org").problem().is_some());
    assert_eq!(site("/m", "https://x.org/").problem(), None);
}

#[test]
fn a_file_inside_a_source_has_its_path_in_it() {
    let entry = |archive: &str, path: &str| FileRef::Entry {
        archive: archive.into(),
        path: path.into(),
    };
    let disk = |p: &str| FileRef::Disk(p.into());
    for (source, file, inside) in [
        (
            "/mods/my.wz",
            entry("/mods/my.wz", "components/bodies/x.pie"),
            Some("components/bodies/x.pie"),
        ),
        (
            "/mods/./my.wz",
            entry("/mods/my.wz", "/a.pie"),
            Some("a.pie"),
        ),
        ("/mods/my.wz", entry("/mods/other.wz", "a.pie"), None),
        (
            "/mods/my",
            disk("/mods/my/structs/b.pie"),
            Some("structs/b.pie"),
        ),
        (
            "/mods/my/",
            disk("/mods/my/structs/b.pie"),
            Some("structs/b.pie"),
        ),
        (
            "C:\\mods\\my",
            disk("C:\\mods\\my\\structs\\b.pie"),
            Some("structs/b.pie"),
        ),
        ("/mods/my", disk("/mods/mything/b.pie"), None),
        ("/mods/my", disk("/mods/my"), None),
        ("/mods/my", entry("/mods/my/inner.wz", "b.pie"), None),
        ("/mods/my.wz", disk("/mods/my.wz"), None),
    ] {
        assert_eq!(
            path_inside(Path::new(source), &file).as_deref(),
            inside,
            "{source} / {file:?}"
        );
    }
}

#[test]
fn the_first_usable_site_holding_the_file_is_taken() {
    let sites = [
        site("/mods/my", "not an address"),
        site("/mods/my", "https://me.github.io/mymod"),
        site("/mods", "https://me.github.io/all/"),
    ];
    let file = FileRef::Disk("/mods/my/structs/b.pie".into());
    let (s, path) = site_of(&sites, &file).unwrap();
    assert_eq!(s.url, "https://me.github.io/mymod");
    assert_eq!(path, "structs/b.pie");
    assert!(site_of(&sites, &FileRef::Disk("/elsewhere/b.pie".into())).is_none());
    let roots: Vec<PathBuf> = vec!["/game/mp.wz".into(), "/mods/my/".into(), "/mods".into()];
    assert_eq!(
        site_of_roots(&sites, &roots).map(|s| s.url.as_str()),
        Some("https://me.github.io/mymod")
    );
    assert!(site_of_roots(&sites, &["/game/base.wz".into()]).is_none());
}

#[test]
fn the_url_has_one_slash_and_the_pages_fragment() {
    let link = ViewLink {
        model: Some("components/bodies/body 5.pie".into()),
        team: Some(1),
        ..ViewLink::default()
    };
    let want = "https://me.github.io/mymod/view.html?url=site.wz#model=components/bodies/body%205.pie&team=1";
    for base in [
        "https://me.github.io/mymod",
        "https://me.github.io/mymod/",
        "https://me.github.io/mymod//",
    ] {
        assert_eq!(site_url(base, &link), want, "{base}");
    }
}

fn state(file: FileRef) -> AppState {
    let mut s = AppState::new(
        Settings::default(),
        crate::host::MemoryHost::new(Default::default()),
    );
    s.set_document(file, Model::new(Format::Pie, "3"));
    s.services.settings.team = 2;
    s
}

#[test]
fn the_web_link_of_the_view_names_the_model_inside_its_site() {
    let mut s = state(FileRef::Entry {
        archive: "/mods/my.wz".into(),
        path: "components/bodies/x.pie".into(),
    });
    assert_eq!(web_link(&s).unwrap_err(), NOT_PUBLISHED);
    s.services.settings.published_sites = vec![site("/mods/my.wz", "https://me.github.io/mymod/")];
    let url = web_link(&s).unwrap();
    let page = ViewLink::of_state(&s, false).to_fragment();
    let (_, fragment) = url.split_once('#').unwrap();
    assert_eq!(fragment, page, "the page's own fragment");
    assert!(
        url.starts_with(
            "https://me.github.io/mymod/view.html?url=site.wz#model=components/bodies/x.pie&team=2&cam="
        ),
        "{url}"
    );

    // A file under a published folder: its path in the folder, not the whole path.
    let mut s = state(FileRef::Disk("/mods/my/structs/blderik.pie".into()));
    s.services.settings.published_sites = vec![site("/mods/my", "http://localhost:8000")];
    let url = web_link(&s).unwrap();
    assert!(
        url.starts_with(
            "http://localhost:8000/view.html?url=site.wz#model=structs/blderik.pie&team=2&"
        ),
        "{url}"
    );
    s.document.open = None;
    assert!(web_link(&s).is_err());
}

#[test]
fn an_assembly_links_by_design_when_its_roots_hold_a_site() {
    let design = Design::from_line("template:ViperMG01Wheels").unwrap();
    let mut s = state(crate::link::design_path(&design));
    s.services.settings.published_sites = vec![site("/mods/my.wz", "https://me.github.io/mymod/")];
    let why = web_link(&s).unwrap_err();
    assert!(why.contains("Settings ▸ Published sites"), "{why}");
    s.services.settings.data_roots = vec!["/mods/my.wz".into(), "/game/base.wz".into()];
    let url = web_link(&s).unwrap();
    assert!(
        url.starts_with(
            "https://me.github.io/mymod/view.html?url=site.wz#design=template:ViperMG01Wheels&team=2&cam="
        ),
        "{url}"
    );
}

#[test]
fn the_sites_persist_and_old_settings_without_them_still_load() {
    let settings = Settings {
        published_sites: vec![
            site("/mods/my.wz", "https://me.github.io/mymod/"),
            site("C:\\mods\\other", "http://localhost:8000"),
        ],
        ..Settings::default()
    };
    let json = serde_json::to_string_pretty(&settings).unwrap();
    assert!(json.contains("\"published_sites\""), "{json}");
    assert_eq!(Settings::from_json(json.as_bytes()).unwrap(), settings);
    // A file from before the list: the rest reads, the list is empty.
    let old = br#"{ "team": 3, "data_roots": ["/game/base.wz"], "watch_files": false }"#;
    let read = Settings::from_json(old).unwrap();
    assert_eq!(read.team, 3);
    assert!(read.published_sites.is_empty());
    // A row missing a key: the key's default.
    let partial = br#"{ "published_sites": [ { "url": "https://x.org/" } ] }"#;
    let read = Settings::from_json(partial).unwrap();
    assert_eq!(read.published_sites, vec![site("", "https://x.org/")]);
}
