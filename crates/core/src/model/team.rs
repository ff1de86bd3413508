//! Warzone 2100's 16 team colours (`data/base/palette.txt`, entries team1..team16;
//! player colour index i selects team i+1) and the game's formula that mixes one into a
//! texture through a team-colour mask.
//!
//! The renderer applies the formula in `shaders/scene.wgsl` after lighting; the glTF
//! exporter bakes it into the base texture on the CPU with [`blend_texel`]. Both work on
//! sRGB-encoded values, as the game does ("grain merge" in gamma space):
//! `out = clamp(base + (team − 0.5) × mask.a)`. With no lighting (ambient 1, no
//! directional light) the shader's output equals [`blend_texel`] to the byte; the render
//! tests check that.

/// A named team colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamColour {
    /// The game's name for it.
    pub name: &'static str,
    /// sRGB bytes.
    pub rgb: [u8; 3],
}

/// The 16 team colours in player-index order.
pub const TEAM_COLOURS: [TeamColour; 16] = [
    TeamColour {
        name: "green",
        rgb: [0x10, 0x70, 0x10],
    },
    TeamColour {
        name: "orange",
        rgb: [0xff, 0xb0, 0x35],
    },
    TeamColour {
        name: "grey",
        rgb: [0x90, 0x90, 0x90],
    },
    TeamColour {
        name: "black",
        rgb: [0x20, 0x20, 0x20],
    },
    TeamColour {
        name: "red",
        rgb: [0x9b, 0x0f, 0x0f],
    },
    TeamColour {
        name: "blue",
        rgb: [0x27, 0x31, 0xb9],
    },
    TeamColour {
        name: "pink",
        rgb: [0xd0, 0x10, 0xb0],
    },
    TeamColour {
        name: "cyan",
        rgb: [0x20, 0xd0, 0xd0],
    },
    TeamColour {
        name: "yellow",
        rgb: [0xf0, 0xe8, 0x10],
    },
    TeamColour {
        name: "purple",
        rgb: [0x70, 0x00, 0x74],
    },
    TeamColour {
        name: "white",
        rgb: [0xe0, 0xe0, 0xe0],
    },
    TeamColour {
        name: "bright blue",
        rgb: [0x20, 0x20, 0xff],
    },
    TeamColour {
        name: "neon green",
        rgb: [0x00, 0xa0, 0x00],
    },
    TeamColour {
        name: "infrared",
        rgb: [0x40, 0x00, 0x00],
    },
    TeamColour {
        name: "ultraviolet",
        rgb: [0x10, 0x00, 0x40],
    },
    TeamColour {
        name: "brown",
        rgb: [0x40, 0x60, 0x00],
    },
];

/// Index of a team colour from its number (`0`–`15`) or name (case-insensitive).
pub fn team_by_name(s: &str) -> Option<usize> {
    if let Ok(i) = s.parse::<usize>() {
        return (i < TEAM_COLOURS.len()).then_some(i);
    }
    TEAM_COLOURS
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(s.trim()))
}

/// The game's team-colour blend of one sRGB-encoded channel (each 0..1): `base` is the
/// texture's colour, `team` the team colour's channel, `mask` the tcmask's alpha.
pub(crate) fn blend_channel(base: f32, team: f32, mask: f32) -> f32 {
    (base + (team - 0.5) * mask).clamp(0.0, 1.0)
}

/// One RGBA8 texel of a base texture with team colour `team` (sRGB bytes) mixed in
/// through `mask_alpha` (the tcmask's alpha byte). Alpha is kept.
pub fn blend_texel(base: [u8; 4], team: [u8; 3], mask_alpha: u8) -> [u8; 4] {
    if mask_alpha == 0 {
        return base;
    }
    let mask = mask_alpha as f32 / 255.0;
    let c = |i: usize| {
        let v = blend_channel(base[i] as f32 / 255.0, team[i] as f32 / 255.0, mask);
        (v * 255.0).round() as u8
    };
    [c(0), c(1), c(2), base[3]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_lightens_or_darkens_only_under_the_mask() {
        // Team orange (ff b0 35) at a half mask (128): red +64, green +24.3, blue −37.4;
        // alpha is kept.
        let orange = TEAM_COLOURS[1].rgb;
        assert_eq!(
            blend_texel([100, 100, 100, 7], orange, 128),
            [164, 124, 63, 7]
        );
        // No mask: untouched.
        assert_eq!(blend_texel([1, 2, 3, 4], orange, 0), [1, 2, 3, 4]);
        // Red (9b 0f 0f) at full mask shifts by +27.5, −112.5, −112.5: saturates at
        // both ends instead of wrapping.
        let red = TEAM_COLOURS[4].rgb;
        assert_eq!(blend_texel([250, 5, 100, 255], red, 255), [255, 0, 0, 255]);
    }

    #[test]
    fn lookup_by_number_and_name() {
        assert_eq!(team_by_name("4"), Some(4));
        assert_eq!(team_by_name("Bright Blue"), Some(11));
        assert_eq!(team_by_name("16"), None);
        assert_eq!(team_by_name("mauve"), None);
    }
}
