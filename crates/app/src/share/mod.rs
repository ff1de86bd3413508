//! The Share menu: Copy link (the page's own address and fragment, [`crate::link`]),
//! Copy web link (the view's address on the published site that holds the model,
//! [`crate::published`]), and opening Settings ▸ Published sites…. A web link is made
//! of the whole view (model, clip, camera), so [`ShareCommand`]s are applied on the
//! state.

pub mod command;

pub use command::ShareCommand;

use crate::effect::Effect;
use crate::files::FileRef;
use crate::link::ViewLink;
use crate::published::{DATA, NOT_PUBLISHED, PAGE, PublishedSite, site_of, site_of_roots};
use crate::state::AppState;
use std::path::{Path, PathBuf};

/// Applies `cmd`: the link to copy, for the front-end.
pub fn apply(state: &mut AppState, cmd: ShareCommand) -> Option<Effect> {
    match cmd {
        ShareCommand::CopyLink => Some(Effect::CopyLink),
        ShareCommand::CopyWebLink => match web_link(state) {
            Ok(url) => {
                state
                    .services
                    .toasts
                    .info(format!("Web link copied: {url}"));
                Some(Effect::CopyText(url))
            }
            Err(why) => {
                state.services.toasts.error(why);
                None
            }
        },
        ShareCommand::ShowPublishedSites(open) => {
            state.dialogs.published_sites = open;
            None
        }
    }
}

/// The address of the view `link` on the site at `base`:
/// `{base}/view.html?url=site.wz#{fragment}` (one `/` after the base).
pub fn site_url(base: &str, link: &ViewLink) -> String {
    format!(
        "{}/{PAGE}?url={DATA}#{}",
        base.trim().trim_end_matches('/'),
        link.to_fragment()
    )
}

/// The web address of what `state` shows on the published site that holds it; `Err`:
/// why there is none (the greyed-out menu item's hover text). Sources, roots and the
/// model's file are compared as full paths (a relative path on the command line names
/// the same file as the absolute one in the settings).
pub fn web_link(state: &AppState) -> Result<String, String> {
    let doc = state.document.open.as_ref().ok_or("No model is open")?;
    let full = |p: &Path| state.services.files.full_path(p);
    let sites: Vec<PublishedSite> = state
        .services
        .settings
        .published_sites
        .iter()
        .map(|s| PublishedSite {
            source: full(&s.source),
            url: s.url.clone(),
        })
        .collect();
    let mut link = ViewLink::of_state(state, false);
    let site = if link.design.is_some() {
        let roots: Vec<PathBuf> = state
            .services
            .settings
            .data_roots
            .iter()
            .map(|r| full(r))
            .collect();
        site_of_roots(&sites, &roots).ok_or(
            "This assembly's data roots hold no published site: add the mod and its site's \
             address in Settings ▸ Published sites",
        )?
    } else {
        let file = match &doc.path {
            FileRef::Disk(p) => FileRef::Disk(full(p)),
            FileRef::Entry { archive, path } => FileRef::Entry {
                archive: full(archive),
                path: path.clone(),
            },
            other => other.clone(),
        };
        let (site, path) = site_of(&sites, &file).ok_or(NOT_PUBLISHED)?;
        link.model = Some(path);
        site
    };
    Ok(site_url(&site.url, &link))
}
