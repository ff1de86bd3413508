//! `vitrine convert --pack`: the pages the written PIE makes the game load land in the
//! `texpages/` the game reads (an existing one up the output's path, or the mod's root
//! above `components/`, `structs/`…, else a new one beside it) as PNG under the PIE's page names; a page already there
//! with other bytes is never replaced and the model is not written; the check sees the
//! packed pages as present.

use super::common;
use super::vitrine;
use std::path::Path;
use vitrine_test_needs::vitrine_test;

fn fixture(name: &str) -> std::path::PathBuf {
    common::fixtures().join("pie").join(name)
}

fn convert(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let o = vitrine().arg("convert").args(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn os(p: &Path) -> &std::ffi::OsStr {
    p.as_os_str()
}

/// A PIE with a team-colour mask: the page and the mask the game derives from it are
/// copied byte for byte; a second run leaves them; a different page of that name stops
/// the model.
#[test]
fn pages_go_to_the_mods_texpages_and_are_never_replaced() {
    let tmp = common::temp_dir("pie-pack");
    let out = tmp.path().join("mod/components/weapons/tc.pie");
    let src = fixture("tcmask_derived.pie");
    let (code, err) = convert(&[os(&src), "-o".as_ref(), os(&out), "--pack".as_ref()]);
    assert_eq!(code, Some(0), "{err}");
    // The mod's root, above components/: where the game reads pages.
    let pages = tmp.path().join("mod/texpages");
    for page in ["page-90-fixture.png", "page-90_tcmask.png"] {
        assert_eq!(
            std::fs::read(pages.join(page)).unwrap(),
            std::fs::read(fixture("texpages").join(page)).unwrap(),
            "{page} copied as it is"
        );
        assert!(
            err.contains(&format!("packed {}", pages.join(page).display())),
            "{err}"
        );
    }

    // Again: the same pages are there, left as they are.
    let (code, err) = convert(&[os(&src), "-o".as_ref(), os(&out), "--pack".as_ref()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("already there, left as it is"), "{err}");

    // A modder's own page of that name: not replaced, and no PIE written.
    let mine = b"\x89PNG\r\n\x1a\nnot the same".to_vec();
    std::fs::write(pages.join("page-90-fixture.png"), &mine).unwrap();
    let other = out.with_file_name("other.pie");
    let (code, err) = convert(&[os(&src), "-o".as_ref(), os(&other), "--pack".as_ref()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("already exists with another image; not replaced"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(pages.join("page-90-fixture.png")).unwrap(),
        mine
    );
    assert!(!other.exists(), "the model is not written either");
}

/// An existing `texpages/` up the output's path is where the pages go; a renamed page
/// (`--texture`) is packed under the new name and its derived mask follows.
#[test]
fn an_existing_texpages_is_used_and_renamed_pages_follow() {
    let tmp = common::temp_dir("pie-pack-mod");
    let root = tmp.path().join("mymod");
    std::fs::create_dir_all(root.join("texpages")).unwrap();
    let out = root.join("models/weapons/tc.pie");
    let (code, err) = convert(&[
        os(&fixture("tcmask_derived.pie")),
        "-o".as_ref(),
        os(&out),
        "--pack".as_ref(),
        "--texture".as_ref(),
        "page-91-mine.png".as_ref(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("TEXTURE 0 page-91-mine.png"), "{text}");
    assert!(root.join("texpages/page-91-mine.png").is_file(), "{err}");
    assert!(root.join("texpages/page-91_tcmask.png").is_file(), "{err}");
    assert!(!out.parent().unwrap().join("texpages").exists());
}

/// Without --pack the glTF's page is found nowhere and the check stops it; with --pack
/// the image packed inside the `.glb` is written as the page and the model passes.
#[vitrine_test(shared)]
fn a_glb_image_becomes_the_page_the_check_then_finds() {
    let shared = common::shared_dir();
    let glb = shared.join("corpus/blender/scratch-tank.glb");
    let tmp = common::temp_dir("pie-pack-glb");
    let out = tmp.path().join("tank.pie");
    let (code, err) = convert(&[os(&glb), "-o".as_ref(), os(&out)]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("pie/texture-missing"), "{err}");
    assert!(!out.exists());

    let (code, err) = convert(&[os(&glb), "-o".as_ref(), os(&out), "--pack".as_ref()]);
    assert_eq!(code, Some(0), "{err}");
    let page = tmp.path().join("texpages/page-90-scratch-tank.png");
    let packed = image::open(&page).expect("a PNG").to_rgba8();
    let source = image::open(shared.join("corpus/blender/page-90-scratch-tank.png"))
        .unwrap()
        .to_rgba8();
    assert_eq!(packed.dimensions(), source.dimensions());
    assert!(packed.pixels().eq(source.pixels()), "the same pixels");
    let o = vitrine().arg("check").arg(&out).output().unwrap();
    let report =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(report.contains("0 errors"), "{report}");
}
