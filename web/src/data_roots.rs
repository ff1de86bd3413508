//! The data roots the page's arriving archives make: each archive that arrives (`&data=`'s,
//! `?url=`'s, dropped ones) is put before the roots there are — and several may arrive
//! between two frames, before the commands of the first are applied.

use std::path::PathBuf;

/// The roots the archives arriving in one frame make, one after the other.
#[derive(Debug, Default)]
pub struct Arriving {
    /// What the last arrival of this frame made (its command is not applied yet).
    last: Option<Vec<PathBuf>>,
}

impl Arriving {
    /// The roots with `new` before those there are: the last arrival's of this frame,
    /// else `settings` (the roots in force). Two archives arriving in one frame
    /// (`&data=`'s, then `?url=`'s) must not each be put before `settings` alone: the
    /// second would drop the first.
    pub fn add(&mut self, new: Vec<PathBuf>, settings: &[PathBuf]) -> Vec<PathBuf> {
        let current = self.last.as_deref().unwrap_or(settings);
        let roots = with_each_once(new, current);
        self.last = Some(roots.clone());
        roots
    }
}

/// `new` before `current`, each root once.
fn with_each_once(new: Vec<PathBuf>, current: &[PathBuf]) -> Vec<PathBuf> {
    let mut roots = new;
    for r in current {
        if !roots.iter().any(|n| n == r) {
            roots.push(r.clone());
        }
    }
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn archives_arriving_in_one_frame_keep_each_other() {
        // `?url=mod.zip&data=big.zip`: big.zip arrives, then mod.zip, before a frame runs.
        let settings = paths(&["saved.wz"]);
        let mut frame = Arriving::default();
        assert_eq!(
            frame.add(paths(&["big.zip"]), &settings),
            paths(&["big.zip", "saved.wz"])
        );
        assert_eq!(
            frame.add(paths(&["mod.zip"]), &settings),
            paths(&["mod.zip", "big.zip", "saved.wz"])
        );
        // The next frame starts from the settings (where the commands have put both).
        let applied = paths(&["mod.zip", "big.zip", "saved.wz"]);
        let mut next = Arriving::default();
        assert_eq!(
            next.add(paths(&["drop.wz"]), &applied)[..2],
            paths(&["drop.wz", "mod.zip"])
        );
    }

    #[test]
    fn a_root_already_there_moves_to_the_front_once() {
        let mut frame = Arriving::default();
        let roots = frame.add(paths(&["b.wz"]), &paths(&["a.wz", "b.wz"]));
        assert_eq!(roots, paths(&["b.wz", "a.wz"]));
    }
}
