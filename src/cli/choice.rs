//! The command line's view of the core's and the renderer's enums (`--pmf-units`,
//! `--pmf-euler`, `--pmf-root`, `--view`, `--colour-mode`): those crates know nothing of
//! clap, so each enum's values are listed here, by the names `info --json` and the
//! settings file use, with the help `--help` and shell completion show.

use crate::formats::pmf::{EulerOrder, RootMode, RotationUnits};
use crate::render::{ColourMode, ViewPreset};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// An enum offered on the command line.
pub(crate) trait Choice: Copy + Send + Sync + 'static {
    /// Every value, with the name clap reads (and its aliases and help).
    fn choices() -> Vec<(Self, PossibleValue)>;
}

/// The value parser for a [`Choice`]: clap checks the name (and its aliases, in any case
/// when the argument says `ignore_case`), then the name is mapped back to the value.
pub(crate) fn parser<T: Choice>() -> impl TypedValueParser<Value = T> {
    let values: Vec<PossibleValue> = T::choices().into_iter().map(|(_, p)| p).collect();
    // clap hands back the name as typed (an alias, or another case under `ignore_case`).
    PossibleValuesParser::new(values).map(|name| {
        T::choices()
            .into_iter()
            .find(|(_, p)| p.matches(&name, true))
            .map(|(v, _)| v)
            .expect("clap accepted only listed names")
    })
}

fn value(name: &'static str, help: &'static str) -> PossibleValue {
    PossibleValue::new(name).help(help)
}

impl Choice for RotationUnits {
    fn choices() -> Vec<(Self, PossibleValue)> {
        vec![
            (
                RotationUnits::Degrees,
                value(
                    "degrees",
                    "Degrees (default; the synthetic samples' convention)",
                ),
            ),
            (RotationUnits::Radians, value("radians", "Radians")),
        ]
    }
}

impl Choice for EulerOrder {
    fn choices() -> Vec<(Self, PossibleValue)> {
        EulerOrder::ALL
            .into_iter()
            .map(|o| {
                let help = match o {
                    EulerOrder::Xyz => {
                        "X, then Y, then Z: R = Rz·Ry·Rx (default; the synthetic samples' convention)"
                    }
                    EulerOrder::Xzy => "X, then Z, then Y: R = Ry·Rz·Rx",
                    EulerOrder::Yxz => "Y, then X, then Z: R = Rz·Rx·Ry",
                    EulerOrder::Yzx => "Y, then Z, then X: R = Rx·Rz·Ry",
                    EulerOrder::Zxy => "Z, then X, then Y: R = Ry·Rx·Rz",
                    EulerOrder::Zyx => "Z, then Y, then X: R = Rx·Ry·Rz",
                };
                (o, value(o.name(), help))
            })
            .collect()
    }
}

impl Choice for RootMode {
    fn choices() -> Vec<(Self, PossibleValue)> {
        vec![
            (
                RootMode::Replace,
                value(
                    "replace",
                    "The frame's root position replaces the root piece's translation (default; the synthetic samples' convention)",
                ),
            ),
            (
                RootMode::Add,
                value(
                    "add",
                    "The frame's root position is added to the root piece's translation",
                ),
            ),
        ]
    }
}

impl Choice for ViewPreset {
    fn choices() -> Vec<(Self, PossibleValue)> {
        vec![
            (
                ViewPreset::Front,
                value("front", "Looking along +Z (from −Z, the side models face)"),
            ),
            (
                ViewPreset::Side,
                value("side", "Looking along −X (from +X, the model's right side)"),
            ),
            (
                ViewPreset::Top,
                value(
                    "top",
                    "Looking down −Y, the model's front at the bottom of the image",
                ),
            ),
            (
                ViewPreset::Iso,
                value("iso", "Three-quarter view from above front-right"),
            ),
            (
                ViewPreset::Game,
                value(
                    "game",
                    "Warzone 2100's camera: 40° down, looking along +Z (a map: as the game draws the level's start in a window of --size: over player 0's HQ or start position, in perspective)",
                ),
            ),
        ]
    }
}

impl Choice for ColourMode {
    fn choices() -> Vec<(Self, PossibleValue)> {
        vec![
            (
                ColourMode::Textured,
                value("textured", "Materials and textures as the file gives them"),
            ),
            (
                ColourMode::PerNode,
                value(
                    "per-node",
                    "A distinct flat colour per node (piece, instance, part)",
                )
                .aliases(["per-part", "per-piece"]),
            ),
            (
                ColourMode::ByJoint,
                value(
                    "by-joint",
                    "Each point coloured by its dominant joint (bone); unbound points grey",
                )
                .alias("by-bone"),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of each enum is offered once, so a variant added to the core is
    /// not silently missing from the command line.
    #[test]
    fn every_value_is_offered() {
        assert_eq!(EulerOrder::choices().len(), EulerOrder::ALL.len());
        assert_eq!(ColourMode::choices().len(), ColourMode::ALL.len());
        for (v, p) in RotationUnits::choices() {
            assert_eq!(v.name(), p.get_name());
        }
        for (v, p) in RootMode::choices() {
            assert_eq!(v.name(), p.get_name());
        }
    }

    /// An alias reads as its value.
    #[test]
    fn aliases_read_as_their_value() {
        let cmd = clap::Command::new("t").arg(
            clap::Arg::new("mode")
                .long("mode")
                .value_parser(parser::<ColourMode>()),
        );
        let m = cmd.get_matches_from(["t", "--mode", "by-bone"]);
        assert_eq!(m.get_one::<ColourMode>("mode"), Some(&ColourMode::ByJoint));
    }
}
