//! Warzone 2100's tilesets (arizona, urban, rockies) and the texture pages each one
//! draws a model with.
//!
//! Two mechanisms, both the game's (read in its source):
//! 1. **PIE 4 tileset texture lines** (`lib/ivis_opengl/imdload.cpp`,
//!    `_imd_load_level_textures`): `TEXTURE 1 …` / `TEXTURE 2 …` (and `TCMASK`,
//!    `NORMALMAP`, `SPECULARMAP`) name the urban and rockies pages; a tileset without its
//!    own line uses tileset 0's. A level's own line beats the header's.
//! 2. **Page replacement by the game's rules script**: the multiplayer and campaign
//!    `rules.js` (`setupGame`) call `replaceTexture(old, new)` for the map's tileset,
//!    which swaps a loaded page for every model that uses it. `REPLACEMENTS` is that
//!    table: the base pages of the barbarians (`page-7`) and of the structure bases
//!    (`page-8`, `page-9`). Masks are not swapped (they are named by page number).
//!
//! Not modelled: a mod's own rules script replacing other pages.

use crate::model::TextureRole;
use std::fmt;
use std::str::FromStr;

/// A Warzone 2100 tileset; the number is the PIE 4 tileset slot.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Tileset {
    /// Slot 0, the default (campaign 1's desert).
    #[default]
    Arizona,
    /// Slot 1 (campaign 2's city).
    Urban,
    /// Slot 2 (campaign 3's mountains).
    Rockies,
}

impl Tileset {
    /// All three, in slot order.
    pub const ALL: [Tileset; 3] = [Tileset::Arizona, Tileset::Urban, Tileset::Rockies];

    /// The PIE 4 tileset slot (0–2).
    pub fn slot(self) -> usize {
        self as usize
    }

    /// The tileset of a slot.
    pub fn from_slot(slot: usize) -> Option<Tileset> {
        Self::ALL.get(slot).copied()
    }

    /// Lower-case name, as `--tileset` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Tileset::Arizona => "arizona",
            Tileset::Urban => "urban",
            Tileset::Rockies => "rockies",
        }
    }
}

impl fmt::Display for Tileset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Tileset {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown tileset '{s}': arizona, urban or rockies"))
    }
}

/// `(tileset, page, replacement)`: the `replaceTexture` calls of the game's rules
/// scripts (`data/mp/multiplay/script/rules/setupgame.js`, `data/base/script/rules.js`),
/// identical in both.
pub(crate) const REPLACEMENTS: &[(Tileset, &str, &str)] = &[
    (
        Tileset::Urban,
        "page-7-barbarians-arizona.png",
        "page-7-barbarians-urban.png",
    ),
    (
        Tileset::Urban,
        "page-8-player-buildings-bases.png",
        "page-8-player-buildings-bases-urban.png",
    ),
    (
        Tileset::Urban,
        "page-9-player-buildings-bases.png",
        "page-9-player-buildings-bases-urban.png",
    ),
    (
        Tileset::Rockies,
        "page-7-barbarians-arizona.png",
        "page-7-barbarians-kevlar.png",
    ),
    (
        Tileset::Rockies,
        "page-8-player-buildings-bases.png",
        "page-8-player-buildings-bases-rockies.png",
    ),
    (
        Tileset::Rockies,
        "page-9-player-buildings-bases.png",
        "page-9-player-buildings-bases-rockies.png",
    ),
];

/// The page the rules script puts in place of `page` for `tileset`, if it swaps it
/// (names compared case-insensitively, as the game's file system does).
pub(crate) fn replacement(tileset: Tileset, page: &str) -> Option<&'static str> {
    REPLACEMENTS
        .iter()
        .find(|(t, from, _)| *t == tileset && from.eq_ignore_ascii_case(page))
        .map(|&(_, _, to)| to)
}

/// The name the game loads for a texture of `role` on `tileset`: the tileset's own PIE 4
/// line if the level has one, else tileset 0's; then, for the diffuse page, the rules
/// script's replacement. `names[slot]` are the level's effective lines for this role.
/// Returns the name and the slot it came from.
pub fn pick<'a>(
    tileset: Tileset,
    role: TextureRole,
    names: [Option<&'a str>; 3],
) -> Option<(std::borrow::Cow<'a, str>, usize)> {
    let slot = if names[tileset.slot()].is_some() {
        tileset.slot()
    } else {
        0
    };
    let name = names[slot]?;
    let swapped = (role == TextureRole::Base)
        .then(|| replacement(tileset, name))
        .flatten();
    Some((swapped.map_or(name.into(), Into::into), slot))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_slots_round_trip() {
        for t in Tileset::ALL {
            assert_eq!(t.name().parse::<Tileset>(), Ok(t));
            assert_eq!(Tileset::from_slot(t.slot()), Some(t));
        }
        assert_eq!("URBAN".parse::<Tileset>(), Ok(Tileset::Urban));
        assert!("desert".parse::<Tileset>().unwrap_err().contains("rockies"));
        assert_eq!(Tileset::from_slot(3), None);
    }

    /// Tileset, role, the three lines, the name and slot picked.
    type Case = (
        Tileset,
        TextureRole,
        [Option<&'static str>; 3],
        Option<(&'static str, usize)>,
    );

    #[test]
    fn picks_the_tileset_line_then_slot_0_then_the_rules_swap() {
        use TextureRole::{Base, Tcmask};
        let cases: &[Case] = &[
            // PIE 4 tileset lines.
            (
                Tileset::Urban,
                Base,
                [Some("a.png"), Some("u.png"), None],
                Some(("u.png", 1)),
            ),
            (
                Tileset::Rockies,
                Base,
                [Some("a.png"), Some("u.png"), None],
                Some(("a.png", 0)),
            ),
            // The rules script's swap, whatever the letter case.
            (
                Tileset::Urban,
                Base,
                [Some("PAGE-8-player-buildings-bases.png"), None, None],
                Some(("page-8-player-buildings-bases-urban.png", 0)),
            ),
            (
                Tileset::Rockies,
                Base,
                [Some("page-7-barbarians-arizona.png"), None, None],
                Some(("page-7-barbarians-kevlar.png", 0)),
            ),
            (
                Tileset::Arizona,
                Base,
                [Some("page-8-player-buildings-bases.png"), None, None],
                Some(("page-8-player-buildings-bases.png", 0)),
            ),
            // A page no script swaps, and masks, stay.
            (
                Tileset::Urban,
                Base,
                [Some("page-12-player-buildings.png"), None, None],
                Some(("page-12-player-buildings.png", 0)),
            ),
            (
                Tileset::Urban,
                Tcmask,
                [Some("page-8_tcmask.png"), None, None],
                Some(("page-8_tcmask.png", 0)),
            ),
            (Tileset::Urban, Base, [None, None, None], None),
        ];
        for (tileset, role, names, want) in cases {
            let got = pick(*tileset, *role, *names);
            let got = got.as_ref().map(|(n, s)| (n.as_ref(), *s));
            assert_eq!(got, *want, "{tileset} {role:?} {names:?}");
        }
    }
}
