//! The view's own state ([`View`]: the camera, the view's shape, the colour mode, the
//! embedded layout) and its commands ([`ViewCommand`]: framing, standard views, orbit,
//! pan, zoom, colour mode). A view command is applied with [`ViewContext`]: the view
//! and a look at the open document (to frame it), nothing else of the app. What the
//! renderer draws with is put together by [`view_settings`] (from the view, the document
//! and the settings).

use crate::document::{Document, DocumentState};
use crate::render::{Camera, ColourMode, TEAM_COLOURS, ViewPreset, ViewSettings, clip_points};
use crate::settings::Settings;
use glam::Vec3;

/// What the renderer needs for this frame: `view`'s camera and colour mode, `document`'s
/// selection, visibility, grid and checks' highlight, `settings`' team, background,
/// overlays, shadows and light.
pub fn view_settings(view: &View, document: &DocumentState, settings: &Settings) -> ViewSettings {
    let [r, g, b] = settings.background;
    let current = document.inspect_current();
    ViewSettings {
        camera: view.camera,
        team: settings.team.min(TEAM_COLOURS.len() - 1),
        background: [r, g, b, 255],
        overlays: settings.overlays,
        shadows: settings.shadows,
        lighting: settings.lighting,
        selected: current.and(document.inspect.selected),
        node_mask: current
            .map(|d| document.inspect.node_mask(&d.model))
            .unwrap_or_default(),
        grid_unit: document.open.as_ref().and_then(|d| d.model.grid_unit),
        colour_mode: view.colour_mode,
        highlight: current
            .map(|d| document.checks.highlight(&d.model))
            .unwrap_or_default(),
    }
}

/// How the 3D view looks at the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// The camera of the 3D view.
    pub camera: Camera,
    /// Width / height of the 3D view (kept up to date by the window), for framing.
    pub aspect: f32,
    /// The user moved the camera (orbit, pan, zoom) since the model was framed; until
    /// then a resized view frames the model again.
    pub camera_moved: bool,
    /// How the view colours surfaces (View ▸ Colour mode).
    pub colour_mode: ColourMode,
    /// Only the view and the timeline: no menu bar, no side panel (a page in an
    /// `<iframe>`, [`crate::link`]).
    pub embedded: bool,
    /// The game camera's scroll speed on a map ([`crate::game_camera`]).
    pub scroll: crate::game_camera::Scroll,
}

impl Default for View {
    fn default() -> View {
        View {
            camera: Camera::default(),
            aspect: 1.0,
            camera_moved: false,
            colour_mode: ColourMode::default(),
            embedded: false,
            scroll: Default::default(),
        }
    }
}

/// A change to the view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ViewCommand {
    /// Frame the model (F); in a map, the selected object if there is one.
    Frame,
    /// A standard view (1 / 3 / 7 / 0).
    Preset(ViewPreset),
    /// Switch perspective / orthographic (5).
    ToggleOrtho,
    /// Orbit by a drag of this many points.
    Orbit {
        /// Horizontal drag.
        dx: f32,
        /// Vertical drag.
        dy: f32,
    },
    /// Pan by a drag of this many points in a view this many points tall.
    Pan {
        /// Horizontal drag.
        dx: f32,
        /// Vertical drag.
        dy: f32,
        /// Height of the view.
        view_height: f32,
    },
    /// Zoom by wheel notches (positive = closer).
    Zoom(f32),
    /// Colour surfaces this way (View ▸ Colour mode).
    SetColourMode(ColourMode),
    /// On a map, the game camera's keys held for `dt` seconds ([`crate::game_camera`]).
    GameStep {
        /// The keys held.
        held: crate::game_camera::Held,
        /// Seconds since the last frame.
        dt: f32,
    },
    /// On a map, move the camera this many world units away (negative: closer), within
    /// the game's zoom range.
    GameZoom(f32),
    /// On a map, turn the view to look north (the game's *Snap view to north*).
    FaceNorth,
}

/// What a view command reaches: the view, and the open document to frame.
#[derive(Debug)]
pub struct ViewContext<'a> {
    /// The view changed.
    pub view: &'a mut View,
    /// The open model, if any (framing fits it).
    pub document: Option<&'a Document>,
    /// The team colour drawn (legacy team-colour frames move points).
    pub team: usize,
    /// The node selected in the open document (a map frames it rather than the whole).
    pub selected: Option<usize>,
}

