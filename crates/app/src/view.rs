//! The view's own state ([`View`]: the camera, the view's shape, the colour mode, the
//! embedded layout) and its commands ([`ViewCommand`]: framing, standard views, orbit,
//! pan, zoom, colour mode). A view command is applied with [`ViewContext`]: the view
//! and a look at the open document (to frame it), nothing else of the app. What the
//! renderer draws with is put together by [`view_settings`] (from the view, the document
//! and the settings).

use crate::document::{Document, DocumentState};
use crate::model::Model;
use crate::render::{Camera, ColourMode, TEAM_COLOURS, ViewPreset, ViewSettings, clip_points};
use crate::settings::Settings;
use glam::Vec3;

/// What the renderer needs for this frame: `view`'s camera, colour mode and scene time,
/// `document`'s selection, visibility, grid and checks' highlight, `settings`' team,
/// background, overlays, shadows (a scene's own where it has them, a map's: the map
/// setting), light and a map's fog and sky.
pub fn view_settings(view: &View, document: &DocumentState, settings: &Settings) -> ViewSettings {
    let [r, g, b] = settings.background;
    let current = document.inspect_current();
    ViewSettings {
        camera: view.camera,
        team: settings.team.min(TEAM_COLOURS.len() - 1),
        background: [r, g, b, 255],
        overlays: settings.overlays,
        shadows: match document.open.as_ref() {
            Some(d) if d.model.environment.shadows.is_some() => settings.map_shadows,
            _ => settings.shadows,
        },
        shadow_reach: None,
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
        environment: settings.map_fog,
        time: view.scene_time,
    }
}

/// How often a moving scene (a map's water and sky) is drawn: about 30 times a second,
/// enough for water moving a few pixels a second.
pub const SCENE_FRAME: std::time::Duration = std::time::Duration::from_millis(33);

/// Moves the view's scene clock on by `dt` seconds where `model` has something that moves
/// with it — a scrolling material, or a turning sky while fog and sky are shown — and
/// `settings` let it move (*Moving water and sky*); says whether it moved, so the caller
/// asks for the next frame. Nothing moving, nothing asked: an idle window stays idle.
pub fn advance_scene_time(
    view: &mut View,
    model: Option<&Model>,
    settings: &Settings,
    dt: f32,
) -> bool {
    let Some(model) = model else {
        return false;
    };
    if !settings.map_animate || !dt.is_finite() || dt <= 0.0 {
        return false;
    }
    let scrolls = model.materials.iter().any(|m| m.uv_scroll != [0.0; 2]);
    let turns = settings.map_fog
        && model
            .environment
            .sky
            .as_ref()
            .is_some_and(|s| s.turn_deg_per_s != 0.0);
    if !scrolls && !turns {
        return false;
    }
    // Wrapped well inside f32's precision: the water repeats every 10 s, a turn every
    // 720 s; 7200 s is a multiple of both.
    view.scene_time = (view.scene_time + dt.min(0.25)).rem_euclid(7200.0);
    true
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
    /// Seconds of scene time: where a map's water and sky are ([`advance_scene_time`]).
    pub scene_time: f32,
    /// The game camera's scroll speed on a map ([`crate::game_camera`]).
    pub scroll: crate::game_motion::Scroll,
}

