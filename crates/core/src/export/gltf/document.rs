//! The glTF document being built: the schema's objects (`gltf_json::Root`) plus the one
//! binary buffer their accessors point into, and the PNG images still to be placed
//! (embedded in a `.glb`, files beside a `.gltf`; see [`super::writer`]).

use gltf_json as json;
use json::validation::{Checked::Valid, USize64};
use std::sync::Arc;

/// An image of the document: PNG bytes and the name it is written under.
#[derive(Debug, Clone)]
pub(crate) struct ImageData {
    /// Short file-name-safe name (`page-7-team0`), unique in the document.
    pub name: String,
    /// Encoded PNG.
    pub png: Arc<Vec<u8>>,
    /// Where the image is transparent, tile by tile.
    pub alpha: Arc<AlphaTiles>,
}

/// Side of an [`AlphaTiles`] tile in texels.
const TILE: u32 = 8;

/// What kind of alpha each 8×8-texel tile of an image holds, so the exporter can tell
/// whether the texels a material uses are opaque, cut out (0 or 255 only) or
/// translucent, without keeping the image.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct AlphaTiles {
    /// Image size in texels.
    pub size: (u32, u32),
    /// Tiles per row.
    columns: u32,
    /// Per tile: 0 opaque, 1 some texels fully transparent, 2 some translucent.
    tiles: Vec<u8>,
}

/// How a set of texels is covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Coverage {
    /// Every texel opaque.
    Opaque,
    /// Texels opaque or fully transparent.
    CutOut,
    /// Some texel in between.
    Translucent,
}

impl AlphaTiles {
    /// The tiles of an RGBA8 image.
    pub fn of(img: &image::RgbaImage) -> AlphaTiles {
        let (w, h) = img.dimensions();
        let columns = w.div_ceil(TILE);
        let rows = h.div_ceil(TILE);
        let mut tiles = vec![0u8; (columns * rows) as usize];
        for (x, y, p) in img.enumerate_pixels() {
            let kind = match p.0[3] {
                255 => 0,
                0 => 1,
                _ => 2,
            };
            let t = &mut tiles[((y / TILE) * columns + x / TILE) as usize];
            *t = (*t).max(kind);
        }
        AlphaTiles {
            size: (w, h),
            columns,
            tiles,
        }
    }

    /// Coverage of the texels under the UV rectangle `lo..hi` (UV units, wrapping: a
    /// rectangle reaching outside 0..1 counts the whole image).
    pub fn coverage(&self, lo: [f32; 2], hi: [f32; 2]) -> Coverage {
        let (w, h) = self.size;
        if w == 0 || h == 0 {
            return Coverage::Opaque;
        }
        let rows = self.tiles.len() as u32 / self.columns.max(1);
        let range = |lo: f32, hi: f32, n: u32, tiles: u32| {
            if !(lo >= 0.0 && hi <= 1.0 && lo <= hi) {
                return (0, tiles.saturating_sub(1));
            }
            let a = ((lo * n as f32).floor() as u32).min(n - 1) / TILE;
            let b = ((hi * n as f32).ceil() as u32).clamp(1, n) - 1;
            (a, (b / TILE).min(tiles.saturating_sub(1)))
        };
        let (x0, x1) = range(lo[0], hi[0], w, self.columns);
        let (y0, y1) = range(lo[1], hi[1], h, rows);
        let mut worst = 0u8;
        for y in y0..=y1 {
            for x in x0..=x1 {
                worst = worst.max(self.tiles[(y * self.columns + x) as usize]);
                if worst == 2 {
                    return Coverage::Translucent;
                }
            }
        }
        if worst == 0 {
            Coverage::Opaque
        } else {
            Coverage::CutOut
        }
    }
}

/// A glTF document ready to be written: JSON objects, binary buffer and images.
///
/// `root.images[i]` is `images[i]`; its `buffer_view` or `uri` is set by the writer.
/// `pointer_channels` are the KHR_animation_pointer channels of `root.animations`
/// (gltf-json 1.4 has no type for a channel whose target is a JSON pointer).
#[derive(Debug, Default)]
pub struct Document {
    /// The schema objects.
    pub root: json::Root,
    /// Contents of buffer 0.
    pub bin: Vec<u8>,
    /// PNG images, one per `root.images` entry.
    pub(crate) images: Vec<ImageData>,
    /// Per animation: (sampler index, JSON pointer) of each pointer channel.
    pub(crate) pointer_channels: Vec<Vec<(u32, String)>>,
    /// Warnings for the user (missing textures, blend modes glTF cannot express).
    pub warnings: Vec<String>,
}

/// The `extras` of a glTF object from any JSON value.
pub fn extras(value: &serde_json::Value) -> json::Extras {
    serde_json::value::to_raw_value(value).ok()
}

/// Bytes of little-endian values, as glTF stores them.
fn le_bytes<const N: usize, T: Copy>(values: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * N);
    for v in values {
        out.extend_from_slice(&f(*v));
    }
    out
}

