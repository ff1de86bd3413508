//! `vitrine publish` end to end through the binary: the site's files, `site.wz` holding
//! exactly what the models need (checked against `mp.wz` over the base game's data), the
//! gallery's links and escaping, loose models with their pages, hostile texture names and
//! links, the output folder rules, the missing web page. The web page itself is never
//! needed: each test gives publish a fake page folder with the four files.

use crate::common;

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use vitrine_test_needs::vitrine_test;

fn vitrine() -> Command {
    Command::new(env!("CARGO_BIN_EXE_vitrine"))
}

/// A folder with the files of a built web page, its engines included (their contents do
/// not matter).
fn fake_page(dir: &Path) -> PathBuf {
    let page = dir.join("page");
    std::fs::create_dir_all(&page).unwrap();
    for (name, text) in [
        ("index.html", "<!DOCTYPE html><title>viewer</title>"),
        ("vitrine.js", "export default 1;"),
        ("vitrine_bg.wasm", "\0asm"),
        ("icon.png", "png"),
        ("vitrine_engines.js", "export default 2;"),
        ("vitrine_script.js", "export default 3;"),
        ("vitrine_script_bg.wasm", "\0asm script"),
        ("vitrine_ktx2.js", "export default 4;"),
        ("vitrine_ktx2_bg.wasm", "\0asm ktx2"),
    ] {
        std::fs::write(page.join(name), text).unwrap();
    }
    page
}

fn publish(args: &[&std::ffi::OsStr]) -> Output {
    vitrine().arg("publish").args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Entry names of a zip.
fn entries(zip_path: &Path) -> BTreeSet<String> {
    let z = zip::ZipArchive::new(std::fs::File::open(zip_path).unwrap()).unwrap();
    z.file_names().map(|n| n.unwrap().into_owned()).collect()
}

fn read_entry(zip_path: &Path, name: &str) -> Vec<u8> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(zip_path).unwrap()).unwrap();
    let mut out = Vec::new();
    z.by_name(name).unwrap().read_to_end(&mut out).unwrap();
    out
}

/// A tiny PNG.
fn png() -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbaImage::from_pixel(4, 4, image::Rgba([200, 50, 50, 255]))
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    bytes
}

/// A one-triangle PIE 3 naming `page`.
fn pie(page: &str) -> String {
    format!(
        "PIE 3\nTYPE 200\nTEXTURE 0 {page} 4 4\nLEVELS 1\nLEVEL 1\nPOINTS 3\n\t0 0 0\n\t10 0 0\n\t0 10 0\n\
         POLYGONS 1\n\t200 3 0 1 2 0 0 1 0 0 1\n"
    )
}

