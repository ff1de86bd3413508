//! Views as links: what the view shows, as the text of a URL fragment
//! (`model=structs/blderik_anim.pie&team=3&clip=0&t=0.4&cam=45,30,312.5,0,40,0,p`), so
//! a page can keep it in its address and open the same view from it.
//!
//! Fields, each optional, in any order, `&`-separated, values percent-encoded:
//! - `model`: the open model's path as the page knows it (an archive entry's path
//!   inside the archive, or a file's path among the page's files);
//! - `design`: a Warzone 2100 assembly instead of a model, as [`Design::to_line`] writes
//!   it (`template:ViperMG01Wheels`, `structure:A0LightFactory`, `parts:body=…`),
//!   assembled from the page's data roots; with both, `design` is shown and `model` is
//!   left out with a note;
//! - `team`: the team colour's index;
//! - `clip`: the clip, by name or by index;
//! - `t`: the timeline's time in seconds, paused there (no `t`: the animation plays);
//! - `cam`: `yaw,pitch,distance,x,y,z,p|o` — the orbit's angles in degrees, its distance
//!   and target, perspective or orthographic;
//! - `embed=1`: only the view and the timeline (for an `<iframe>`).
//!
//! [`parse`] reads each field on its own: one whose value makes no sense is left out and
//! named, the others still apply. Unknown fields are ignored.

use super::state::AppState;
use super::timeline::playback::TimelineCommand;
use crate::files::{FileRef, percent_decode};
use crate::render::TEAM_COLOURS;
use crate::wz::Design;

/// A clip named in a link.
#[derive(Debug, Clone, PartialEq)]
pub enum ClipRef {
    /// By its index in the model's clips.
    Index(usize),
    /// By its name.
    Name(String),
}

/// The orbit camera in a link: angles in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraLink {
    /// Rotation about +Y, degrees.
    pub yaw: f32,
    /// Elevation, degrees, in [−90, 90] (the view stops just short of ±90).
    pub pitch: f32,
    /// Distance from the target (> 0).
    pub distance: f32,
    /// Point orbited around.
    pub target: [f32; 3],
    /// Orthographic instead of perspective.
    pub orthographic: bool,
}

/// What a link says about the view; `None` fields are not said.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ViewLink {
    /// The model's path.
    pub model: Option<String>,
    /// An assembly to show instead of a model.
    pub design: Option<Design>,
    /// Team colour index.
    pub team: Option<usize>,
    /// The clip.
    pub clip: Option<ClipRef>,
    /// The time, paused there.
    pub time: Option<f32>,
    /// The camera.
    pub camera: Option<CameraLink>,
    /// Only the view and the timeline.
    pub embed: bool,
}

/// Reads a fragment (with or without its `#`): the link, and a note for each field whose
/// value makes no sense (`team=banana: not a team colour (0 to 15)`), left out of it.
pub fn parse(fragment: &str) -> (ViewLink, Vec<String>) {
    let mut link = ViewLink::default();
    let mut bad = Vec::new();
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    for field in fragment.split('&').filter(|f| !f.is_empty()) {
        let (key, raw) = field.split_once('=').unwrap_or((field, ""));
        let value = percent_decode(raw);
        let ok = match key {
            "model" => parse_model(&value).map(|m| link.model = Some(m)),
            "design" => parse_design(&value).map(|d| link.design = Some(d)),
            "team" => parse_team(&value).map(|t| link.team = Some(t)),
            "clip" => parse_clip(&value).map(|c| link.clip = Some(c)),
            "t" => parse_time(&value).map(|t| link.time = Some(t)),
            "cam" => parse_camera(&value).map(|c| link.camera = Some(c)),
            "embed" => parse_flag(&value).map(|e| link.embed = e),
            _ => Ok(()),
        };
        if let Err(why) = ok {
            bad.push(format!("{key}={value}: {why}"));
        }
    }
    if link.design.is_some()
        && let Some(m) = link.model.take()
    {
        bad.push(format!("model={m}: the link's design is shown instead"));
    }
    (link, bad)
}

fn parse_design(v: &str) -> Result<Design, String> {
    Design::from_line(v)
        .filter(|d| match d {
            Design::Template { id } | Design::Structure { id } => !id.trim().is_empty(),
            Design::Parts(p) => !p.body.trim().is_empty(),
        })
        .ok_or_else(|| {
            "not a design (template:NAME, structure:NAME or parts:body=…;propulsion=…)".into()
        })
}

fn parse_model(v: &str) -> Result<String, String> {
    if v.trim().is_empty() {
        Err("no model path".into())
    } else {
        Ok(v.to_string())
    }
}

