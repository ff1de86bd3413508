//! An archive's folders as a tree: each folder keeps its children by lower-case name, so
//! indexing costs each entry's name once, however deep it is (keying every folder by its
//! full path stored each ancestor's path again: a 32,000-deep name took 4 GB).

use super::EntryKind;
use std::collections::HashMap;

/// One folder: its children as listed (`(name as first spelled, kind)`), and its
/// sub-folders by lower-case name.
#[derive(Debug, Default)]
struct Folder {
    children: Vec<(String, EntryKind)>,
    sub: HashMap<String, usize>,
}

/// Every folder of an archive, explicit or implied by a file; the root is `""`.
#[derive(Debug)]
pub(super) struct Folders {
    /// `[0]` is the root.
    all: Vec<Folder>,
}

impl Default for Folders {
    fn default() -> Self {
        Folders {
            all: vec![Folder::default()],
        }
    }
}

impl Folders {
    /// Adds the folders `lower` (lower-case, `/`-separated) and `spelled` (the same path
    /// as spelled) name, the first `depth` components of each: a folder keeps the
    /// spelling that first names it.
    pub fn add(&mut self, lower: &str, spelled: &str, depth: usize) {
        let mut at = 0;
        for (l, n) in lower.split('/').zip(spelled.split('/')).take(depth) {
            at = match self.all[at].sub.get(l) {
                Some(&next) => next,
                None => {
                    let next = self.all.len();
                    self.all.push(Folder::default());
                    let parent = &mut self.all[at];
                    parent.sub.insert(l.to_string(), next);
                    parent.children.push((n.to_string(), EntryKind::Dir));
                    next
                }
            };
        }
    }

    /// The folder at `lower` (lower-case; `""` is the root).
    fn find(&self, lower: &str) -> Option<usize> {
        if lower.is_empty() {
            return Some(0);
        }
        lower
            .split('/')
            .try_fold(0, |at, part| self.all[at].sub.get(part).copied())
    }

    /// Whether `lower` (lower-case) is a folder.
    pub fn contains(&self, lower: &str) -> bool {
        self.find(lower).is_some()
    }

    /// Lists the file `name` in the folder `parent` (lower-case), which must exist.
    pub fn add_file(&mut self, parent: &str, name: &str) {
        if let Some(at) = self.find(parent) {
            self.all[at]
                .children
                .push((name.to_string(), EntryKind::File));
        }
    }

    /// Sorts every folder's children.
    pub fn sort(&mut self) {
        for f in &mut self.all {
            f.children.sort();
        }
    }

    /// The children of the folder at `lower` (lower-case), sorted; `None`: no such folder.
    pub fn children(&self, lower: &str) -> Option<&[(String, EntryKind)]> {
        self.find(lower).map(|at| self.all[at].children.as_slice())
    }
}
