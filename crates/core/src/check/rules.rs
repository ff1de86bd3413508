//! Every rule `vitrine check` knows: stable id, level, one-line summary and a paragraph
//! explaining it with its source (the game's loader or documentation).

use super::Level;

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Stable id, `format/name`.
    pub id: &'static str,
    /// Level of every finding of this rule.
    pub level: Level,
    /// One line.
    pub summary: &'static str,
    /// One paragraph: why it matters and what to do.
    pub explanation: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
}

/// A rule (the registry's tables are written with this).
pub(crate) const fn r(
    id: &'static str,
    level: Level,
    summary: &'static str,
    explanation: &'static str,
    source: &'static str,
) -> Rule {
    Rule {
        id,
        level,
        summary,
        explanation,
        source,
    }
}

use Level::{Error as E, Note as N, Warning as W};

const LOADER: &str = "Warzone 2100 lib/ivis_opengl/imdload.cpp (the current PIE loader)";
const PIE_DOC: &str = "Warzone 2100 doc/PIE.md (PIE 2/3/4 format description)";

/// The registry, grouped by format: the model and mod rules, then the map rules
/// (`check::map_check`), then the map database's (`check::mapdb`, ids `mapdb/…`).
pub const RULES: &[Rule] = &ALL;

/// The rules of the game (everything but the map database's).
const GAME: [Rule; MODEL.len() + super::map_check::RULES.len()] =
    concat(MODEL, super::map_check::RULES);

const ALL: [Rule; GAME.len() + super::mapdb::RULES.len()] = concat(&GAME, super::mapdb::RULES);

/// Which rules `vitrine check --rules` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RuleSet {
    /// What the game refuses or complains about (every rule but `mapdb/…`).
    Game,
    /// What the map database (maps.wz2100.net) refuses or warns about (`mapdb/…`).
    Mapdb,
    /// Both.
    #[default]
    All,
}

impl RuleSet {
    /// Whether the set holds the game's rules.
    pub fn game(self) -> bool {
        self != RuleSet::Mapdb
    }

    /// Whether the set holds the map database's rules.
    pub fn mapdb(self) -> bool {
        self != RuleSet::Game
    }

    /// Whether the rule `id` is in the set.
    pub fn has(self, id: &str) -> bool {
        let mapdb = id.starts_with("mapdb/");
        match self {
            RuleSet::Game => !mapdb,
            RuleSet::Mapdb => mapdb,
            RuleSet::All => true,
        }
    }
}

/// `a` then `b`, as one array of `N` rules.
const fn concat<const N: usize>(a: &[Rule], b: &[Rule]) -> [Rule; N] {
    let mut out = [a[0]; N];
    let mut i = 0;
    while i < a.len() {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - a.len()];
        i += 1;
    }
    out
}

