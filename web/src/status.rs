//! What the page reports to the pages that embed it (and to the browser tests):
//! `window.vitrine.status()` returns [`PageStatus`] as a plain object,
//! `{state: "loading" | "ready" | "error", model: <file name or null>, error: <message or
//! null>, backend: "webgpu" | "webgl2"}`, with `gallery: {tiles, thumbnails: {done, total}, failed}`
//! added while a gallery is open, `ignored: ["team=banana: not a team colour (0 to 15)", …]`
//! while the page's link had fields that were ignored (each with why), and the page title
//! names the open model.

use serde::Serialize;

/// Where the page is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LoadState {
    /// Starting, or a model, archive or URL is being read.
    Loading,
    /// A model or a gallery is on screen.
    Ready,
    /// The last open failed (its message is in [`PageStatus::error`]); the page keeps
    /// working.
    Error,
}

/// Which browser GPU interface draws the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// WebGPU (`navigator.gpu`).
    Webgpu,
    /// WebGL2, where the browser has no WebGPU (or not in this context: WebGPU needs a
    /// secure page, HTTPS or localhost).
    Webgl2,
}

impl Backend {
    /// The browser interface behind a wgpu adapter; `None` for a native backend.
    pub fn of(backend: wgpu::Backend) -> Option<Backend> {
        match backend {
            wgpu::Backend::BrowserWebGpu => Some(Backend::Webgpu),
            wgpu::Backend::Gl => Some(Backend::Webgl2),
            _ => None,
        }
    }
}

/// The page's state as `window.vitrine.status()` returns it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageStatus {
    /// Loading, ready or error.
    pub state: LoadState,
    /// The open model's file name; `None` while a gallery is on screen or before anything
    /// is open.
    pub model: Option<String>,
    /// Why the last open failed.
    pub error: Option<String>,
    /// The GPU interface; `None` until the page has a device.
    pub backend: Option<Backend>,
    /// Frames the app has drawn (`window.vitrine.frames()`, for frame-rate figures); not
    /// part of the status object.
    #[serde(skip)]
    pub frames: u64,
    /// The gallery, while one is open (shown, or kept behind the viewer); left out of
    /// the object when there is none, so the documented fields are all there is then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gallery: Option<GalleryStatus>,
    /// The fields of the page's link (its address's fragment) last read that were
    /// ignored, each with why; left out of the object when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
}

/// An open gallery as `window.vitrine.status().gallery` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GalleryStatus {
    /// Its tiles: the models of the archive, folder or dropped files.
    pub tiles: usize,
    /// Its thumbnails' progress (both 0 until they start; done = total when finished,
    /// failed ones included).
    pub thumbnails: Progress,
    /// Tiles without a picture because their model or its thumbnail failed (each tile
    /// says why).
    pub failed: usize,
}

/// How many of a set of things are done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Finished.
    pub done: usize,
    /// Asked for.
    pub total: usize,
}

impl Default for PageStatus {
    fn default() -> PageStatus {
        PageStatus {
            state: LoadState::Loading,
            model: None,
            error: None,
            backend: None,
            frames: 0,
            gallery: None,
            ignored: Vec::new(),
        }
    }
}

impl PageStatus {
    /// The object's JSON text (what JavaScript receives, parsed).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"state":"error","model":null,"error":"{e}","backend":null}}"#)
        })
    }

    /// The page title: the open model's name first, as the desktop window's title.
    pub fn title(&self) -> String {
        match &self.model {
            Some(name) => format!("{name} — Vitrine"),
            None => "Vitrine".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_object_has_the_documented_shape() {
        let ready = PageStatus {
            state: LoadState::Ready,
            model: Some("tank.pie".into()),
            error: None,
            backend: Some(Backend::Webgl2),
            frames: 12,
            gallery: None,
            ignored: Vec::new(),
        };
        assert_eq!(
            ready.to_json(),
            r#"{"state":"ready","model":"tank.pie","error":null,"backend":"webgl2"}"#
        );
        let failed = PageStatus {
            state: LoadState::Error,
            model: None,
            error: Some("bad.pie: line 3: expected POINTS".into()),
            backend: Some(Backend::Webgpu),
            frames: 0,
            gallery: Some(GalleryStatus {
                tiles: 102,
                thumbnails: Progress {
                    done: 40,
                    total: 102,
                },
                failed: 1,
            }),
            ignored: vec!["team=banana: not a team colour (0 to 15)".into()],
        };
        let v: serde_json::Value = serde_json::from_str(&failed.to_json()).unwrap();
        assert_eq!(v["state"], "error");
        assert_eq!(v["model"], serde_json::Value::Null);
        assert_eq!(v["error"], "bad.pie: line 3: expected POINTS");
        assert_eq!(v["backend"], "webgpu");
        assert_eq!(v["gallery"]["tiles"], 102);
        assert_eq!(v["gallery"]["thumbnails"]["done"], 40);
        assert_eq!(v["gallery"]["thumbnails"]["total"], 102);
        assert_eq!(v["gallery"]["failed"], 1);
        assert_eq!(v["ignored"][0], "team=banana: not a team colour (0 to 15)");
    }

    #[test]
    fn the_title_names_the_model() {
        let mut s = PageStatus::default();
        assert_eq!(s.title(), "Vitrine");
        s.model = Some("blderik_anim.pie".into());
        assert_eq!(s.title(), "blderik_anim.pie — Vitrine");
    }

    #[test]
    fn browser_backends_are_named_native_ones_are_not() {
        assert_eq!(
            Backend::of(wgpu::Backend::BrowserWebGpu),
            Some(Backend::Webgpu)
        );
        assert_eq!(Backend::of(wgpu::Backend::Gl), Some(Backend::Webgl2));
        assert_eq!(Backend::of(wgpu::Backend::Vulkan), None);
    }
}