/// Applies `cmd` to the view.
pub fn apply(ctx: ViewContext<'_>, cmd: ViewCommand) {
    let view = ctx.view;
    match cmd {
        ViewCommand::Frame => match (ctx.document, ctx.selected) {
            (Some(doc), Some(node)) if doc.map().is_some() => view.frame_node(doc, node),
            (doc, _) => view.frame(doc, ctx.team),
        },
        ViewCommand::Preset(p) => {
            view.camera.set_preset(p);
            if p == ViewPreset::Game
                && let Some(doc) = ctx.document
                && let Some(map) = doc.map()
            {
                view.game_camera(map);
            }
        }
        ViewCommand::ToggleOrtho => view.camera.orthographic = !view.camera.orthographic,
        ViewCommand::Orbit { dx, dy } => {
            view.camera.orbit(dx, dy);
            view.camera_moved = true;
        }
        ViewCommand::Pan {
            dx,
            dy,
            view_height,
        } => {
            view.camera.pan(dx, dy, view_height);
            view.camera_moved = true;
        }
        ViewCommand::Zoom(steps) => {
            view.camera.zoom(steps);
            view.camera_moved = true;
        }
        ViewCommand::SetColourMode(mode) => view.colour_mode = mode,
        ViewCommand::GameStep { held, dt } => match ctx.document.and_then(|d| d.map()) {
            Some(map) => {
                crate::game_camera::step(view, map, held, dt);
            }
            None => view.scroll = Default::default(),
        },
        ViewCommand::GameZoom(units) => {
            use crate::game_camera::{MAX_DISTANCE, MIN_DISTANCE};
            // A camera already beyond the range is not pulled into it by the other key.
            let d = view.camera.distance;
            view.camera.distance = (d + units).clamp(MIN_DISTANCE.min(d), MAX_DISTANCE.max(d));
            view.camera_moved = true;
        }
        ViewCommand::FaceNorth => {
            // The Game view's turn (north up the screen), keeping the pitch.
            let mut game = view.camera;
            game.set_preset(ViewPreset::Game);
            view.camera.yaw = game.yaw;
            view.camera_moved = true;
        }
    }
}

/// How far Warzone 2100's camera starts from the point it looks at, world units
/// (`START_DISTANCE` of the game's display code; later versions start from the zoom in
/// the player's settings).
pub const GAME_START_DISTANCE: f32 = 2000.0;

impl View {
    /// The camera as the game starts a map: over player 0's start position (the map's
    /// centre where no player has one), looking north and 40° down from
    /// [`GAME_START_DISTANCE`], in perspective.
    pub fn game_camera(&mut self, map: &crate::map::scene::MapDetails) {
        use crate::map::scene::terrain::model_point;
        let tile = crate::map::TILE_UNITS as f32;
        let at = map.start_positions.first().and_then(|s| {
            let o = map.objects.iter().find(|o| o.index == s.index)?;
            Some(model_point(o.x as f32, o.y as f32, o.z as f32))
        });
        let centre = || {
            let (w, h) = (map.size.0 as f32 * tile, map.size.1 as f32 * tile);
            model_point(w / 2.0, h / 2.0, 0.0)
        };
        self.camera.target = at.unwrap_or_else(centre);
        self.camera.distance = GAME_START_DISTANCE;
        self.camera.orthographic = false;
        self.camera_moved = true;
    }

    /// Frames the whole of `document`'s current clip so it fills the view (keeps the
    /// view direction and projection), with team colour `team`.
    pub fn frame(&mut self, document: Option<&Document>, team: usize) {
        if let Some(doc) = document {
            // The whole of the current clip, so the model stays in view while it plays.
            let team = team.min(TEAM_COLOURS.len() - 1);
            let points = clip_points(&doc.model, doc.playback.clip, team);
            self.camera.frame_points(&points, self.aspect);
        }
        self.camera_moved = false;
    }

    /// Frames node `node` of `document` and what hangs under it, as posed now (a map's
    /// object: all its parts), with as much again of its surroundings around it; the
    /// whole model if they have nothing to draw.
    pub fn frame_node(&mut self, document: &Document, node: usize) {
        let model = &document.model;
        let mask = crate::render::inspect::isolate_mask(model, node);
        let points: Vec<Vec3> =
            crate::render::inspect::posed::posed_meshes(model, &document.pose, &mask)
                .into_iter()
                .flat_map(|m| m.points)
                .collect();
        let Some((lo, hi)) = points.iter().fold(None, |b: Option<(Vec3, Vec3)>, &p| {
            Some(b.map_or((p, p), |(lo, hi)| (lo.min(p), hi.max(p))))
        }) else {
            return self.frame(Some(document), 0);
        };
        // Twice its size around its centre: the object and the ground it stands on.
        let (centre, half) = ((lo + hi) / 2.0, hi - lo);
        self.camera
            .frame_points(&[centre - half, centre + half], self.aspect);
        // A resize keeps this framing rather than framing the whole map again.
        self.camera_moved = true;
    }

    /// Takes the view's width / height; re-frames `document` if the user has not moved
    /// the camera since it was framed.
    pub fn set_aspect(&mut self, aspect: f32, document: Option<&Document>, team: usize) {
        if aspect.is_finite() && aspect > 0.0 && (aspect - self.aspect).abs() > 1e-4 {
            self.aspect = aspect;
            if !self.camera_moved {
                self.frame(document, team);
            }
        }
    }
}