impl Document {
    /// Adds `bytes` to the buffer (4-byte aligned) as a new buffer view.
    pub fn view(
        &mut self,
        bytes: &[u8],
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: None,
        })
    }

    fn accessor(
        &mut self,
        bytes: &[u8],
        count: usize,
        component: json::accessor::ComponentType,
        type_: json::accessor::Type,
        bounds: Option<(serde_json::Value, serde_json::Value)>,
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::Accessor> {
        let view = self.view(bytes, target);
        let (min, max) = bounds.unzip();
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: None,
            type_: Valid(type_),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// A float accessor of `N`-component values (`N` = 1, 2, 3, 4 or 16), with min/max
    /// when `bounds` (required for positions and animation inputs).
    pub fn floats<const N: usize>(
        &mut self,
        values: &[[f32; N]],
        bounds: bool,
        vertex_data: bool,
    ) -> json::Index<json::Accessor> {
        use json::accessor::Type;
        let type_ = match N {
            1 => Type::Scalar,
            2 => Type::Vec2,
            3 => Type::Vec3,
            4 => Type::Vec4,
            _ => Type::Mat4,
        };
        let bounds = (bounds && !values.is_empty()).then(|| {
            let mut lo = values[0];
            let mut hi = values[0];
            for v in values {
                for i in 0..N {
                    lo[i] = lo[i].min(v[i]);
                    hi[i] = hi[i].max(v[i]);
                }
            }
            (
                serde_json::json!(lo.to_vec()),
                serde_json::json!(hi.to_vec()),
            )
        });
        let mut bytes = Vec::with_capacity(values.len() * N * 4);
        for v in values {
            for c in v {
                bytes.extend_from_slice(&c.to_le_bytes());
            }
        }
        let target = vertex_data.then_some(json::buffer::Target::ArrayBuffer);
        self.accessor(
            &bytes,
            values.len(),
            json::accessor::ComponentType::F32,
            type_,
            bounds,
            target,
        )
    }

    /// Triangle indices: `u16` when every index fits, else `u32`.
    pub fn indices(&mut self, indices: &[u32]) -> json::Index<json::Accessor> {
        use json::accessor::{ComponentType, Type};
        let fits16 = indices.iter().all(|&i| i < u16::MAX as u32);
        let (bytes, component) = if fits16 {
            (
                le_bytes(indices, |i| (i as u16).to_le_bytes()),
                ComponentType::U16,
            )
        } else {
            (le_bytes(indices, u32::to_le_bytes), ComponentType::U32)
        };
        self.accessor(
            &bytes,
            indices.len(),
            component,
            Type::Scalar,
            None,
            Some(json::buffer::Target::ElementArrayBuffer),
        )
    }

    /// `JOINTS_0`: four unsigned-short joint indices per vertex.
    pub fn joints(&mut self, joints: &[[u16; 4]]) -> json::Index<json::Accessor> {
        let mut bytes = Vec::with_capacity(joints.len() * 8);
        for j in joints {
            for c in j {
                bytes.extend_from_slice(&c.to_le_bytes());
            }
        }
        self.accessor(
            &bytes,
            joints.len(),
            json::accessor::ComponentType::U16,
            json::accessor::Type::Vec4,
            None,
            Some(json::buffer::Target::ArrayBuffer),
        )
    }

    /// Adds an image (placed by the writer) and a texture sampling it with `sampler`.
    pub(crate) fn texture(
        &mut self,
        image: ImageData,
        sampler: json::Index<json::texture::Sampler>,
    ) -> json::Index<json::Texture> {
        let source = self.root.push(json::Image {
            buffer_view: None,
            mime_type: None,
            name: Some(image.name.clone()),
            uri: None,
            extensions: None,
            extras: None,
        });
        self.images.push(image);
        self.root.push(json::Texture {
            name: None,
            sampler: Some(sampler),
            source,
            extensions: None,
            extras: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_looks_only_at_the_tiles_under_the_rectangle() {
        // 32×32: left half opaque, top-right quarter cut out, bottom-right translucent.
        let img = image::RgbaImage::from_fn(32, 32, |x, y| {
            let a = match (x < 16, y < 16) {
                (true, _) => 255,
                (false, true) => {
                    if x % 2 == 0 {
                        0
                    } else {
                        255
                    }
                }
                (false, false) => 128,
            };
            image::Rgba([0, 0, 0, a])
        });
        let t = AlphaTiles::of(&img);
        assert_eq!(t.coverage([0.0, 0.0], [0.49, 1.0]), Coverage::Opaque);
        assert_eq!(t.coverage([0.0, 0.0], [0.9, 0.4]), Coverage::CutOut);
        assert_eq!(t.coverage([0.6, 0.6], [0.7, 0.7]), Coverage::Translucent);
        // Outside 0..1 along U (wrapping): the whole width, still only the top rows.
        assert_eq!(t.coverage([-0.5, 0.0], [0.2, 0.2]), Coverage::CutOut);
        assert_eq!(t.coverage([-0.5, 0.0], [0.2, 0.9]), Coverage::Translucent);
    }
}