/// The model and mod rules.
const MODEL: &[Rule] = &[
    // ---- loading -------------------------------------------------------------------
    r(
        "load/unreadable",
        E,
        "the file cannot be read",
        "The file could not be read from disk or from its archive (permissions, a broken archive entry, a file over the size limit). Nothing else can be checked.",
        "vitrine",
    ),
    r(
        "load/refused",
        E,
        "the file does not parse",
        "The file breaks the format's grammar or a limit the game enforces, so the game (and Vitrine) refuse it: a bad header, a truncated block, a count larger than the data, a number that does not parse. The message names the line or byte offset where reading stopped; fix that and check again, later problems are only found once this one is gone.",
        "the format's loader (Warzone 2100 imdload.cpp for PIE; the format notes for PMF, PET, TPM)",
    ),
    r(
        "load/warning",
        W,
        "the loader had to guess or ignore something",
        "The loader read the file but found something it tolerated: a value it clamped, a reference to something missing, data it ignored. The model loads; what you see may not be what you meant.",
        "the format's loader",
    ),
    r(
        "archive/ignored-entry",
        W,
        "an archive entry that is never read",
        "Two entries of the archive have the same name (exactly, or in another case: `dup/a.pie` and `DUP/A.PIE`), or an entry's name is refused (it leaves the archive: `..`, absolute, a UNC share; it has a `:`, a control character or a Windows device name; it is empty, over 1024 bytes or 64 folders deep) or is also a folder's. Vitrine reads the first entry of a name in the central directory and ignores the others; what the game reads depends on its archive library, so the model you see may not be the one the game shows. Remove the extra entry or rename it.",
        "vitrine",
    ),
    // ---- PIE errors ----------------------------------------------------------------
    r(
        "pie/version",
        E,
        "PIE version outside 2–4",
        "The first line must be `PIE 2`, `PIE 3` or `PIE 4`; the current loader rejects any other version (\"Version N not supported\") and every model that references this file then fails with \"Could not find\". Use PIE 3 (or PIE 4 for its per-level overrides and TCMASK).",
        LOADER,
    ),
    r(
        "pie/polygon-limit",
        E,
        "more than 8192 polygons in one level",
        "The game refuses a level with more than MAX_PIE_POLYGONS = 8192 polygons and the model fails to load. Split the mesh into several levels or reduce it.",
        LOADER,
    ),
    r(
        "pie/not-triangle",
        E,
        "a polygon that is not a triangle (PIE 3/4)",
        "The current loader reads exactly 3 points per polygon and fails the whole model otherwise. Only the 2.x loader split quads and n-gons into fans. Triangulate the mesh before exporting.",
        LOADER,
    ),
    r(
        "pie/point-index",
        E,
        "a polygon uses a point index ≥ POINTS",
        "Each polygon index must be below the level's POINTS count; the loader checks it and refuses the model. Usually POINTS was not updated after deleting points, or indices are 1-based.",
        LOADER,
    ),
    r(
        "pie/tileset",
        E,
        "texture tileset slot outside 0–2 (PIE 4)",
        "In PIE 4, TEXTURE, TCMASK, NORMALMAP and SPECULARMAP name a tileset slot: 0 arizona, 1 urban, 2 rockies. The loader rejects any other slot and the model fails to load. (PIE 2/3 files: see pie/tileset-ignored.)",
        LOADER,
    ),
    r(
        "pie/texture-extension",
        E,
        "a texture name that does not end in .png (PIE 3/4)",
        "The loader requires texture page names ending in `.png` and refuses the model otherwise; old engines loaded `.pcx` pages, the current one does not.",
        LOADER,
    ),
    r(
        "pie/shadow-flags",
        W,
        "a shadow polygon with flags other than 0",
        "SHADOWPOLYGONS lines are `0 3 a b c`: untextured triangles. The game (4.3.3) logs an error for any other flags value and still uses the model.",
        "Warzone 2100 doc/PIE.md (SHADOWPOLYGONS) and imdload.cpp",
    ),
    r(
        "pie/shadow-order",
        E,
        "SHADOWPOLYGONS without a non-empty SHADOWPOINTS before it",
        "A shadow mesh is SHADOWPOINTS n (n > 0) followed by SHADOWPOLYGONS m (m > 0); the loader rejects polygons without points, and empty blocks, and the model fails to load.",
        LOADER,
    ),
    r(
        "pie/event-type",
        W,
        "EVENT type 4 or more",
        "EVENT types are 1 (active), 2 (firing) and 3 (dying); the event table has no slot past 3, so a larger type trips the loader's assertion (logged by release builds, which still use the model; a crash in debug builds).",
        LOADER,
    ),
    r(
        "pie/texture-undecodable",
        E,
        "a texture page that cannot be decoded",
        "The page exists but is not a PNG the game can decode (a broken header, or more than 16384 pixels a side): the game fails to load it and gives the model up, as for a missing page. Re-save the page as an ordinary PNG, 1024×1024 like the game's own.",
        "Warzone 2100 lib/ivis_opengl/tex.cpp (iV_loadImage_PNG) and 4.3.3 run on mutated models",
    ),
    r(
        "pie/event-missing",
        E,
        "an EVENT model found nowhere",
        "EVENT names a model the game loads with this one; when it is in none of the game's model folders (the mod, mp, base) the game gives this model up too. Ship the event model or fix its name.",
        "Warzone 2100 4.3.3 run on mutated models (tests/pie_write.rs)",
    ),
    r(
        "pie/header-directive",
        E,
        "MATERIALS or SHADERS before LEVELS",
        "The 4.3.3 loader expects LEVELS after the texture and EVENT lines and gives the model up on anything else (`Expecting 'LEVELS' directive`); newer loaders skip the line. Delete it.",
        "Warzone 2100 4.3.3 run on mutated models (tests/pie_write.rs)",
    ),
    r(
        "pie/welded-vertices",
        E,
        "a level with 65,535 or more vertices after welding",
        "The game welds corners with the same point, UV and normal into one vertex and draws with 16-bit indices; a level with 65,535 or more distinct vertices cannot be indexed and fails to load.",
        LOADER,
    ),
    // ---- PIE warnings --------------------------------------------------------------
    r(
        "pie/normals-count",
        W,
        "NORMALS count differs from POLYGONS",
        "NORMALS must have exactly one line per polygon. If the counts differ the game logs an error and drops every normal of the level, so the model is flat-shaded without a word in the game's UI. Re-export the normals with the polygons.",
        PIE_DOC,
    ),
    r(
        "pie/levels-count",
        W,
        "LEVELS says more levels than the file has",
        "The file ends before the LEVEL blocks LEVELS announces; the game loads the levels that are there (no complaint in 4.3.3). Correct the count.",
        "Warzone 2100 4.3.3 run on mutated models (tests/pie_write.rs)",
    ),
    r(
        "pie/animobject-time",
        W,
        "ANIMOBJECT time 0",
        "ANIMOBJECT's time is milliseconds per frame; 0 cannot play (4.3.3 loads it without a word, newer loaders refuse the model). The level is shown still. Give the frames a duration.",
        "Warzone 2100 4.3.3 run on mutated models (tests/pie_write.rs)",
    ),
    r(
        "pie/tileset-ignored",
        W,
        "a texture tileset slot outside 0–2 in PIE 2/3",
        "PIE 2/3 loaders (4.3.3) ignore the number before a texture name, so the page is used as tileset 0's; a PIE 4 loader would refuse the slot. Write 0.",
        "Warzone 2100 4.3.3 run on mutated models (tests/pie_write.rs)",
    ),
    r(
        "pie/tcmask-missing",
        W,
        "TYPE 0x10000 but the team-colour mask is not found",
        "With TYPE flag 0x10000 the game reads a team-colour mask: the TCMASK page, or the name derived from the texture (`page-NN_tcmask.png`). If that file is not in the data's texpages/ the model gets no team colour. Ship the mask or drop the flag.",
        "Warzone 2100 lib/ivis_opengl/tex.cpp (mask name rule) and doc/PIE.md (TYPE 0x10000)",
    ),
    r(
        "pie/tcmask-flag",
        W,
        "a TCMASK page without TYPE 0x10000",
        "A TCMASK line only takes effect when the level's TYPE has the 0x10000 flag; without it the mask is loaded but no team colour is drawn.",
        PIE_DOC,
    ),
    r(
        "pie/texture-missing",
        E,
        "a texture page is not found in the data roots",
        "The game looks texture pages up in texpages/ of the loaded data (the mod, then mp, then base). For a page that is in none of them it logs `could not load tex page` and gives the model up (4.3.3 then fails to start the game). Ship the page, or pass the game data with --data (or `data` in vitrine.toml) when checking a mod on its own.",
        "Warzone 2100 lib/ivis_opengl/tex.cpp (texture page lookup)",
    ),
    r(
        "pie/texture-page-number",
        W,
        "a texture page found only by its page-NN number",
        "No page of this exact name is in texpages/, only one with the same `page-NN` number. Warzone 2100 4.3.3 falls back to a page of that number only when that page is already loaded (another model drawn with it was read first: the game-as-judge loads `page-17-x.png` on a weapon, while `page-0-placeholder.png` is given up at the start of a skirmish although `page-0-scav.png` exists), so whether the model loads depends on load order. Name the page exactly, or ship it.",
        "Warzone 2100 lib/ivis_opengl/tex.cpp (texture page lookup) and the game-as-judge mutations",
    ),
    r(
        "pie/texture-name",
        W,
        "a texture name with characters outside [a-zA-Z0-9._-]",
        "Texture page names must only contain the characters a–z, A–Z, 0–9, `.`, `_` and `-`; names with spaces or other characters are cut at the first whitespace by the current loader or fail on some file systems.",
        PIE_DOC,
    ),
    r(
        "pie/texture-page-prefix",
        W,
        "a texture name without the page-NN- prefix",
        "Tilesets swap whole pages by their `page-NN-` prefix (the .wrf files of a level); a page named otherwise is never swapped for the urban or rockies tileset and the derived team-colour mask name cannot be built from it.",
        PIE_DOC,
    ),
    r(
        "pie/texanim-mismatch",
        W,
        "+4000 polygons of one level differ in frames or rate",
        "All texture-animated (0x4000) polygons of a level must share the frame count, rate and frame size; the game keeps one animation per level (an assertion in debug builds) and animates every polygon with the first.",
        LOADER,
    ),
    r(
        "pie/texanim-size",
        N,
        "+4000 polygons of one level differ in frame size",
        "Texture-animated polygons of one level share frames and rate, but may differ in frame width and height: the current game keeps the frame size per vertex. Engines before 4.x and Vitrine animate the level with the first polygon's size, so the others step by the wrong offset there.",
        LOADER,
    ),
    r(
        "pie/texanim-block",
        W,
        "a texture-animation block with ≤ 1 frame or zero width",
        "A 0x4000 polygon's animation block needs more than 1 frame and a frame width above 0; the game asserts on it and the animation does not play.",
        PIE_DOC,
    ),
    r(
        "pie/animobject-frames",
        W,
        "ANIMOBJECT frame count or numbering does not match its records",
        "ANIMOBJECT time cycles N must be followed by exactly N frame lines numbered 0..N-1. Missing lines make the loader read the next directive as a broken frame; extra lines end the level early; misnumbered frames are logged. The animation then plays wrongly.",
        LOADER,
    ),
    r(
        "pie/degenerate",
        N,
        "a degenerate triangle (repeated point or zero area)",
        "A triangle that uses one point twice, or whose three points lie on a line, covers no pixels but still costs a draw slot and breaks normal and tangent generation around it. Delete it.",
        "Warzone 2100 imdload.cpp (face normals from the cross product of the edges)",
    ),
    r(
        "pie/negative-scale",
        N,
        "legacy keyframes with a negative scale",
        "An ANIMOBJECT frame with scale −1 hides the level in that frame: the legacy way to express keyframe flip-books (one level per pose). The doc says not to use it in new content; animate one level with real transforms instead.",
        PIE_DOC,
    ),
    r(
        "pie/polygon-flags",
        W,
        "polygon flag bits the game ignores",
        "Only 0x200 (textured) and 0x4000 (texture animation) mean something to the current game. Other bits (0x800 translucent, 0x2000 two-sided, 0x10000 BSP marker from the 1999 tools) are ignored: a polygon flagged two-sided is still culled from behind.",
        PIE_DOC,
    ),
    r(
        "pie/legacy-ngon",
        W,
        "a polygon with other than 3 points in a PIE 2 file",
        "Only the 2.x engines split n-gons into fans; the current loader reads exactly 3 points per polygon. Triangulate the mesh (Vitrine shows the fan the old engines drew).",
        LOADER,
    ),
    r(
        "pie/legacy-texture-extension",
        W,
        "a PIE 2 texture that does not end in .png",
        "Old engines loaded `.pcx` pages; the current loader wants `.png` names and refuses others. Rename the page to .png.",
        LOADER,
    ),
    r(
        "pie/uv-range",
        W,
        "UVs far outside 0–1 in a PIE 3/4 file",
        "PIE 3 and 4 store UVs as 0–1 floats; UVs up to 256 are PIE 2 texel units in a file labelled PIE 3, which the game draws wrongly too. Change the header to PIE 2 or divide the UVs by 256.",
        PIE_DOC,
    ),
    r(
        "pie/pie4-feature",
        W,
        "a PIE 4 feature in a PIE 2/3 file",
        "TCMASK and per-level TYPE, INTERPOLATE and texture overrides are PIE 4 features; the game reads them only in a file that says PIE 4.",
        PIE_DOC,
    ),
    r(
        "pie/shadow-dropped",
        W,
        "SHADOWPOINTS without SHADOWPOLYGONS",
        "A shadow mesh needs both blocks; points without polygons are discarded with an error in the game's log and the render mesh casts the shadow.",
        LOADER,
    ),
    r(
        "pie/extra-levels",
        W,
        "more LEVEL blocks than LEVELS declares",
        "The game reads LEVELS n levels and ignores the rest of the file; the extra levels are never drawn.",
        LOADER,
    ),
    r(
        "pie/trailing-junk",
        W,
        "text after the last level",
        "The game stops reading after the last level's blocks and ignores anything else; an unknown directive there is usually a block the game does not know.",
        LOADER,
    ),
    // ---- PIE notes -----------------------------------------------------------------
    r(
        "pie/points-limit",
        N,
        "more than 768 points in a level",
        "doc/PIE.md documents at most 768 points per level (the 2.x engines' limit); the current loader does not enforce it, but older game versions and tools may refuse the model.",
        PIE_DOC,
    ),
    r(
        "pie/unused-point",
        N,
        "a point no polygon uses",
        "A point that no polygon references is dead weight in the file and is often left over from editing.",
        PIE_DOC,
    ),
    r(
        "pie/duplicate-point",
        N,
        "two points at the same position",
        "Two points with identical coordinates are usually a seam left by an exporter; the game welds by position, UV and normal anyway, so one of them can be merged.",
        PIE_DOC,
    ),
    r(
        "pie/pie2",
        N,
        "PIE 2 in new work",
        "PIE 2 stores UVs as integer texels of a nominal 256-pixel page; PIE 3 (floats 0–1) is the standard for new models and PIE 4 adds per-level overrides.",
        PIE_DOC,
    ),
    r(
        "pie/interpolate-unused",
        N,
        "INTERPOLATE on a model without animation",
        "INTERPOLATE only affects ANIMOBJECT keyframe interpolation; on a model without ANIMOBJECT it does nothing.",
        PIE_DOC,
    ),
    r(
        "pie/ignored-directive",
        N,
        "MATERIALS or SHADERS (ignored by the game)",
        "MATERIALS was removed from the game (commit 823cf08) and SHADERS is ignored; both are read and skipped with a log message.",
        PIE_DOC,
    ),
    r(
        "pie/bsp",
        N,
        "a legacy BSP block",
        "The 1999 tools appended BSP trees; no engine since 2.x reads them (and a `BSP` line ends the level in the current loader).",
        LOADER,
    ),
    // ---- PMF -----------------------------------------------------------------------
    r(
        "pmf/not-piece-model",
        E,
        "PMF1 magic but not a Piece Model file",
        "The file starts with `PMF1` but its structure does not follow (counts past the end, bad names, truncated pieces): another tool's file with the same magic, or a damaged one.",
        "Piece Model Editor format (shared/specs pmf.txt)",
    ),
    r(
        "pmf/empty-piece",
        W,
        "a piece with no triangles",
        "A piece with fewer than 3 vertices draws nothing; it still moves its children, so it is usually a pivot left by mistake or a piece whose geometry was lost.",
        "Piece Model Editor format",
    ),
    r(
        "pmf/vertex-count",
        W,
        "a piece's vertex count is not a multiple of 3",
        "PMF pieces are triangle lists; the last 1 or 2 vertices form no triangle and are not drawn.",
        "Piece Model Editor format",
    ),
    r(
        "pmf/trailing-bytes",
        W,
        "bytes after the last animation",
        "Bytes after the animations are not part of the format; the file may have been concatenated or damaged.",
        "Piece Model Editor format",
    ),
    // ---- PET -----------------------------------------------------------------------
    r(
        "pet/animated-bones-limit",
        W,
        "more animated bones than the version allows",
        "PET writers cap the number of animated bones per version: 127 (1.0), 256 (1.1), 512 (1.2), 1024 (1.3). A file past the cap was written for a newer client or by a tool that ignores it; older clients misread it.",
        "pet-source_tools Blender add-on (PET writer) per-version limits",
    ),
    r(
        "pet/fram-limit",
        W,
        "more FRAM frames than the version allows",
        "PET writers cap FRAM event frames per version: 256 (1.0), 512 (1.1), 10000 (1.2), 20000 (1.3).",
        "pet-source_tools Blender add-on (PET writer) per-version limits",
    ),
    // ---- TPM -----------------------------------------------------------------------
    r(
        "tpm/mesh-not-instanced",
        W,
        "a mesh that no instance places",
        "TPM meshes are placed by `instance` blocks; a mesh without one is imported as data but never placed in the level (Vitrine shows it at the origin).",
        "Blender-TPM TPM Specification",
    ),
    r(
        "tpm/material-unused",
        N,
        "a material no mesh uses",
        "A `material` block that no mesh lists is dead weight in the file.",
        "Blender-TPM TPM Specification",
    ),
    r(
        "tpm/unbound-vertices",
        W,
        "skin vertices bound to no bone",
        "Skin vertices name their bone by index ($J<skin><two digits>); a negative index or one with no matching bone leaves the vertex unbound and it does not follow the skeleton.",
        "Blender-TPM TPM Specification",
    ),
    // ---- Warzone 2100 mods ---------------------------------------------------------
    r(
        "wz/model-missing",
        E,
        "a stats entry names a model file that does not exist",
        "The game loads every model the stats name at start-up; a missing one is a fatal \"Could not find\" for the stats entry (a body, weapon or structure that cannot be built or drawn).",
        "Warzone 2100 src/stats.cpp (loading model names) and imd.cpp modelGet()",
    ),
    r(
        "wz/template-part-missing",
        E,
        "a template names a body, propulsion or weapon the stats lack",
        "templates.json entries reference components by id; an id missing from body/propulsion/weapons.json (in the mod, mp or base) makes the template invalid and the game refuses it.",
        "Warzone 2100 src/template.cpp (loading templates)",
    ),
    r(
        "wz/weapon-connectors",
        W,
        "a body has fewer weapon connectors than weaponSlots",
        "Weapon i is drawn at body connector i (VTOL weapons at 5+i); a body with weaponSlots N needs at least N connectors or the extra weapons are drawn at the body origin (\"Model lacks sufficient connectors?\").",
        "Warzone 2100 src/component.cpp (displayComponentObject)",
    ),
    r(
        "wz/propulsion-model-missing",
        E,
        "a propulsionExtraModels file does not exist",
        "body.json propulsionExtraModels name the propulsion models drawn on each body; a missing file fails the stats load.",
        "Warzone 2100 src/stats.cpp (loadBodyStats)",
    ),
    r(
        "wz/model-unused",
        N,
        "a model in the mod that no stats entry names",
        "A model file under the mod's component, structure or feature folders that no stats entry (nor any model's EVENT) names is never loaded by the game; often a leftover or a typo in the stats.",
        "Warzone 2100 src/stats.cpp",
    ),
    r(
        "wz/stats-unreadable",
        E,
        "a stats file that is not valid JSON",
        "The game parses every stats/*.json at start-up and stops on invalid JSON.",
        "Warzone 2100 src/stats.cpp",
    ),
];

/// The rule with this id.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.id), "duplicate rule {}", r.id);
            let (fmt, name) = r.id.split_once('/').expect("format/name");
            assert!(!fmt.is_empty() && !name.is_empty(), "{}", r.id);
            assert!(!r.summary.contains('\n') && !r.explanation.is_empty());
        }
    }
}
