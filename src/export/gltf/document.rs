//! The glTF document being built: the schema's objects (`gltf_json::Root`) plus the one
//! binary buffer their accessors point into, and the PNG images still to be placed
//! (embedded in a `.glb`, files beside a `.gltf`; see [`super::writer`]).

use gltf_json as json;
use json::validation::{Checked::Valid, USize64};
use std::sync::Arc;

/// An image of the document: PNG bytes and the name it is written under.
#[derive(Debug, Clone)]
pub struct ImageData {
    /// Short file-name-safe name (`page-7-team0`), unique in the document.
    pub name: String,
    /// Encoded PNG.
    pub png: Arc<Vec<u8>>,
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
    pub images: Vec<ImageData>,
    /// Per animation: (sampler index, JSON pointer) of each pointer channel.
    pub pointer_channels: Vec<Vec<(u32, String)>>,
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
    pub fn texture(
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
