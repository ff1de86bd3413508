//! Renderer benchmarks on whatever adapter is present (lavapipe on CI): one 256² thumbnail
//! of a textured model (set_model + render + readback), and a re-render of the same model
//! (the per-frame path of the window). Skips quietly without an adapter.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Vec2, Vec3};
use vitrine::model::{Corner, Format, Material, Mesh, Model, Node, NodeKind, Pose, Submesh};
use vitrine::render::{Gpu, RenderTarget, SceneRenderer, ViewSettings, model_bounds};

/// A 32×32-quad grid bent into a half cylinder: 2048 triangles, one material.
fn model() -> Model {
    let mut m = Model::new(Format::Pmf, "bench");
    m.materials.push(Material::new("m", [0.7, 0.6, 0.5, 1.0]));
    let mut mesh = Mesh::default();
    let n = 32;
    let at = |i: usize, j: usize| {
        let a = i as f32 / n as f32 * std::f32::consts::PI;
        Vec3::new(a.cos(), j as f32 / n as f32 * 2.0 - 1.0, a.sin())
    };
    for i in 0..n {
        for j in 0..n {
            for (a, b) in [(0, 0), (0, 1), (1, 1), (0, 0), (1, 1), (1, 0)] {
                mesh.corners
                    .push(Corner::new(mesh.points.len() as u32, Vec2::ZERO));
                mesh.points.push(at(i + a, j + b));
            }
        }
    }
    mesh.submeshes.push(Submesh {
        first_triangle: 0,
        triangle_count: (n * n * 2) as u32,
        material: 0,
    });
    m.meshes.push(mesh);
    let mut node = Node::new("grid", None, NodeKind::Piece);
    node.mesh = Some(0);
    m.nodes.push(node);
    m
}

fn bench(c: &mut Criterion) {
    let Ok(gpu) = Gpu::headless() else {
        eprintln!("SKIPPED: no GPU adapter");
        return;
    };
    let (d, q) = (&gpu.device, &gpu.queue);
    let mut scene = SceneRenderer::new(d, q, vitrine::files::disk());
    let target = RenderTarget::new(d, 256, 256);
    let model = model();
    let pose = Pose::rest(&model);
    let mut view = ViewSettings::default();
    let (lo, hi) = model_bounds(&model, &pose).unwrap();
    view.camera.frame_view(lo, hi, 1.0);
    c.bench_function("thumbnail 256 (set_model + render + readback)", |b| {
        b.iter(|| {
            scene.set_model(d, q, &model);
            scene.render(d, q, &target, &pose, &view);
            target.read_rgba(d, q).unwrap()
        })
    });
    scene.set_model(d, q, &model);
    c.bench_function("frame 256 (render + readback)", |b| {
        b.iter(|| {
            scene.render(d, q, &target, &pose, &view);
            target.read_rgba(d, q).unwrap()
        })
    });
    skinning(c, &gpu, &mut scene, &target);
}

/// GPU skinning cost: the PET puppet (GPU linear blend skinning, 13 joints) posed at a new
/// time every frame — pose sampling, joint upload, render, readback — against the same
/// figure with skinning baked on the CPU into a static copy (`model::skin_positions`).
fn skinning(c: &mut Criterion, gpu: &Gpu, scene: &mut SceneRenderer, target: &RenderTarget) {
    let (d, q) = (&gpu.device, &gpu.queue);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/synthetic/pet/puppet_v13.pet");
    let Ok(model) = vitrine::formats::load_path(&path, &Default::default()) else {
        eprintln!("SKIPPED: skinning bench needs {}", path.display());
        return;
    };
    let mut view = ViewSettings::default();
    let rest = Pose::rest(&model);
    let (lo, hi) = model_bounds(&model, &rest).unwrap();
    view.camera.frame_view(lo, hi, 1.0);
    scene.set_model(d, q, &model);
    let mut t = 0.0f32;
    c.bench_function("puppet 256, GPU-skinned, new pose each frame", |b| {
        b.iter(|| {
            t = (t + 1.0 / 30.0) % 2.0;
            let pose = Pose::sample(&model, Some(0), t, 0);
            scene.render(d, q, target, &pose, &view);
            target.read_rgba(d, q).unwrap()
        })
    });
    // The same frame with the skinning done on the CPU into a static mesh.
    let pose = Pose::sample(&model, Some(0), 1.0, 0);
    let mut baked = model.clone();
    for (i, mesh) in baked.meshes.iter_mut().enumerate() {
        if mesh.skin.is_some() {
            mesh.points = vitrine::model::skin_positions(&model, i, &pose);
            mesh.skin = None;
            mesh.influences.clear();
        }
    }
    baked.clips.clear();
    let baked_pose = Pose::rest(&baked);
    c.bench_function(
        "puppet 256, CPU-skinned (skin_positions + upload + render)",
        |b| {
            b.iter(|| {
                let mut m = baked.clone();
                for (i, mesh) in m.meshes.iter_mut().enumerate() {
                    if !model.meshes[i].influences.is_empty() {
                        mesh.points = vitrine::model::skin_positions(&model, i, &pose);
                    }
                }
                scene.set_model(d, q, &m);
                scene.render(d, q, target, &baked_pose, &view);
                target.read_rgba(d, q).unwrap()
            })
        },
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
