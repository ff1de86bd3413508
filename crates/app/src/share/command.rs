//! The Share menu's commands.

/// A Share menu intent, and the Published sites dialog's.
#[derive(Debug, Clone, PartialEq)]
pub enum ShareCommand {
    /// Share ▸ Copy link: the page's address, fragment and all ([`crate::link`]).
    CopyLink,
    /// Share ▸ Copy web link: the view's address on the published site that holds the
    /// model.
    CopyWebLink,
    /// Open (`true`) or close Settings ▸ Published sites….
    ShowPublishedSites(bool),
}
