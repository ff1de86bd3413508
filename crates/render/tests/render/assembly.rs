//! Pixels of an assembled Warzone 2100 droid (`../shared/corpus/wz2100`): the weapon is
//! drawn where the body's connector projects, and the assembly covers more of the picture
//! than the body alone.

use crate::common;
use crate::render_support;

use glam::Vec3;
use render_support::Rig;
use vitrine_core::files::FileRef;
use vitrine_core::model::Pose;
use vitrine_core::wz::{self, Design, PartFinder, Stats, TurretPose};
use vitrine_render::{ViewPreset, ViewSettings, visible_points};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 256;

/// Shows only the nodes of the parts `roles` (their group and level nodes; the mask is
/// per node, so the parts hung under them stay hidden).
fn only(model: &vitrine_core::model::Model, roles: &[&str]) -> Vec<bool> {
    model
        .nodes
        .iter()
        .map(|n| {
            roles
                .iter()
                .any(|r| n.name == *r || n.name.starts_with(&format!("{r}: ")))
        })
        .collect()
}

fn foreground(img: &image::RgbaImage, bg: [u8; 4]) -> usize {
    img.pixels().filter(|p| p.0 != bg).count()
}

#[vitrine_test(shared, gpu)]
fn the_weapon_is_drawn_at_the_body_connector_and_the_droid_covers_more_than_its_body() {
    let wz = common::wz2100();
    let mut rig = Rig::new();
    let roots: Vec<FileRef> = ["data/mp", "data/base"]
        .iter()
        .map(|l| vitrine_test_support::disk().parse(&wz.join(l)))
        .collect();
    let (stats, _) = Stats::load(vitrine_test_support::disk(), &roots);
    let mut finder = PartFinder::new(vitrine_test_support::disk(), &roots);
    let design = Design::Template {
        id: "ViperMG01Wheels".into(),
    };
    let a = wz::assemble(&stats, &mut finder, &design, TurretPose::default()).unwrap();
    let model = &a.model;
    let pose = Pose::rest(model);

    let mut view = ViewSettings::default();
    view.camera.set_preset(ViewPreset::Iso);
    view.camera.frame_points(&visible_points(model, &pose), 1.0);
    let bg = view.background;

    let whole = rig.render_pose(model, &pose, &view, SIZE);
    let body_only = ViewSettings {
        node_mask: only(model, &["body"]),
        ..view.clone()
    };
    let body = rig.render_pose(model, &pose, &body_only, SIZE);
    let gun_only = ViewSettings {
        node_mask: only(model, &["weapon 1 mount", "weapon 1"]),
        ..view.clone()
    };
    let gun = rig.render_pose(model, &pose, &gun_only, SIZE);

    let (fw, fb) = (foreground(&whole, bg), foreground(&body, bg));
    assert!(fw > fb + fb / 4, "droid {fw} px, body alone {fb} px");

    // drlbod01.pie connector 0 (`0 10 23`) → (0, 23, 10): the gun's pixels gather there.
    let at = view
        .camera
        .project(Vec3::new(0.0, 23.0, 10.0), SIZE as f32, SIZE as f32)
        .unwrap();
    let gun_pixels: Vec<(f32, f32)> = gun
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0 != bg)
        .map(|(x, y, _)| (x as f32, y as f32))
        .collect();
    assert!(gun_pixels.len() > 30, "{} gun pixels", gun_pixels.len());
    let n = gun_pixels.len() as f32;
    let centre = gun_pixels
        .iter()
        .fold(glam::Vec2::ZERO, |s, &(x, y)| s + glam::Vec2::new(x, y))
        / n;
    assert!(
        centre.distance(at) < SIZE as f32 * 0.12,
        "gun pixels centred at {centre}, connector projects to {at}"
    );
    // And the gun is visible in the whole droid, not buried in the body: many of its
    // pixels show something other than the body-only picture there.
    let shown = gun
        .enumerate_pixels()
        .filter(|(x, y, p)| p.0 != bg && whole.get_pixel(*x, *y).0 != body.get_pixel(*x, *y).0)
        .count();
    assert!(shown as f32 > n * 0.5, "{shown} of {n} gun pixels visible");
}
