//! The gallery's commands.

use crate::document::LoadFailure;
use crate::files::FileRef;

/// A gallery action.
#[derive(Debug, Clone, PartialEq)]
pub enum GalleryCommand {
    /// Show the models of this folder or archive (`a.wz` or `a.wz!/folder`).
    OpenSource(FileRef),
    /// Show these dropped files (and the models in dropped folders and archives).
    OpenFiles(Vec<FileRef>),
    /// Open tile `i` (an index into the tiles) in the viewer.
    OpenTile(usize),
    /// Back from the viewer to the gallery (Esc, the mouse's back button).
    Back,
    /// Close the gallery.
    Close,
    /// In the viewer: open the next (+1) or previous (−1) model of the gallery, or of the
    /// open file's folder when there is no gallery.
    Step(i32),
    /// Give tile `i` the keyboard focus.
    Select(usize),
    /// Tile `i` opened in the viewer: the viewer is shown.
    TileOpened(usize),
    /// Tile `i` could not be opened: it turns red and says why; the gallery stays.
    TileFailed(usize, LoadFailure),
}
