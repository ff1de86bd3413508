//! The Help window's own state (the page shown, [`HelpTab`]) and its commands
//! ([`HelpCommand`]).

/// The pages of the Help window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpTab {
    /// Keyboard and mouse.
    Keys,
    /// Supported formats and their specifications.
    Formats,
    /// Version, licence, GPU adapter.
    About,
}

impl HelpTab {
    /// Every page, in the window's order.
    pub const ALL: [HelpTab; 3] = [HelpTab::Keys, HelpTab::Formats, HelpTab::About];

    /// The page's tab label.
    pub fn label(self) -> &'static str {
        match self {
            HelpTab::Keys => "Keyboard & mouse",
            HelpTab::Formats => "Formats",
            HelpTab::About => "About",
        }
    }
}

/// A Help intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpCommand {
    /// Open the window on this page.
    Show(HelpTab),
    /// Open the window on this page, or close it if it shows that page (F1, `?`).
    Toggle(HelpTab),
    /// Close the window.
    Close,
    /// The About text was copied to the clipboard.
    Copied,
}

/// Applies `cmd` to the Help window's page (`None`: closed); the copy notice goes to
/// `toasts`.
pub fn apply(page: &mut Option<HelpTab>, toasts: &mut crate::toasts::Toasts, cmd: HelpCommand) {
    match cmd {
        HelpCommand::Show(tab) => *page = Some(tab),
        HelpCommand::Toggle(tab) => *page = (*page != Some(tab)).then_some(tab),
        HelpCommand::Close => *page = None,
        HelpCommand::Copied => toasts.info("Copied the version and GPU adapter to the clipboard"),
    }
}
