//! The optional texture beside a PMF file.
//!
//! PMF stores UVs but names no image. If `<stem>.png` is found (searched like any texture
//! name, see [`crate::formats::resolve`]: the model's own folder, then the data roots,
//! case-insensitively), it becomes a base texture for every piece's material and
//! the materials turn white so the image shows as painted. Without it the model keeps its
//! per-piece colours and nothing is reported missing: the image is optional.

use crate::files::FileRef;
use crate::formats::LoadOptions;
use crate::formats::resolve::Resolver;
use crate::model::{Model, TextureRef, TextureRole};

/// Looks for `<stem>.png` for the PMF model loaded from `path` and, if found, uses it as
/// the base texture of every material. Records the outcome in the details and properties.
pub(crate) fn attach_sidecar(model: &mut Model, file: &FileRef, options: &LoadOptions) {
    let name = format!("{}.png", file.stem());
    let found = Resolver::new().texture(&name, file, &options.data_roots, false);
    if found.is_none() {
        model.property(
            "Texture",
            format!("none (PMF names no image; no {name} beside it)"),
        );
        return;
    }
    let index = model.textures.len();
    model.textures.push(TextureRef {
        resolved: found,
        ..TextureRef::new(TextureRole::Base, name.clone())
    });
    for m in &mut model.materials {
        m.base = Some(index);
        m.base_color = [1.0; 4];
    }
    if let crate::model::Details::Pmf(d) = &mut model.details {
        d.texture = Some(name.clone());
    }
    model.property("Texture", format!("{name} (found beside the model)"));
}
