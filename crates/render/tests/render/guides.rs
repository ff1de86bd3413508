//! Nodes that start hidden ([`Node::hidden`]) and guides ([`Guide`]): a picture drawn
//! without a node mask leaves out a node that starts hidden and shows it under a mask
//! that shows it; a guide is drawn where its node is shown, whatever the overlay
//! toggles, and not where its node is hidden.

use crate::render_support;
use glam::Vec3;
use render_support::{Rig, fixtures, framed};
use vitrine_core::model::{Guide, Pose};
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 160;

fn red(img: &image::RgbaImage) -> usize {
    img.pixels().filter(|p| p.0[0] > 100 && p.0[1] < 60).count()
}

#[vitrine_test(gpu)]
fn a_node_that_starts_hidden_is_left_out_until_a_mask_shows_it() {
    let mut rig = Rig::new();
    let mut model = fixtures::skinned_pair();
    let pose = Pose::rest(&model);
    let mut view = render_support::unlit_front();
    framed(&mut view.camera, &model, &pose);
    let shown = rig.render_pose(&model, &pose, &view, SIZE);
    assert!(red(&shown) > 300);
    model.nodes[0].hidden = true;
    let defaults = rig.render_pose(&model, &pose, &view, SIZE);
    assert_eq!(red(&defaults), 0, "a node that starts hidden is drawn");
    view.node_mask = vec![true, true];
    let asked = rig.render_pose(&model, &pose, &view, SIZE);
    assert_eq!(red(&asked), red(&shown), "the mask's choice wins");
}

#[vitrine_test(gpu)]
fn a_guide_is_drawn_where_its_node_is_shown() {
    let mut rig = Rig::new();
    let mut model = fixtures::box_model(Vec3::splat(-1.0), Vec3::ONE);
    let pose = Pose::rest(&model);
    let mut view = render_support::unlit_front();
    framed(&mut view.camera, &model, &pose);
    view.camera.distance *= 1.5;
    let plain = rig.render_pose(&model, &pose, &view, SIZE);
    // A green line across the front face, a little in front of it.
    let green = [0, 255, 0, 255];
    model.guides.push(Guide::line(
        0,
        vec![Vec3::new(-1.0, 0.0, 1.05), Vec3::new(1.0, 0.0, 1.05)],
        green,
        3.0,
    ));
    let is_green = |p: &image::Rgba<u8>| p.0[1] > 200 && p.0[0] < 80 && p.0[2] < 80;
    let count = |img: &image::RgbaImage| img.pixels().filter(|p| is_green(p)).count();
    assert_eq!(count(&plain), 0);
    let with = rig.render_pose(&model, &pose, &view, SIZE);
    let drawn = count(&with);
    assert!(drawn > 2 * SIZE as usize / 3, "{drawn} green pixels");
    // The line is horizontal: its pixels sit in a band a few pixels high.
    let rows: Vec<u32> = with
        .enumerate_pixels()
        .filter(|(_, _, p)| is_green(p))
        .map(|(_, y, _)| y)
        .collect();
    let (lo, hi) = (rows.iter().min().unwrap(), rows.iter().max().unwrap());
    assert!(hi - lo <= 5, "rows {lo}..{hi}");
    // Its node hidden by the user's mask: gone.
    view.node_mask = vec![false; model.nodes.len()];
    assert_eq!(count(&rig.render_pose(&model, &pose, &view, SIZE)), 0);
}
