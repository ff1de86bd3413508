//! Warzone 2100 maps in the gallery: a package, a folder or an archive (`mp.wz`) that
//! holds maps lists each one as a tile beside its models. A map's tile stands for its
//! `game.map`, or a script-generated map's `game.js` (the files every front-end opens as
//! a map document, [`crate::map::scene::load`]; where a folder has both, the game runs
//! `game.js`, and its tile stands for that), is named after its level as the package's `.lev` or
//! `level.json` names it (`Sk-Rush`, not `game.map`), sits under the folder holding the
//! maps' folders (`multiplay/maps`, not one heading per map) and its thumbnail is the
//! map's 3D scene, drawn by the same batch as the models' (a script map's with its
//! script run on the default seed, as `vitrine render` does).

use crate::files::{FileRef, Files};
use crate::host::Found;
use std::collections::HashMap;

/// Whether `name` is a file a map tile stands for (`game.map` or `game.js`, any case).
pub fn is_map_name(name: &str) -> bool {
    crate::map::is_map_file_name(name)
}

/// Whether the gallery lists a file of this name: a model any loader reads, or a map.
pub fn is_listed_name(name: &str) -> bool {
    crate::formats::is_model_name(name) || is_map_name(name)
}

/// The maps among `found`'s files, one per map folder: a `game.map` beside a `game.js`
/// is dropped from `found` (the game runs the script). Returns their level names, by
/// file: the one level the package defines for its folder ([`crate::map::find_maps`]),
/// else the folder's name. Reads the package's level files (`.lev`, `level.json`)
/// through `files`.
pub fn level_names(files: &Files, found: &mut Found) -> HashMap<FileRef, String> {
    crate::map::drop_shadowed_game_maps(&mut found.files);
    found
        .files
        .iter()
        .filter(|f| is_map_name(&f.file_name()))
        .map(|f| (f.clone(), level_name(files, f)))
        .collect()
}

/// Adds to `found` the maps of the map packages inside each folder of `inputs` (a
/// downloaded collection of `.wz` files, which a walk does not open: archives found in a
/// folder are data, not the input), each map once ([`crate::map::survey`]): its
/// `game.js`, else its `game.map`. The "nothing found" error of such a folder goes; a
/// package that does not open, or a level of one that is left out, is a warning.
pub fn add_packages(files: &Files, inputs: &[FileRef], found: &mut Found) {
    for input in inputs {
        if !matches!(input, FileRef::Disk(_)) || !files.is_dir(input) {
            continue;
        }
        let Ok(survey) = crate::map::survey(files, input) else {
            continue;
        };
        let mut added = false;
        for level in &survey.maps {
            let file = ["game.js", "game.map"]
                .iter()
                .map(|n| level.folder.join(n))
                .find(|f| files.is_file(f));
            if let Some(f) = file
                && !found.files.contains(&f)
            {
                found.files.push(f);
                added = true;
            }
        }
        if added {
            let shown = input.to_string();
            found.errors.retain(|(path, _)| *path != shown);
            found.warnings.extend(
                survey
                    .problems
                    .iter()
                    .map(|p| (p.file.clone().unwrap_or_default(), p.to_string())),
            );
        }
    }
}

/// The level name of the map whose `game.map` is `file`.
fn level_name(files: &Files, file: &FileRef) -> String {
    let folder = || file.parent().map(|p| p.file_name()).unwrap_or_default();
    match crate::map::find_maps(files, file) {
        Ok(levels) if levels.len() == 1 => levels[0].name.clone(),
        _ => folder(),
    }
}

/// The folder a map's tile sits under, relative to the gallery's source: the one
/// holding the map's folder (`multiplay/maps` for `multiplay/maps/4c-rush/game.map`),
/// `""` for a package whose map is at its root. `relative` is the `game.map`'s path
/// relative to the source.
pub fn tile_folder(relative: &str) -> String {
    let mut parts: Vec<&str> = relative.split('/').collect();
    parts.pop();
    parts.pop();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_tile_sits_under_the_folder_of_the_maps() {
        for (path, folder) in [
            ("multiplay/maps/4c-rush/game.map", "multiplay/maps"),
            ("maps/x/game.map", "maps"),
            ("x/game.map", ""),
            ("game.map", ""),
        ] {
            assert_eq!(tile_folder(path), folder, "{path}");
        }
    }

    #[test]
    fn game_map_and_game_js_files_are_listed_with_the_models() {
        for (name, listed, map) in [
            ("game.map", true, true),
            ("GAME.MAP", true, true),
            ("body.pie", true, false),
            ("game.js", true, true),
            ("Game.JS", true, true),
            ("map.js", false, false),
            ("ttypes.ttp", false, false),
            ("other.map", false, false),
        ] {
            assert_eq!(is_listed_name(name), listed, "{name}");
            assert_eq!(is_map_name(name), map, "{name}");
        }
    }
}

#[cfg(test)]
mod shadow_tests {
    use super::*;
    use crate::files::MemorySource;

    #[test]
    fn a_game_map_beside_a_game_js_gives_one_tile_for_the_script() {
        let files = Files::new(MemorySource::new());
        let f = |p: &str| files.parse(std::path::Path::new(p));
        let mut found = Found {
            files: vec![
                f("/p/maps/both/game.map"),
                f("/p/maps/both/game.js"),
                f("/p/maps/binary/game.map"),
                f("/p/maps/script/game.js"),
                f("/p/body.pie"),
            ],
            errors: Vec::new(),
            warnings: Vec::new(),
        };
        let names = level_names(&files, &mut found);
        let kept: Vec<String> = found.files.iter().map(|f| f.to_string()).collect();
        assert_eq!(
            kept,
            [
                "/p/maps/both/game.js",
                "/p/maps/binary/game.map",
                "/p/maps/script/game.js",
                "/p/body.pie"
            ]
        );
        // Three maps, named after their folders (no level file says otherwise).
        let mut named: Vec<&str> = names.values().map(String::as_str).collect();
        named.sort();
        assert_eq!(named, ["binary", "both", "script"]);
    }
}
