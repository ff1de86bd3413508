//! The light's commands ([`LightCommand`]) and how they change the light (kept in the
//! settings), with a narrow [`LightContext`].

use crate::render::Lighting;

/// Degrees the light turns per point of Ctrl + drag.
const DEGREES_PER_POINT: f32 = 0.4;

/// A change to the light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LightCommand {
    /// Turn the light by a drag of this many points (right / down), while dragging.
    Drag {
        /// Horizontal drag.
        dx: f32,
        /// Vertical drag.
        dy: f32,
    },
    /// Use these values (a slider moving); saved with [`LightCommand::Save`].
    Set(Lighting),
    /// Follow the camera, or stay fixed to the model (the light stays where it is).
    FollowCamera(bool),
    /// Brighter (positive) or dimmer by this many steps.
    Brighten(i32),
    /// Back to the default light.
    Reset,
    /// A drag or a slider has finished: save the settings.
    Save,
}

/// What a light command reaches: the settings (the light is theirs), the toasts (a
/// failed save), the camera (a light that starts following it keeps its direction).
pub struct LightContext<'a> {
    /// The settings holding the light.
    pub settings: &'a mut crate::settings::SettingsStore,
    /// Where a failed save goes.
    pub toasts: &'a mut crate::toasts::Toasts,
    /// The view's camera.
    pub camera: &'a crate::render::Camera,
}

/// Applies `cmd` to the light.
pub fn apply(ctx: LightContext<'_>, cmd: LightCommand) {
    let light = &mut ctx.settings.lighting;
    let save = match cmd {
        LightCommand::Drag { dx, dy } => {
            light.turn(dx * DEGREES_PER_POINT, -dy * DEGREES_PER_POINT);
            false
        }
        LightCommand::Set(l) => {
            *light = l.sanitised();
            false
        }
        LightCommand::FollowCamera(on) => {
            light.set_follows_camera(on, ctx.camera);
            false
        }
        LightCommand::Brighten(steps) => {
            light.brighten(steps);
            false
        }
        LightCommand::Reset => {
            *light = Lighting::DEFAULT;
            false
        }
        LightCommand::Save => true,
    };
    // The end of a drag writes at once; other changes are written within a second
    // (the settings' store).
    if save && let Err(e) = ctx.settings.flush() {
        ctx.toasts.error(e);
    }
}
