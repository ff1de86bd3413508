//! Small models built in code, with their texture files written to a temp folder, so each
//! test knows exactly what every texel is.

use glam::{Mat4, Vec2, Vec3};
use std::path::{Path, PathBuf};
use vitrine_core::model::{
    Corner, Format, Material, Mesh, Model, Node, NodeKind, Skin, SkinInfluence, Submesh,
    TextureRef, TextureRole,
};

/// A fresh temp folder for one test's textures, removed when dropped (also when the test
/// fails).
pub use vitrine_test_needs::temp_dir;

/// Writes `img` as `dir/name` and returns the path.
pub fn write_png(dir: &Path, name: &str, img: &image::RgbaImage) -> PathBuf {
    let p = dir.join(name);
    img.save(&p).unwrap();
    p
}

/// A texture reference already resolved to `path` (or missing with `None`).
pub fn tex(role: TextureRole, name: &str, path: Option<PathBuf>) -> TextureRef {
    let mut t = TextureRef::new(role, name);
    t.resolved = path.map(Into::into);
    t
}

/// Adds a mesh (one submesh of `material`) on a new node; returns the node index.
pub fn add_mesh(model: &mut Model, name: &str, mesh: Mesh, parent: Option<usize>) -> usize {
    let mi = model.meshes.len();
    model.meshes.push(mesh);
    let mut node = Node::new(name, parent, NodeKind::Level);
    node.mesh = Some(mi);
    model.nodes.push(node);
    model.nodes.len() - 1
}

/// A mesh from triangles of (position, uv) corners, all with material `material`.
pub fn mesh_from(tris: &[[(Vec3, Vec2); 3]], material: usize) -> Mesh {
    let mut mesh = Mesh {
        name: "mesh".into(),
        uv_sets: 1,
        ..Default::default()
    };
    for tri in tris {
        for (p, uv) in tri {
            mesh.corners
                .push(Corner::new(mesh.points.len() as u32, *uv));
            mesh.points.push(*p);
        }
    }
    mesh.submeshes.push(Submesh {
        first_triangle: 0,
        triangle_count: tris.len() as u32,
        material,
    });
    mesh
}

/// A square from (x0, y0) to (x1, y1) in the plane z, facing +Z, UVs `uv0..uv1`
/// (top-left origin, V down).
pub fn quad(
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
    z: f32,
    uv0: Vec2,
    uv1: Vec2,
) -> [[(Vec3, Vec2); 3]; 2] {
    let bl = (Vec3::new(x0, y0, z), Vec2::new(uv0.x, uv1.y));
    let br = (Vec3::new(x1, y0, z), Vec2::new(uv1.x, uv1.y));
    let tr = (Vec3::new(x1, y1, z), Vec2::new(uv1.x, uv0.y));
    let tl = (Vec3::new(x0, y1, z), Vec2::new(uv0.x, uv0.y));
    [[bl, br, tr], [bl, tr, tl]]
}

/// The unit quad −1..1 facing +Z with the whole texture on it.
pub fn unit_quad() -> [[(Vec3, Vec2); 3]; 2] {
    quad(-1.0, -1.0, 1.0, 1.0, 0.0, Vec2::ZERO, Vec2::ONE)
}

/// A model with one quad and one material.
pub fn quad_model(material: Material, textures: Vec<TextureRef>) -> Model {
    let mut m = Model::new(Format::Pie, "test");
    m.textures = textures;
    m.materials.push(material);
    add_mesh(&mut m, "quad", mesh_from(&unit_quad(), 0), None);
    m
}

/// An untextured box from `lo` to `hi`, faces outward, with one colour per axis
/// (linear RGB): ±X red, ±Y green, ±Z blue.
pub fn box_model(lo: Vec3, hi: Vec3) -> Model {
    let mut m = Model::new(Format::Pmf, "test");
    m.materials.push(Material::new("x", [0.8, 0.1, 0.1, 1.0]));
    m.materials.push(Material::new("y", [0.1, 0.8, 0.1, 1.0]));
    m.materials.push(Material::new("z", [0.1, 0.1, 0.8, 1.0]));
    let c = |x: usize, y: usize, z: usize| {
        Vec3::new(
            if x == 1 { hi.x } else { lo.x },
            if y == 1 { hi.y } else { lo.y },
            if z == 1 { hi.z } else { lo.z },
        )
    };
    // Each face as 4 corners counter-clockwise seen from outside, with its material.
    let faces: [([Vec3; 4], usize); 6] = [
        ([c(1, 0, 1), c(1, 0, 0), c(1, 1, 0), c(1, 1, 1)], 0),
        ([c(0, 0, 0), c(0, 0, 1), c(0, 1, 1), c(0, 1, 0)], 0),
        ([c(0, 1, 1), c(1, 1, 1), c(1, 1, 0), c(0, 1, 0)], 1),
        ([c(0, 0, 0), c(1, 0, 0), c(1, 0, 1), c(0, 0, 1)], 1),
        ([c(0, 0, 1), c(1, 0, 1), c(1, 1, 1), c(0, 1, 1)], 2),
        ([c(1, 0, 0), c(0, 0, 0), c(0, 1, 0), c(1, 1, 0)], 2),
    ];
    let mut mesh = Mesh {
        name: "box".into(),
        ..Default::default()
    };
    for (t, (q, mat)) in faces.iter().enumerate() {
        for i in [0, 1, 2, 0, 2, 3] {
            mesh.corners
                .push(Corner::new(mesh.points.len() as u32, Vec2::ZERO));
            mesh.points.push(q[i]);
        }
        mesh.submeshes.push(Submesh {
            first_triangle: t as u32 * 2,
            triangle_count: 2,
            material: *mat,
        });
    }
    add_mesh(&mut m, "box", mesh, None);
    m
}