fn parse_team(v: &str) -> Result<usize, String> {
    let n = TEAM_COLOURS.len();
    v.parse::<usize>()
        .ok()
        .filter(|t| *t < n)
        .ok_or_else(|| format!("not a team colour (0 to {})", n - 1))
}

fn parse_clip(v: &str) -> Result<ClipRef, String> {
    if v.is_empty() {
        return Err("no clip name or number".into());
    }
    Ok(match v.parse::<usize>() {
        Ok(i) => ClipRef::Index(i),
        Err(_) => ClipRef::Name(v.to_string()),
    })
}

fn parse_time(v: &str) -> Result<f32, String> {
    v.parse::<f32>()
        .ok()
        .filter(|t| t.is_finite() && *t >= 0.0)
        .ok_or_else(|| "not a time in seconds".into())
}

fn parse_flag(v: &str) -> Result<bool, String> {
    match v {
        "1" | "true" | "" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err("not 1 or 0".into()),
    }
}

fn parse_camera(v: &str) -> Result<CameraLink, String> {
    const WHAT: &str = "not yaw,pitch,distance,x,y,z,p|o";
    let parts: Vec<&str> = v.split(',').collect();
    if !(6..=7).contains(&parts.len()) {
        return Err(WHAT.into());
    }
    let mut n = [0f32; 6];
    for (slot, text) in n.iter_mut().zip(&parts) {
        *slot = text
            .parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or(WHAT)?;
    }
    let orthographic = match parts.get(6).copied() {
        None | Some("p") => false,
        Some("o") => true,
        Some(_) => return Err(WHAT.into()),
    };
    if n[1].abs() > 90.0 {
        return Err("the pitch must be between -90 and 90 degrees".into());
    }
    if n[2] <= 0.0 {
        return Err("the distance must be above 0".into());
    }
    Ok(CameraLink {
        yaw: n[0],
        pitch: n[1],
        distance: n[2],
        target: [n[3], n[4], n[5]],
        orthographic,
    })
}

impl ViewLink {
    /// The fragment's text (without `#`): the fields that are said, in a fixed order.
    pub fn to_fragment(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        if let Some(m) = &self.model {
            out.push(format!("model={}", percent_encode(m)));
        }
        if let Some(d) = &self.design {
            out.push(format!("design={}", percent_encode(&d.to_line())));
        }
        if let Some(t) = self.team {
            out.push(format!("team={t}"));
        }
        match &self.clip {
            Some(ClipRef::Index(i)) => out.push(format!("clip={i}")),
            Some(ClipRef::Name(n)) => out.push(format!("clip={}", percent_encode(n))),
            None => {}
        }
        if let Some(t) = self.time {
            out.push(format!("t={}", number(t, 4)));
        }
        if let Some(c) = &self.camera {
            let [x, y, z] = c.target.map(significant);
            out.push(format!(
                "cam={},{},{},{x},{y},{z},{}",
                number(c.yaw, 2),
                number(c.pitch, 2),
                significant(c.distance),
                if c.orthographic { "o" } else { "p" }
            ));
        }
        if self.embed {
            out.push("embed=1".into());
        }
        out.join("&")
    }

    /// The link to what `state` shows: its model (named by `model_path`) or assembly
    /// (its design), team, clip (when the model has several), time (when paused) and
    /// camera.
    pub fn of_state(state: &AppState, embed: bool) -> ViewLink {
        let team = state.services.team();
        ViewLink::of_view(&state.view, team, state.document.open.as_ref(), embed)
    }

    /// The link to `document` (if any) seen through `view` in team colour `team`, as
    /// [`ViewLink::of_state`] makes it.
    pub fn of_view(
        view: &crate::view::View,
        team: usize,
        document: Option<&crate::document::Document>,
        embed: bool,
    ) -> ViewLink {
        let c = &view.camera;
        let mut link = ViewLink {
            team: Some(team),
            camera: Some(CameraLink {
                yaw: c.yaw.to_degrees().rem_euclid(360.0),
                pitch: c.pitch.to_degrees(),
                distance: c.distance,
                target: c.target.to_array(),
                orthographic: c.orthographic,
            }),
            embed,
            ..ViewLink::default()
        };
        if let Some(doc) = document {
            match crate::panels::assemble::state::design_of(&doc.path) {
                Some(design) => link.design = Some(design),
                None => link.model = model_path(&doc.path),
            }
            let clips = &doc.model.clips;
            if let Some(i) = doc.playback.clip.filter(|_| clips.len() > 1) {
                let name = &clips[i].name;
                let unique = !name.is_empty() && doc.model.clip_index(name) == Some(i);
                // A name that reads as a number would be taken for an index.
                link.clip = Some(if unique && name.parse::<usize>().is_err() {
                    ClipRef::Name(name.clone())
                } else {
                    ClipRef::Index(i)
                });
            }
            if doc.playback.clip.is_some() && !doc.playback.playing {
                link.time = Some(doc.playback.time);
            }
        }
        link
    }

