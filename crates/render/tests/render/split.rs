//! Many copies of a mesh, as a map has them: the renderer draws the copies of one mesh
//! and material together (instanced, up to 64 a call) and splits the vertices, indices
//! and draw uniforms over as many GPU buffers as the device's buffer size asks. Neither
//! may change the picture: a model whose nodes share three meshes is drawn as the same
//! model with a mesh of its own per node, and both as themselves with every buffer
//! capped at a few KiB (`SceneRenderer::set_buffer_cap`), hidden nodes among the copies
//! too. Marked `#[vitrine_test(gpu)]`.

use crate::render_support;

use glam::Vec3;
use render_support::fixtures;
use render_support::{Rig, unlit_front};
use vitrine_core::model::{Model, Node, NodeKind};
use vitrine_render::ViewSettings;
use vitrine_test_needs::vitrine_test;

const SIZE: u32 = 160;
/// Copies: more than two instanced calls of each mesh.
const COPIES: usize = 450;

/// `COPIES` boxes on a grid, node `i` showing mesh `i % 3` (three sizes of box, their
/// materials their own); with `shared` false each node has a copy of its mesh.
fn boxes(shared: bool) -> Model {
    let mut m = Model::new(vitrine_core::model::Format::Pmf, "boxes");
    for (k, size) in [0.3f32, 0.4, 0.2].into_iter().enumerate() {
        let b = fixtures::box_model(Vec3::splat(-size), Vec3::splat(size));
        let mat0 = m.materials.len();
        m.materials
            .extend(b.materials.iter().cloned().map(|mut mat| {
                mat.base_color[k] = 1.0;
                mat
            }));
        let mut mesh = b.meshes[0].clone();
        for s in &mut mesh.submeshes {
            s.material += mat0;
        }
        m.meshes.push(mesh);
    }
    for i in 0..COPIES {
        let mut n = Node::new(format!("box {i}"), None, NodeKind::Part);
        n.translation = Vec3::new((i % 25) as f32, (i / 25) as f32, (i % 7) as f32 * 0.1);
        let mesh = i % 3;
        n.mesh = Some(if shared {
            mesh
        } else {
            m.meshes.push(m.meshes[mesh].clone());
            m.meshes.len() - 1
        });
        m.nodes.push(n);
    }
    m.validate().unwrap();
    m
}

/// Pixels of `a` and `b` that differ at all.
fn differ(a: &image::RgbaImage, b: &image::RgbaImage) -> usize {
    a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count()
}

#[vitrine_test(gpu)]
fn copies_drawn_together_and_buffers_split_draw_the_same_picture() {
    let mut rig = Rig::new();
    let mut view: ViewSettings = unlit_front();
    // Some copies hidden: among the instances of a call they are drawn hidden.
    view.node_mask = (0..COPIES).map(|i| i % 11 != 4).collect();
    let (shared, own) = (boxes(true), boxes(false));
    let reference = rig.render(&own, &view, SIZE);
    let background = reference
        .pixels()
        .filter(|p| *p == &reference[(0, 0)])
        .count();
    assert!(
        background < (SIZE * SIZE) as usize * 9 / 10,
        "nothing drawn"
    );
    let instanced = rig.render(&shared, &view, SIZE);
    assert_eq!(differ(&reference, &instanced), 0, "instanced copies differ");
    // Every buffer at most 8 KiB: a geometry buffer per few meshes, a uniform buffer per
    // call of 64 draws.
    rig.scene.set_buffer_cap(Some(8 * 1024));
    for (model, what) in [(&shared, "shared"), (&own, "own meshes")] {
        let split = rig.render(model, &view, SIZE);
        assert_eq!(
            differ(&reference, &split),
            0,
            "{what}, split buffers, differ"
        );
    }
    // Hiding changes the picture (the mask is honoured inside an instanced call).
    view.node_mask = vec![true; COPIES];
    let all = rig.render(&shared, &view, SIZE);
    assert!(differ(&all, &instanced) > 0, "the hidden copies are drawn");
}
