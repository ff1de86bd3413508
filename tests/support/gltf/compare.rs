//! The round trips' yardstick: world-space vertices of an export read back compared with
//! what `vitrine info --json --world [--at CLIP:N] --vertices` reports (its library
//! function, `cli::info::model_json`), in the file's axes.

use super::{Read, assert_same_points};
use glam::{Mat4, Vec3};
use std::path::{Path, PathBuf};
use vitrine::cli::info::{InfoArgs, model_json, parse_at};
use vitrine::formats::{self, LoadOptions};
use vitrine::model::{Model, Pose, skin_positions};

/// Tolerance of every comparison (file units).
pub const TOL: f32 = 1e-4;
/// Export scale of the round trips (not 1, so a translation left unscaled shows).
pub const SCALE: f32 = 0.5;

/// A model file and what it loads to.
pub struct Loaded {
    /// The file.
    pub path: PathBuf,
    /// The model.
    pub model: Model,
}

/// Loads `path` (it must load).
pub fn load(path: &Path) -> Loaded {
    Loaded {
        path: path.to_path_buf(),
        model: formats::load_path(path, &LoadOptions::default()).expect("loads"),
    }
}

fn mat(v: &serde_json::Value) -> Mat4 {
    let a: Vec<f32> = v
        .as_array()
        .expect("16 floats")
        .iter()
        .map(|x| x.as_f64().expect("number") as f32)
        .collect();
    Mat4::from_cols_slice(&a)
}

fn vec3(v: &serde_json::Value) -> Vec3 {
    let c = |i: usize| v[i].as_f64().expect("number") as f32;
    Vec3::new(c(0), c(1), c(2))
}

impl Loaded {
    /// Compares the export's world-space vertices with `info --json --world [--at AT]
    /// --vertices` for every node that shows a mesh. `anim`: the glTF animation standing
    /// for AT and the time into it. Returns how many nodes were checked.
    pub fn compare_with_info(
        &self,
        read: &Read,
        at: Option<&str>,
        anim: Option<(&str, f32)>,
    ) -> usize {
        let (path, model) = (&self.path, &self.model);
        let args = InfoArgs {
            files: vec![path.clone()],
            json: true,
            world: true,
            at: at.map(String::from),
            vertices: true,
            ..Default::default()
        };
        let info = model_json(model, path, &args).expect("info JSON");
        let pose = match at {
            Some(at) => {
                let (clip, time) = parse_at(model, at).expect("--at");
                Pose::sample(model, Some(clip), time, 0)
            }
            None => Pose::rest(model),
        };
        let animation = anim.map(|(name, _)| read.animation(name));
        let time = anim.map_or(0.0, |a| a.1);
        let axes = &model.axes;
        let mut checked = 0;
        for (i, node) in model.nodes.iter().enumerate() {
            let Some(m) = node.mesh else { continue };
            let mesh = &model.meshes[m];
            if mesh.triangle_count() == 0 {
                continue;
            }
            let got: Vec<Vec3> = read
                .node_vertices(i, animation.as_ref(), time)
                .into_iter()
                .map(|p| axes.point_to_file(p / SCALE))
                .collect();
            let what = format!("{} node {i} ({}) at {at:?}", path.display(), node.name);
            if !pose.visible[i] {
                // Hidden: scaled to nothing, every vertex at the node's origin.
                let origin = axes.point_to_file(pose.world[i].transform_point3(Vec3::ZERO));
                assert_same_points(&what, &got, &[origin], TOL);
                checked += 1;
                continue;
            }
            let mut used = vec![false; mesh.points.len()];
            for c in &mesh.corners {
                used[c.point as usize] = true;
            }
            let want: Vec<Vec3> = if mesh.skin.is_some() && !mesh.influences.is_empty() {
                // Skinned: the pose's skinning (info lists rest positions only).
                skin_positions(model, m, &pose)
                    .into_iter()
                    .map(|p| axes.point_to_file(p))
                    .collect()
            } else {
                let world = mat(&info["nodes"][i]["world"]);
                info["meshes"][m]["positions"]
                    .as_array()
                    .expect("positions")
                    .iter()
                    .map(|p| world.transform_point3(vec3(p)))
                    .collect()
            };
            let want: Vec<Vec3> = want
                .into_iter()
                .zip(&used)
                .filter(|(_, u)| **u)
                .map(|(p, _)| p)
                .collect();
            assert_same_points(&what, &got, &want, TOL);
            checked += 1;
        }
        checked
    }

    /// [`Loaded::compare_with_info`] at each frame of `frames`: `info --at
    /// INFO_CLIP:frame` against glTF animation `anim` at that frame's time in clip
    /// `clip` of the model.
    pub fn compare_frames(
        &self,
        read: &Read,
        (info_clip, clip): (&str, usize),
        anim: &str,
        frames: &[u32],
    ) {
        for &frame in frames {
            let t = self.model.clips[clip].frame_time(frame as f32);
            let at = format!("{info_clip}:{frame}");
            self.compare_with_info(read, Some(&at), Some((anim, t)));
        }
    }
}
