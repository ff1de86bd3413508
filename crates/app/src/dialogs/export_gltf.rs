//! File ▸ Export glTF… (Ctrl+E): the open model to `.glb` / `.gltf` with the team the
//! view shows and every clip. The save dialog is the front-end's
//! ([`crate::effect::Effect::PickExportPath`]); the export runs as a job of the
//! host (a worker thread on the desktop) so the window keeps drawing, and its files go
//! through the host ([`crate::host::Output::write`]); a toast says where the file
//! went, or why it could not be written.

use crate::export::gltf::{ClipChoice, ExportOptions, ImageCache, export, writer};
use crate::host::Host;
use crate::model::Model;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// The export settings the window uses: the view's team, every clip, the format's scale.
pub fn window_options(team: usize) -> ExportOptions {
    ExportOptions {
        team,
        clips: ClipChoice::All,
        scale: None,
        ..Default::default()
    }
}

/// Exports `model` to `path`; the toast text on success (naming the path and the first
/// warnings) or on failure.
pub fn run(
    host: &dyn Host,
    model: &Model,
    path: &Path,
    options: &ExportOptions,
) -> Result<String, String> {
    let doc =
        export(model, options, &mut ImageCache::new(&host.files())).map_err(|e| e.to_string())?;
    let warnings = doc.warnings.clone();
    writer::write_with(doc, path, |p, bytes| host.write(p, bytes))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut text = format!("Exported glTF to {}", path.display());
    match warnings.as_slice() {
        [] => {}
        [one] => text.push_str(&format!(" (warning: {one})")),
        [first, rest @ ..] => text.push_str(&format!(" (warning: {first}; {} more)", rest.len())),
    }
    Ok(text)
}

/// Exports running as the host's jobs.
#[derive(Debug, Default)]
pub struct ExportJobs {
    running: Vec<Receiver<Result<String, String>>>,
}

impl ExportJobs {
    /// Starts exporting `model` to `path` on `host`; `repaint` is called when it is done.
    pub fn start(
        &mut self,
        host: Arc<dyn Host>,
        model: Model,
        path: PathBuf,
        options: ExportOptions,
        repaint: impl FnOnce() + Send + 'static,
    ) -> Result<(), String> {
        let (tx, rx) = channel();
        let runner = host.clone();
        runner
            .spawn(
                "glTF export",
                Box::new(move || {
                    let _ = tx.send(run(&*host, &model, &path, &options));
                    repaint();
                }),
            )
            .map_err(|e| format!("cannot start the export: {e}"))?;
        self.running.push(rx);
        Ok(())
    }

    /// Starts exporting `document` (if any) to `path` on `host`; a failure to start is a
    /// toast. What both front-ends' shells do with [`crate::effect::Effect::ExportGltf`].
    pub fn start_document(
        &mut self,
        document: Option<&crate::document::Document>,
        host: Arc<dyn Host>,
        toasts: &mut crate::toasts::Toasts,
        path: PathBuf,
        options: ExportOptions,
        repaint: impl FnOnce() + Send + 'static,
    ) {
        let Some(doc) = document else {
            return;
        };
        if let Err(e) = self.start(host, doc.model.clone(), path, options, repaint) {
            toasts.error(e);
        }
    }

    /// Whether an export is still running.
    pub fn busy(&self) -> bool {
        !self.running.is_empty()
    }

    /// The results of the exports that finished since the last call.
    pub fn poll(&mut self) -> Vec<Result<String, String>> {
        let mut done = Vec::new();
        self.running.retain(|rx| match rx.try_recv() {
            Ok(r) => {
                done.push(r);
                false
            }
            Err(TryRecvError::Empty) => true,
            Err(TryRecvError::Disconnected) => {
                done.push(Err("the export stopped unexpectedly".into()));
                false
            }
        });
        done
    }
}

/// The name the save dialog proposes: the model's stem with `.glb`.
pub fn default_file_name(stem: &str) -> String {
    format!("{stem}.glb")
}

/// A File ▸ Export glTF… intent.
#[derive(Debug, Clone, PartialEq)]
pub enum GltfCommand {
    /// Ask where to save the open model as glTF.
    Dialog,
    /// Export the open model as glTF to this `.glb` / `.gltf` path.
    Export(PathBuf),
}

/// What a glTF command reaches: the open model, the team drawn, the toasts.
pub struct GltfContext<'a> {
    /// The open model, if any.
    pub document: Option<&'a crate::document::Document>,
    /// The team colour the view shows (the export's).
    pub team: usize,
    /// Where "nothing to export" goes.
    pub toasts: &'a mut crate::toasts::Toasts,
}

/// Applies `cmd`: the save dialog or the export, for the front-end to run.
pub fn apply(ctx: GltfContext<'_>, cmd: GltfCommand) -> Option<crate::effect::Effect> {
    use crate::effect::Effect;
    let Some(doc) = ctx.document else {
        ctx.toasts.error("Nothing to export: no model is open");
        return None;
    };
    match cmd {
        GltfCommand::Dialog => {
            // The model's own folder: an export usually goes beside its source.
            let start = doc
                .path
                .parent()
                .and_then(|p| p.as_disk().map(Path::to_path_buf));
            Some(Effect::PickExportPath(
                start,
                default_file_name(&doc.stem()),
            ))
        }
        GltfCommand::Export(path) => Some(Effect::ExportGltf(path, window_options(ctx.team))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Material, Mesh, Node, NodeKind, Submesh};
    use glam::Vec3;

    fn triangle() -> Model {
        let mut m = Model::new(Format::Pmf, "test");
        m.materials.push(Material::new("m", [1.0; 4]));
        m.meshes.push(Mesh {
            name: "tri".into(),
            points: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            corners: (0..3)
                .map(|i| crate::model::Corner::new(i, glam::Vec2::ZERO))
                .collect(),
            submeshes: vec![Submesh {
                first_triangle: 0,
                triangle_count: 1,
                material: 0,
            }],
            ..Mesh::default()
        });
        let mut n = Node::new("tri", None, NodeKind::Piece);
        n.mesh = Some(0);
        m.nodes.push(n);
        m
    }

    #[test]
    fn a_job_writes_the_file_and_reports_its_path() {
        let host = crate::host::MemoryHost::new(Default::default());
        let path = PathBuf::from("out/tri.glb");
        let mut jobs = ExportJobs::default();
        jobs.start(
            host.clone(),
            triangle(),
            path.clone(),
            window_options(3),
            || {},
        )
        .unwrap();
        let mut results = Vec::new();
        for _ in 0..500 {
            results.extend(jobs.poll());
            if !jobs.busy() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(results.len(), 1);
        let text = results.remove(0).unwrap();
        assert!(text.contains(&path.display().to_string()), "{text}");
        assert_eq!(&host.written(&path).unwrap()[..4], b"glTF");
    }

    #[test]
    fn an_unwritable_path_is_reported() {
        let host = crate::host::MemoryHost::new(
            crate::files::MemorySource::new().with("taken/x.glb/inside", "x"),
        );
        let err = run(
            &*host,
            &triangle(),
            Path::new("taken/x.glb"),
            &window_options(0),
        )
        .unwrap_err();
        assert!(err.starts_with("cannot write"), "{err}");
        assert_eq!(default_file_name("tank"), "tank.glb");
    }
}
