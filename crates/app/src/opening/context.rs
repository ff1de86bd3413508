//! The narrow context the document's life is applied with ([`DocumentContext`]): its
//! own state and short borrows of the groups it reaches, not the whole
//! [`crate::state::AppState`] (no panel but the assembly, no dialog).

use crate::document::DocumentState;
use crate::panels::assemble::state::AssembleState;
use crate::services::Services;
use crate::view::View;

/// What the document's commands, the jobs that finish them and the event models reach:
/// the services (settings, files, toasts, the jobs), the document, the view (a new model
/// is framed) and the Assemble panel's state (an assembly is a document).
#[derive(Debug)]
pub struct DocumentContext<'a> {
    /// Settings, files, toasts and the background work.
    pub services: &'a mut Services,
    /// The open model, its load error, inspection and checks.
    pub document: &'a mut DocumentState,
    /// The camera and the view's shape.
    pub view: &'a mut View,
    /// The Assemble panel's stats, part finder and assembly shown.
    pub assemble: &'a mut AssembleState,
}

impl DocumentContext<'_> {
    /// Frames the open model so it fills the view ([`View::frame`]).
    pub fn frame(&mut self) {
        let team = self.services.team();
        self.view.frame(self.document.open.as_ref(), team);
    }
}