/// The base colour of the team-colour fixture (sRGB bytes).
pub const TC_BASE: [u8; 3] = [150, 120, 90];

/// A quad whose base texture is [`TC_BASE`] everywhere and whose tcmask alpha is 0 except
/// in the band u 0.5..0.875: 255 there, but 128 in its middle rows (v 0.375..0.625).
/// (The last columns stay 0 so the repeating sampler does not blend the band into the left
/// edge.) The mask's colour channels are noise: only alpha may matter.
pub fn tc_quad(dir: &Path) -> Model {
    let base = image::RgbaImage::from_pixel(
        64,
        64,
        image::Rgba([TC_BASE[0], TC_BASE[1], TC_BASE[2], 255]),
    );
    let mask = image::RgbaImage::from_fn(64, 64, |x, y| {
        let a = if !(32..56).contains(&x) {
            0
        } else if (24..40).contains(&y) {
            128
        } else {
            255
        };
        image::Rgba([(x * 7) as u8, (y * 13) as u8, 200, a])
    });
    let b = write_png(dir, "tc-base.png", &base);
    let t = write_png(dir, "tc-mask.png", &mask);
    let mut mat = Material::new("tc", [1.0; 4]);
    mat.base = Some(0);
    mat.tcmask = Some(1);
    quad_model(
        mat,
        vec![
            tex(TextureRole::Base, "tc-base.png", Some(b)),
            tex(TextureRole::Tcmask, "tc-mask.png", Some(t)),
        ],
    )
}

/// The game's formula in sRGB bytes, as the library states it once for the renderer and
/// the glTF exporter (`vitrine_core::model::team::blend_texel`): the render tests check the
/// shader against it.
pub fn team_formula(base: [u8; 3], team: [u8; 3], mask: f32) -> [u8; 3] {
    let mask = (mask * 255.0).round() as u8;
    let [r, g, b, _] =
        vitrine_core::model::team::blend_texel([base[0], base[1], base[2], 255], team, mask);
    [r, g, b]
}

/// Two colours side by side: left half `left`, right half `right` (sRGB bytes).
pub fn two_colour_texture(left: [u8; 3], right: [u8; 3]) -> image::RgbaImage {
    image::RgbaImage::from_fn(64, 64, |x, _| {
        let c = if x < 32 { left } else { right };
        image::Rgba([c[0], c[1], c[2], 255])
    })
}

/// A quad showing only the left half of a red | blue texture; its corners are marked
/// `animated`, so a texture-frame offset of (0.5, 0) shows the blue half.
pub fn frame_quad(dir: &Path) -> Model {
    let p = write_png(
        dir,
        "frames.png",
        &two_colour_texture([220, 30, 30], [30, 30, 220]),
    );
    let mut mat = Material::new("frames", [1.0; 4]);
    mat.base = Some(0);
    let mut m = Model::new(Format::Pie, "test");
    m.textures = vec![tex(TextureRole::Base, "frames.png", Some(p))];
    m.materials.push(mat);
    let mut mesh = mesh_from(
        &quad(
            -1.0,
            -1.0,
            1.0,
            1.0,
            0.0,
            Vec2::new(0.05, 0.05),
            Vec2::new(0.45, 0.95),
        ),
        0,
    );
    for c in &mut mesh.corners {
        c.animated = true;
    }
    add_mesh(&mut m, "frames", mesh, None);
    m
}

/// A red quad on the left (node 0, rigid) and a skinned white quad on the right (node 1)
/// bound fully to joint 0 of skin 0, whose joint is node 2 at the origin.
pub fn skinned_pair() -> Model {
    let mut m = Model::new(Format::Pet, "test");
    m.materials.push(Material::new("red", [0.6, 0.0, 0.0, 1.0]));
    m.materials
        .push(Material::new("white", [1.0, 1.0, 1.0, 1.0]));
    add_mesh(
        &mut m,
        "rigid",
        mesh_from(&quad(-2.0, -0.5, -1.0, 0.5, 0.0, Vec2::ZERO, Vec2::ONE), 0),
        None,
    );
    let mut skinned = mesh_from(&quad(0.5, -0.5, 1.5, 0.5, 0.0, Vec2::ZERO, Vec2::ONE), 1);
    skinned.skin = Some(0);
    skinned.influences = vec![
        SkinInfluence {
            joints: [0, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        };
        skinned.points.len()
    ];
    add_mesh(&mut m, "skinned", skinned, None);
    m.nodes.push(Node::new("joint", None, NodeKind::Bone));
    m.skins.push(Skin {
        name: "skin".into(),
        joints: vec![2],
        inverse_bind: vec![Mat4::IDENTITY],
    });
    m
}