    /// Shows the link's team, then its clip, time and camera on the open model; returns
    /// a note for each that does not fit it (a clip the model does not have).
    pub fn apply_view(&self, state: &mut AppState) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(team) = self.team
            && team != state.services.settings.team
        {
            state.services.settings.team = team;
        }
        let team = state.view_settings().team;
        if let Some(doc) = &mut state.document.open {
            let clips = &doc.model.clips;
            let clip = match &self.clip {
                None => None,
                Some(ClipRef::Index(i)) if *i < clips.len() => Some(*i),
                Some(ClipRef::Name(n)) if doc.model.clip_index(n).is_some() => {
                    doc.model.clip_index(n)
                }
                Some(c) => {
                    let what = match c {
                        ClipRef::Index(i) => i.to_string(),
                        ClipRef::Name(n) => n.clone(),
                    };
                    notes.push(format!("clip={what}: the model has no such clip"));
                    None
                }
            };
            if let Some(clip) = clip.filter(|c| Some(*c) != doc.playback.clip) {
                doc.playback.apply(
                    &doc.model,
                    TimelineCommand::SelectClip { clip, motion: None },
                );
            }
            if let Some(t) = self.time {
                if doc.playback.clip.is_some() {
                    doc.playback.apply(&doc.model, TimelineCommand::Seek(t));
                    doc.playback.playing = false;
                } else {
                    notes.push(format!("t={t}: the model has no animation"));
                }
            }
            doc.resample(team);
        }
        if let Some(c) = self.camera {
            let cam = &mut state.view.camera;
            cam.yaw = c.yaw.to_radians();
            // As the orbit keeps it: short of straight up or down.
            let lim = std::f32::consts::FRAC_PI_2 - 1e-3;
            cam.pitch = c.pitch.to_radians().clamp(-lim, lim);
            cam.distance = c.distance;
            cam.target = c.target.into();
            cam.orthographic = c.orthographic;
            state.view.camera_moved = true;
        }
        notes
    }
}

/// How a link names `file`: an archive entry by its path inside the archive, a file by
/// its path; `None` for bytes inside another file.
pub fn model_path(file: &FileRef) -> Option<String> {
    match file {
        FileRef::Disk(p) => Some(p.to_string_lossy().replace('\\', "/")),
        FileRef::Entry { path, .. } => Some(path.clone()),
        FileRef::Embedded { .. } => None,
    }
}

/// Whether the document at `shown` is what a link asked for at `target`: the same file,
/// or the same assembly (a droid asked for without a propulsion is shown with its body's
/// default one).
pub fn shows(target: &FileRef, shown: &FileRef) -> bool {
    use crate::panels::assemble::state::design_of;
    if target == shown {
        return true;
    }
    match (design_of(target), design_of(shown)) {
        (Some(Design::Parts(asked)), Some(Design::Parts(got))) if asked.propulsion.is_empty() => {
            crate::wz::design::Parts {
                propulsion: String::new(),
                ..got
            } == asked
        }
        _ => false,
    }
}

/// The document path of the assembly of `design` (what [`shows`] compares).
pub fn design_path(design: &Design) -> FileRef {
    FileRef::Disk(design.to_line().into())
}

/// The file a link's model `path` names, next to `current` (the open file): another
/// entry of the same archive, or a file among the page's files.
pub fn resolve_model(path: &str, current: Option<&FileRef>) -> FileRef {
    match current {
        Some(FileRef::Entry { archive, .. }) => FileRef::Entry {
            archive: archive.clone(),
            path: path.to_string(),
        },
        _ => FileRef::Disk(path.into()),
    }
}

/// `x` with at most `decimals` decimals, without trailing zeros (`0` for `-0`).
fn number(x: f32, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

/// `x` with five significant digits (at most six decimals).
fn significant(x: f32) -> String {
    let magnitude = if x == 0.0 {
        0
    } else {
        x.abs().log10().floor() as i32
    };
    let decimals = (4 - magnitude).clamp(0, 6) as usize;
    number(x, decimals)
}

/// Percent-encodes what a fragment's value cannot hold as it is (the core's, shared with
/// `vitrine publish`'s links).
pub use crate::files::percent_encode;

#[cfg(test)]
#[path = "link_tests.rs"]
mod tests;
