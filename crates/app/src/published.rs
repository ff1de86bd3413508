//! Web links to published sites (the desktop's Share ▸ Copy web link): a mod folder or
//! `.wz` published with `vitrine publish` is a site at an address the user gives in
//! Settings ▸ Published sites; a model inside that source, or an assembly whose data
//! roots include it, has an address on that site.
//!
//! The site's layout (what `vitrine publish` writes): `SITE/view.html` is the page,
//! `SITE/site.wz` holds the source's data tree (paths as inside the mod:
//! `components/bodies/x.pie`), so the view of a model is
//! `SITE/view.html?url=site.wz#model=components/bodies/x.pie&…` with the fragment the
//! page's own Copy link writes ([`crate::link`]); the link itself is made by
//! [`crate::share`].
//!
//! Not handled: a model in an archive that sits inside a published folder (the site
//! holds the folder's tree, the archive as a file), and paths that name the same place
//! differently (symbolic links, `..`, letter case on Windows): sources are compared as
//! written.

use crate::files::FileRef;
use serde::{Deserialize, Serialize};
use std::path::{Component, Path, PathBuf};

/// The page of a published site, beside its data.
pub const PAGE: &str = "view.html";
/// The site's data archive, beside its page.
pub const DATA: &str = "site.wz";

/// Why Copy web link is greyed out for a model outside every published site.
pub const NOT_PUBLISHED: &str = "This model is not in a published site: add the mod and \
                                 its site's address in Settings ▸ Published sites";

/// The note beside a row with no source.
pub const NO_SOURCE: &str = "Name the mod's folder or .wz that was published";

/// A published mod: where it is on this machine and where its site is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PublishedSite {
    /// The mod folder or `.wz` that was published.
    pub source: PathBuf,
    /// The site's base address (`https://me.github.io/mymod/`).
    pub url: String,
}

impl PublishedSite {
    /// What is wrong with this row, for the note beside it (`None`: usable).
    pub fn problem(&self) -> Option<&'static str> {
        if self.source.as_os_str().is_empty() {
            Some(NO_SOURCE)
        } else {
            url_problem(&self.url)
        }
    }
}

/// What is wrong with a site's address (`None`: it is an http:// or https:// address).
pub fn url_problem(url: &str) -> Option<&'static str> {
    let url = url.trim();
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        None => Some("Must start with http:// or https://"),
        Some(r) if r.trim_matches('/').is_empty() => Some("Names no server"),
        Some(_) => None,
    }
}

/// The path of `file` inside `source` with `/` separators (`None` when it is not inside
/// it): an entry of the archive `source`, or a file under the folder `source`.
pub fn path_inside(source: &Path, file: &FileRef) -> Option<String> {
    let source = normal(source);
    match file {
        FileRef::Entry { archive, path } if normal(archive) == source => {
            Some(path.trim_start_matches('/').to_string())
        }
        FileRef::Disk(p) => {
            let p = normal(p);
            let rel = p.strip_prefix(&source).ok()?;
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            (!parts.is_empty()).then(|| parts.join("/"))
        }
        _ => None,
    }
}

/// `p` without `.` parts and trailing separators, `\` read as a separator.
fn normal(p: &Path) -> PathBuf {
    let text = p.to_string_lossy().replace('\\', "/");
    Path::new(&text)
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// The first usable site whose source holds `file`, and the file's path in it.
pub fn site_of<'a>(
    sites: &'a [PublishedSite],
    file: &FileRef,
) -> Option<(&'a PublishedSite, String)> {
    sites
        .iter()
        .filter(|s| s.problem().is_none())
        .find_map(|s| path_inside(&s.source, file).map(|p| (s, p)))
}

/// The first usable site whose source is one of `roots` (in the roots' order: a mod over
/// the game's data).
pub fn site_of_roots<'a>(
    sites: &'a [PublishedSite],
    roots: &[PathBuf],
) -> Option<&'a PublishedSite> {
    roots.iter().find_map(|root| {
        sites
            .iter()
            .filter(|s| s.problem().is_none())
            .find(|s| normal(&s.source) == normal(root))
    })
}

#[cfg(test)]
#[path = "published_tests.rs"]
mod tests;
