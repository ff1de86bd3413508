//! The map panel's own state ([`MapPanelState`]: the object list's search, the seed to
//! run a script map with) and its
//! commands ([`MapCommand`]). What the map holds is the document's
//! ([`crate::document::Document::map`]); which object is selected and which layers are
//! hidden is the inspection's (an object or a layer is a node of the scene).

use crate::map::Owner;
use crate::map::scene::{MapDetails, SceneObject};
use crate::model::Model;

/// What the map panel keeps between frames.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MapPanelState {
    /// The object list's search: every word must match the object's stats id, kind or
    /// owner (`derrick player 1`), in any case.
    pub search: String,
    /// The seed typed for *Run again* on a script-generated map (`None`: the one it ran
    /// with).
    pub seed: Option<u32>,
}

/// A map panel intent.
#[derive(Debug, Clone, PartialEq)]
pub enum MapCommand {
    /// Filter the object list by this text.
    Search(String),
    /// Type this seed for *Run again*.
    SetSeed(u32),
}

/// Carries out `cmd` on the panel's state.
pub fn apply(state: &mut MapPanelState, cmd: MapCommand) {
    match cmd {
        MapCommand::Search(text) => state.search = text,
        MapCommand::SetSeed(seed) => state.seed = Some(seed),
    }
}

/// Whether `o` matches every word of `search` (an empty search matches all): a word is
/// found in its kind, stats id or owner, in any case; `player N` is that player's alone
/// (not the `0` of `A0LightFactory`, nor player 10).
pub fn matches(o: &SceneObject, search: &str) -> bool {
    let text = format!("{} {} {}", o.kind.name(), o.stats_id, o.owner.label()).to_lowercase();
    let search = search.to_lowercase();
    let words: Vec<&str> = search.split_whitespace().collect();
    let mut i = 0;
    while let Some(&word) = words.get(i) {
        let player = words.get(i + 1).and_then(|n| n.parse::<u32>().ok());
        match player.filter(|_| word == "player") {
            Some(n) if o.owner != Owner::Player(n) => return false,
            Some(_) => i += 2,
            None if !text.contains(word) => return false,
            None => i += 1,
        }
    }
    true
}

/// The objects of `map` that match `search`, by index.
pub fn filtered(map: &MapDetails, search: &str) -> Vec<usize> {
    (0..map.objects.len())
        .filter(|&i| matches(&map.objects[i], search))
        .collect()
}

/// The node a click on `node` selects in a map's scene: the object it belongs to (all
/// its parts), else the node itself (the terrain, the water).
pub fn selection_target(map: &MapDetails, model: &Model, node: usize) -> usize {
    map.object_at_node(model, node)
        .map_or(node, |i| map.objects[i].node)
}

/// The object whose node is selected, if any.
pub fn selected_object(map: &MapDetails, selected: Option<usize>) -> Option<&SceneObject> {
    let node = selected?;
    map.objects.iter().find(|o| o.node == node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::ObjectKind;

    fn object(kind: ObjectKind, id: &str, owner: Owner) -> SceneObject {
        SceneObject {
            kind,
            stats_id: id.into(),
            owner,
            x: 64,
            y: 64,
            z: 0,
            direction: 0,
            footprint: (1, 1),
            key: "k".into(),
            node: 0,
            index: 0,
        }
    }

    #[test]
    fn search_words_all_match_id_kind_or_owner() {
        let derrick = object(
            ObjectKind::Structure,
            "A0ResourceExtractor",
            Owner::Player(1),
        );
        let oil = object(ObjectKind::Feature, "OilResource", Owner::None);
        for (search, d, o) in [
            ("", true, true),
            ("resource", true, true),
            ("extractor player 1", true, false),
            ("EXTRACTOR player 2", false, false),
            ("feature", false, true),
            ("structure 1", true, false),
            ("a0 player 1", true, false),
            ("extractor player 10", false, false),
            ("player", true, false),
        ] {
            assert_eq!(matches(&derrick, search), d, "{search:?}");
            assert_eq!(matches(&oil, search), o, "{search:?}");
        }
    }
}