impl Default for View {
    fn default() -> View {
        View {
            camera: Camera::default(),
            aspect: 1.0,
            camera_moved: false,
            colour_mode: ColourMode::default(),
            embedded: false,
            scene_time: 0.0,
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
        held: crate::game_motion::Held,
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
                let moved =
                    crate::game_motion::step(&mut view.camera, &mut view.scroll, map, held, dt);
                view.camera_moved |= moved;
            }
            None => view.scroll = Default::default(),
        },
        ViewCommand::GameZoom(units) => {
            use crate::game_motion::{MAX_DISTANCE, MIN_DISTANCE};
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

/// How far Warzone 2100's camera starts from the point it looks at, world units (the
/// renderer's [`crate::render::GAME_START_DISTANCE`]).
pub use crate::render::GAME_START_DISTANCE;

impl View {
    /// The camera as the game starts a map: over player 0's HQ, else their start position
    /// (the map's centre where player 0 has neither: [`MapDetails::game_start_target`]),
    /// looking north and 40° down from [`GAME_START_DISTANCE`], in perspective: close to
    /// the game's picture, which `vitrine render --view game` draws exactly.
    ///
    /// [`MapDetails::game_start_target`]: crate::map::scene::MapDetails::game_start_target
    pub fn game_camera(&mut self, map: &crate::map::scene::MapDetails) {
        self.camera.set_game_start(map.game_start_target());
        self.camera_moved = true;
    }

    /// Frames the whole of `document`'s current clip so it fills the view (keeps the
    /// view direction and projection), with team colour `team`.
    pub fn frame(&mut self, document: Option<&Document>, team: usize) {
        if let Some(doc) = document {
            // The whole of the current clip, so the model stays in view while it plays.
            let team = team.min(TEAM_COLOURS.len() - 1);
            let clip = doc.playback.clip;
            let points = doc.framing.points((doc.generation, clip, team), || {
                clip_points(&doc.model, clip, team)
            });
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
            crate::render::inspect::posed::posed_points_of(model, &document.pose, &mask);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Material, Sky};

    fn scrolling() -> Model {
        let mut m = Model::new(Format::Pie, "map");
        let mut water = Material::new("water", [1.0; 4]);
        water.uv_scroll = [0.1, 0.0];
        m.materials.push(water);
        m
    }

    fn turning_sky() -> Model {
        let mut m = Model::new(Format::Pie, "map");
        m.textures.push(crate::model::TextureRef::new(
            crate::model::TextureRole::Base,
            "sky.png",
        ));
        m.environment.sky = Some(Sky {
            mesh: crate::map::scene::atmosphere::sky_mesh(),
            texture: 0,
            scale: [1.0; 3],
            lift: 0.0,
            turn_deg_per_s: 0.5,
            fog_below: 0.5,
            black_below: -0.7,
        });
        m
    }

    #[test]
    fn the_scene_clock_runs_only_for_what_moves_and_only_when_allowed() {
        let on = Settings {
            map_fog: true,
            ..Settings::default()
        };
        let still = Settings {
            map_animate: false,
            ..on.clone()
        };
        let no_fog = Settings::default();
        let plain = Model::new(Format::Pie, "model");
        // (model, settings, dt, moves)
        let cases: [(Option<&Model>, &Settings, f32, bool); 8] = [
            (None, &on, 0.1, false),
            (Some(&plain), &on, 0.1, false),
            (Some(&scrolling()), &on, 0.1, true),
            (Some(&scrolling()), &still, 0.1, false),
            (Some(&scrolling()), &on, 0.0, false),
            (Some(&turning_sky()), &on, 0.1, true),
            // A sky that is not shown does not keep the window busy.
            (Some(&turning_sky()), &no_fog, 0.1, false),
            (Some(&scrolling()), &no_fog, 0.1, true),
        ];
        for (i, (model, settings, dt, moves)) in cases.into_iter().enumerate() {
            let mut view = View::default();
            let moved = advance_scene_time(&mut view, model, settings, dt);
            assert_eq!(moved, moves, "case {i}");
            let want = if moves { dt } else { 0.0 };
            assert_eq!(view.scene_time, want, "case {i}");
        }
    }

    #[test]
    fn the_view_asks_for_the_fog_setting_and_the_scene_time() {
        let view = View {
            scene_time: 3.5,
            ..View::default()
        };
        // Off by default.
        let v = view_settings(&view, &DocumentState::default(), &Settings::default());
        assert!(!v.environment);
        assert_eq!(v.time, 3.5);
        let on = Settings {
            map_fog: true,
            ..Settings::default()
        };
        assert!(view_settings(&view, &DocumentState::default(), &on).environment);
    }
}