#[vitrine_test(shared)]
fn mp_wz_over_base_publishes_exactly_what_its_models_and_designs_need() {
    let wz = common::wz2100();
    let tmp = common::temp_dir("publish-mp");
    let page = fake_page(tmp.path());
    let site = tmp.path().join("site");
    let mp = wz.join("archives/mp.wz");
    let base = wz.join("data/base");
    let out = publish(&[
        mp.as_os_str(),
        "--data".as_ref(),
        base.as_os_str(),
        "-o".as_ref(),
        site.as_os_str(),
        "--page".as_ref(),
        page.as_os_str(),
        "--no-thumbnails".as_ref(),
        "--title".as_ref(),
        "<script>".as_ref(),
        "--author".as_ref(),
        "A & B".as_ref(),
        "--licence".as_ref(),
        "CC-BY-4.0 \"models\"".as_ref(),
    ]);
    // Exit 0 includes the check that site.wz alone reproduces every model and design.
    assert!(out.status.success(), "{}", text(&out));
    for f in [
        "index.html",
        "view.html",
        "vitrine.js",
        "vitrine_bg.wasm",
        "icon.png",
        "vitrine_engines.js",
        "vitrine_script.js",
        "vitrine_script_bg.wasm",
        "vitrine_ktx2.js",
        "vitrine_ktx2_bg.wasm",
        "site.wz",
        "site.json",
    ] {
        assert!(site.join(f).is_file(), "{f} missing");
    }
    let site_wz = site.join("site.wz");
    let got = entries(&site_wz);

    // Every model of mp.wz is in it.
    let mp_models: BTreeSet<String> = entries(&mp)
        .into_iter()
        .filter(|n| vitrine::formats::is_model_name(n))
        .collect();
    assert!(mp_models.len() > 50);
    let missing: Vec<_> = mp_models.difference(&got).collect();
    assert!(missing.is_empty(), "models not published: {missing:?}");

    // Its pages: a strict subset of base's, byte for byte the base's files.
    let pages: Vec<&String> = got.iter().filter(|n| n.starts_with("texpages/")).collect();
    let base_pages: BTreeSet<String> = std::fs::read_dir(base.join("texpages"))
        .unwrap()
        .map(|e| format!("texpages/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    assert!(!pages.is_empty());
    assert!(pages.len() < base_pages.len(), "{} pages", pages.len());
    for p in &pages {
        assert!(base_pages.contains(*p), "{p} is not a base page");
    }
    let p = pages[0];
    assert_eq!(
        read_entry(&site_wz, p),
        std::fs::read(base.join(p)).unwrap()
    );
    // The stats the designs are read from.
    for s in [
        "stats/templates.json",
        "stats/structure.json",
        "stats/body.json",
    ] {
        assert!(got.contains(s), "{s} missing");
    }

    // Reloaded from site.wz alone, every model resolves its textures inside it, to the
    // same names as from mp.wz over base.
    let root = vitrine::files::FileRef::archive_root(&site_wz);
    let site_options = vitrine::formats::LoadOptions {
        data_roots: vec![root.clone()],
        ..Default::default()
    };
    let mp_root = vitrine::files::FileRef::archive_root(&mp);
    let orig_options = vitrine::formats::LoadOptions {
        data_roots: vec![mp_root.clone(), vitrine::files::FileRef::Disk(base.clone())],
        ..Default::default()
    };
    let name = |t: &vitrine::model::TextureRef| t.resolved.as_ref().map(|f| f.file_name());
    for m in &mp_models {
        let from_site = vitrine::formats::load(&root.join(m), &site_options).unwrap();
        let from_mp = vitrine::formats::load(&mp_root.join(m), &orig_options).unwrap();
        for (a, b) in from_site.textures.iter().zip(&from_mp.textures) {
            assert_eq!(name(a), name(b), "{m}: {}", a.name);
            if let Some(f) = &a.resolved {
                assert!(
                    matches!(f, vitrine::files::FileRef::Entry { archive, .. } if *archive == site_wz),
                    "{m}: {} resolved outside site.wz: {f}",
                    a.name
                );
            }
        }
    }

    // site.json: mp's templates and structures.
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("site.json")).unwrap()).unwrap();
    let count = |file: &str| {
        let v: serde_json::Value =
            serde_json::from_slice(&read_entry(&mp, &format!("stats/{file}"))).unwrap();
        v.as_object().unwrap().len()
    };
    assert_eq!(
        json["templates"].as_array().unwrap().len(),
        count("templates.json")
    );
    assert_eq!(
        json["structures"].as_array().unwrap().len(),
        count("structure.json")
    );
    assert_eq!(json["models"].as_array().unwrap().len(), mp_models.len());
    assert!(json["generator"].as_str().unwrap().starts_with("vitrine "));
    assert_eq!(json["title"], "<script>");
    assert!(
        json["templates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == "A-Cobra-Hover-HMG")
    );

    // index.html: every model link names an entry of site.wz; designs link by id; the
    // footer is escaped; no script.
    let html = std::fs::read_to_string(site.join("index.html")).unwrap();
    let mut links = 0;
    for part in html.split("href=\"view.html?url=site.wz#model=").skip(1) {
        let path = part.split('"').next().unwrap();
        let path = vitrine::files::percent_decode(path);
        assert!(got.contains(&path), "link to {path}, not in site.wz");
        links += 1;
    }
    // mp.wz's maps link the same way, each its `game.map` (39), or its `game.js` (the 5
    // script-generated maps).
    let maps = json["maps"].as_array().unwrap();
    assert_eq!(maps.len(), 44);
    assert!(maps.iter().any(|m| m["name"] == "Sk-Rush"));
    assert_eq!(links, mp_models.len() + maps.len());
    assert!(html.contains("view.html?url=site.wz#design=template:A-Cobra-Hover-HMG"));
    assert!(html.contains("#design=structure:"));
    assert!(html.contains("&lt;script&gt;"));
    assert!(html.contains("A &amp; B"));
    assert!(html.contains("CC-BY-4.0 &quot;models&quot;"));
    assert!(!html.contains("<script"), "the gallery has no script");
    for h in [
        "Models",
        "Droid templates",
        "Structures",
        "Made with Vitrine",
    ] {
        assert!(html.contains(h), "{h}");
    }
    assert_eq!(
        std::fs::read_to_string(site.join("view.html")).unwrap(),
        "<!DOCTYPE html><title>viewer</title>"
    );
}

/// `mod/components/bodies/{a,hostile}.pie` (a the fixtures' cube), `mod/texpages/page-90-fixture.png`, and a
/// secret page outside the mod.
fn loose_mod(root: &Path) -> (PathBuf, PathBuf) {
    let m = root.join("mod");
    std::fs::create_dir_all(m.join("components/bodies")).unwrap();
    std::fs::create_dir_all(m.join("texpages")).unwrap();
    std::fs::create_dir_all(root.join("secret")).unwrap();
    std::fs::write(root.join("secret/secret.png"), png()).unwrap();
    std::fs::write(m.join("texpages/page-90-fixture.png"), png()).unwrap();
    // A textured cube naming page-90-fixture.png.
    std::fs::copy(
        common::fixtures().join("pie/cube.pie"),
        m.join("components/bodies/a.pie"),
    )
    .unwrap();
    std::fs::write(
        m.join("components/bodies/hostile.pie"),
        pie("../../../secret/secret.png"),
    )
    .unwrap();
    (
        m.join("components/bodies/a.pie"),
        m.join("components/bodies/hostile.pie"),
    )
}

#[test]
fn loose_pies_take_their_page_and_never_a_file_outside() {
    let tmp = common::temp_dir("publish-loose");
    let page = fake_page(tmp.path());
    let (a, hostile) = loose_mod(tmp.path());
    let site = tmp.path().join("site");
    let out = publish(&[
        a.as_os_str(),
        hostile.as_os_str(),
        "-o".as_ref(),
        site.as_os_str(),
        "--page".as_ref(),
        page.as_os_str(),
        "--no-thumbnails".as_ref(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    // The hostile name is not found (a warning), and nothing outside the mod is copied.
    assert!(text(&out).contains("secret.png"), "{}", text(&out));
    let got = entries(&site.join("site.wz"));
    let want: BTreeSet<String> = [
        "components/bodies/a.pie",
        "components/bodies/hostile.pie",
        "texpages/page-90-fixture.png",
    ]
    .map(String::from)
    .into();
    assert_eq!(got, want);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("site.json")).unwrap()).unwrap();
    assert_eq!(json["models"][0]["path"], "components/bodies/a.pie");
    assert_eq!(json["title"], "a.pie");
    assert!(json["models"][0]["thumb"].is_null(), "--no-thumbnails");
}

#[cfg(unix)]
#[test]
fn a_page_linked_from_outside_the_mod_is_not_published() {
    let tmp = common::temp_dir("publish-link");
    let page = fake_page(tmp.path());
    let (a, _) = loose_mod(tmp.path());
    let m = tmp.path().join("mod");
    std::os::unix::fs::symlink(
        tmp.path().join("secret/secret.png"),
        m.join("texpages/page-91-link.png"),
    )
    .unwrap();
    let b = m.join("components/bodies/b.pie");
    std::fs::write(&b, pie("page-91-link.png")).unwrap();
    let site = tmp.path().join("site");
    let out = publish(&[
        a.as_os_str(),
        b.as_os_str(),
        "-o".as_ref(),
        site.as_os_str(),
        "--page".as_ref(),
        page.as_os_str(),
        "--no-thumbnails".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("page-91-link.png is a link to"),
        "{}",
        text(&out)
    );
    let got = entries(&site.join("site.wz"));
    assert!(!got.iter().any(|n| n.contains("page-91")), "{got:?}");
    assert!(got.contains("texpages/page-90-fixture.png"));
}

#[test]
fn a_missing_web_page_is_a_clear_error() {
    let tmp = common::temp_dir("publish-nopage");
    let (a, _) = loose_mod(tmp.path());
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let site = tmp.path().join("site");
    let out = publish(&[
        a.as_os_str(),
        "-o".as_ref(),
        site.as_os_str(),
        "--page".as_ref(),
        empty.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let t = text(&out);
    assert!(
        t.contains("the web page is not built: run `web/build.sh target/web`")
            && t.contains("--page DIR")
            && t.contains("vitrine_bg.wasm"),
        "{t}"
    );
    assert!(!site.exists(), "nothing is written");
}

/// A package's layout: the program in `PREFIX/bin`, the page in
/// `PREFIX/share/vitrine/web` (`/usr/bin`, `/usr/share/vitrine/web` in the .deb); the
/// program finds it without `--page` or `$VITRINE_WEB_DIR`.
#[cfg(unix)]
#[test]
fn an_installed_program_finds_the_page_under_share() {
    let tmp = common::temp_dir("publish-installed");
    let prefix = tmp.path().join("usr");
    let bin = prefix.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let exe = bin.join("vitrine");
    std::fs::copy(env!("CARGO_BIN_EXE_vitrine"), &exe).unwrap();
    let page = fake_page(tmp.path());
    let shared = prefix.join("share/vitrine/web");
    std::fs::create_dir_all(shared.parent().unwrap()).unwrap();
    std::fs::rename(&page, &shared).unwrap();
    // Which page was taken: the installed one, not a source checkout's target/web.
    std::fs::write(shared.join("index.html"), "<title>installed page</title>").unwrap();
    let (a, _) = loose_mod(tmp.path());
    let site = tmp.path().join("site");
    let out = Command::new(&exe)
        .args([
            "publish".as_ref(),
            a.as_os_str(),
            "-o".as_ref(),
            site.as_os_str(),
        ])
        .arg("--no-thumbnails")
        .env_remove("VITRINE_WEB_DIR")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let view = std::fs::read_to_string(site.join("view.html")).unwrap();
    assert_eq!(view, "<title>installed page</title>");
    assert_eq!(
        vitrine::publish::installed_pages(Path::new("/usr/bin/vitrine")),
        [
            PathBuf::from("/usr/bin/web"),
            PathBuf::from("/usr/share/vitrine/web")
        ]
    );
}

#[test]
fn a_folder_with_other_files_needs_force_and_keeps_them() {
    let tmp = common::temp_dir("publish-force");
    let page = fake_page(tmp.path());
    let (a, _) = loose_mod(tmp.path());
    let site = tmp.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("notes.txt"), "mine").unwrap();
    let run = |force: bool| {
        let mut args: Vec<&std::ffi::OsStr> = vec![
            a.as_os_str(),
            "-o".as_ref(),
            site.as_os_str(),
            "--page".as_ref(),
            page.as_os_str(),
            "--no-thumbnails".as_ref(),
        ];
        if force {
            args.push("--force".as_ref());
        }
        publish(&args)
    };
    let out = run(false);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("is not empty"), "{}", text(&out));
    assert!(!site.join("index.html").exists());
    let out = run(true);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(site.join("notes.txt")).unwrap(),
        "mine"
    );
    // A site publish wrote is written again without --force.
    let out = run(false);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(site.join("notes.txt")).unwrap(),
        "mine"
    );
}

#[vitrine_test(gpu)]
fn thumbnails_are_drawn_for_every_tile() {
    crate::common::needs_gpu();
    let tmp = common::temp_dir("publish-thumbs");
    let page = fake_page(tmp.path());
    let (a, _) = loose_mod(tmp.path());
    let site = tmp.path().join("site");
    let out = publish(&[
        a.as_os_str(),
        "-o".as_ref(),
        site.as_os_str(),
        "--page".as_ref(),
        page.as_os_str(),
        "--title".as_ref(),
        "Thumbs".as_ref(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(site.join("site.json")).unwrap()).unwrap();
    let thumb = json["models"][0]["thumb"].as_str().expect("a thumbnail");
    assert!(thumb.starts_with("thumbs/") && thumb.ends_with(".png"));
    let img = image::open(site.join(thumb)).unwrap().into_rgba8();
    assert_eq!(img.dimensions(), (256, 256));
    assert!(
        img.pixels().any(|p| p.0[3] > 0 && p.0[0] > 100),
        "the red page is drawn"
    );
    let html = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(html.contains(&format!("<img src=\"{thumb}\"")));
}

#[test]
fn serve_prints_its_address_and_serves_the_site() {
    use std::io::{BufRead, Write};
    let tmp = common::temp_dir("publish-serve");
    let page = fake_page(tmp.path());
    let (a, _) = loose_mod(tmp.path());
    let site = tmp.path().join("site");
    let mut child = vitrine()
        .arg("publish")
        .arg(&a)
        .arg("-o")
        .arg(&site)
        .arg("--page")
        .arg(&page)
        .args(["--no-thumbnails", "--serve"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let served = (|| {
        let want = format!("Serving {} at http://127.0.0.1:", site.display());
        let port = line.trim().strip_prefix(&want)?.strip_suffix('/')?;
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port.parse::<u16>().ok()?)).ok()?;
        s.write_all(
            b"GET /site.wz HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\nConnection: close\r\n\r\n",
        )
        .ok()?;
        let mut response = Vec::new();
        s.read_to_end(&mut response).ok()?;
        Some(String::from_utf8_lossy(&response).into_owned())
    })();
    let _ = child.kill();
    let _ = child.wait();
    let response = served.unwrap_or_else(|| panic!("no address in {line:?}"));
    assert!(response.starts_with("HTTP/1.1 206"), "{response}");
    assert!(response.contains("Content-Range: bytes 0-1/"), "{response}");
    assert!(response.ends_with("PK"), "a zip starts with PK: {response}");
}

#[vitrine_test(shared)]
fn relative_data_roots_publish_each_file_once() {
    // `--data data/base` from the game's folder: the parts the designs find through the
    // roots and the pages their models resolve are the same files, however each was
    // named (this once reported twelve pages as two files at one path).
    let wz = common::wz2100();
    let tmp = common::temp_dir("publish-relative");
    let page = fake_page(tmp.path());
    let site = tmp.path().join("site");
    let out = vitrine()
        .current_dir(&wz)
        .args([
            "publish",
            "archives/mp.wz",
            "--data",
            "data/base",
            "--no-thumbnails",
        ])
        .arg("-o")
        .arg(&site)
        .arg("--page")
        .arg(&page)
        .output()
        .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(!said.lines().any(|l| l.starts_with("error")), "{said}");
    assert!(!said.contains("problem"), "{said}");
    assert!(entries(&site.join("site.wz")).contains("texpages/page-14-droid-hubs.png"));
}

/// Issue 31, item 5: a `site/` committed into a cloned mod, its `thumbs` a link to
/// elsewhere and its `site.json` listing `thumbs/f`: publish removed the file the link
/// reached. Now a link under `-o` (the `thumbs` folder, or any file publish writes) is
/// refused before anything is written, and what it points to is untouched.
#[cfg(unix)]
#[test]
fn links_in_the_output_folder_are_refused_never_followed() {
    let tmp = common::temp_dir("publish-links");
    let page = fake_page(tmp.path());
    let (a, _) = loose_mod(tmp.path());
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("f"), "precious").unwrap();
    let site = tmp.path().join("site");
    let run = |force: bool| {
        let mut args: Vec<&std::ffi::OsStr> = vec![a.as_os_str(), "-o".as_ref()];
        args.extend([site.as_os_str(), "--page".as_ref(), page.as_os_str()]);
        args.push("--no-thumbnails".as_ref());
        if force {
            args.push("--force".as_ref());
        }
        publish(&args)
    };
    let refused = |out: &Output, link: &Path| {
        let t = text(out);
        assert_eq!(out.status.code(), Some(1), "{t}");
        let name = link.display().to_string();
        assert!(t.contains(&format!("{name}: is a symbolic link")), "{t}");
        assert!(link.is_symlink(), "the link itself is left");
        assert_eq!(
            std::fs::read_to_string(elsewhere.join("f")).unwrap(),
            "precious"
        );
        let mut left: Vec<_> = std::fs::read_dir(&elsewhere)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["f"], "nothing written through the link");
    };

    std::fs::create_dir_all(&site).unwrap();
    std::os::unix::fs::symlink(&elsewhere, site.join("thumbs")).unwrap();
    let listing = r#"{"generator": "vitrine 0.1.0", "models": [{"thumb": "thumbs/f"}]}"#;
    std::fs::write(site.join("site.json"), listing).unwrap();
    refused(&run(false), &site.join("thumbs"));
    assert!(!site.join("index.html").exists() && !site.join("site.wz").exists());

    // Each file publish writes, when it is a link: refused, the link left as it is.
    std::fs::remove_file(site.join("thumbs")).unwrap();
    std::fs::remove_file(site.join("site.json")).unwrap();
    let thumb = "thumbs/model-components_bodies_a.pie.png";
    for name in ["index.html", "site.json", "site.wz", "view.html", thumb] {
        let link = site.join(name);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(elsewhere.join("f"), &link).unwrap();
        refused(&run(true), &link);
        std::fs::remove_file(&link).unwrap();
    }
    let out = run(true);
    assert!(out.status.success(), "{}", text(&out));
}
