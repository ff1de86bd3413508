//! Warzone 2100's 16 team colours (`data/base/palette.txt`, entries team1..team16;
//! player colour index i selects team i+1). Used through the tcmask of any model.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_by_number_and_name() {
        assert_eq!(team_by_name("4"), Some(4));
        assert_eq!(team_by_name("Bright Blue"), Some(11));
        assert_eq!(team_by_name("16"), None);
        assert_eq!(team_by_name("mauve"), None);
    }
}
