//! The bytes of a glTF file: the `.glb` container's chunks, the buffers (the `.glb`'s
//! binary chunk, `data:` URIs, files beside a `.gltf`) and bounds-checked accessor reads.
//!
//! Every range an accessor names is checked against its buffer view and buffer before a
//! byte is read, and every count against the bytes it needs, so nothing is allocated
//! that the input does not hold.

use crate::files::FileRef;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;
use base64::Engine;
use gltf::accessor::{DataType, Dimensions};

/// `glTF` in little-endian.
const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// A `.glb` split into its chunks (or a `.gltf`: all JSON, no binary chunk).
pub struct Container<'a> {
    /// The JSON text.
    pub json: &'a [u8],
    /// Where the JSON starts in the file.
    pub json_offset: u64,
    /// The binary chunk and where it starts in the file.
    pub bin: Option<(&'a [u8], u64)>,
}

fn err(kind: ErrorKind, at: u64, message: impl Into<String>) -> LoadError {
    LoadError::new(kind, Location::Offset(at), message)
}

fn u32_at(bytes: &[u8], at: usize, what: &str) -> Result<u32, LoadError> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| {
            err(
                ErrorKind::Truncated,
                at as u64,
                format!("truncated .glb: the file ends inside the {what}"),
            )
        })
}

/// Splits `bytes` into chunks if it is a binary glTF (starts with `glTF`), else takes
/// it all as JSON.
pub fn split(bytes: &[u8]) -> Result<Container<'_>, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::new(
            ErrorKind::EmptyFile,
            Location::File,
            "empty file",
        ));
    }
    if !bytes.starts_with(GLB_MAGIC) {
        return Ok(Container {
            json: bytes,
            json_offset: 0,
            bin: None,
        });
    }
    let version = u32_at(bytes, 4, "header")?;
    if version != 2 {
        return Err(err(
            ErrorKind::UnsupportedVersion,
            4,
            format!("binary glTF version {version}; only version 2 is read"),
        ));
    }
    let declared = u32_at(bytes, 8, "header")? as u64;
    if declared > bytes.len() as u64 {
        return Err(err(
            ErrorKind::Truncated,
            bytes.len() as u64,
            format!(
                "truncated .glb: the header declares {declared} bytes, the file has {}",
                bytes.len()
            ),
        ));
    }
    let end = declared as usize;
    let mut at = 12usize;
    let mut json = None;
    let mut bin = None;
    while at < end {
        let len = u32_at(bytes, at, "chunk header")? as usize;
        let kind = u32_at(bytes, at + 4, "chunk header")?;
        let start = at + 8;
        let Some(stop) = start.checked_add(len).filter(|&s| s <= end) else {
            return Err(err(
                ErrorKind::Truncated,
                at as u64,
                format!(
                    "truncated .glb: a chunk of {len} bytes starting at byte {start} runs past \
                     the end ({end} bytes)"
                ),
            ));
        };
        let data = &bytes[start..stop];
        match kind {
            CHUNK_JSON if json.is_none() => json = Some((data, start as u64)),
            CHUNK_BIN if bin.is_none() && json.is_some() => bin = Some((data, start as u64)),
            CHUNK_JSON | CHUNK_BIN => {
                return Err(err(
                    ErrorKind::Invalid,
                    at as u64,
                    "a second JSON chunk, or a binary chunk before the JSON chunk",
                ));
            }
            // Unknown chunk types are skipped, as the specification says.
            _ => {}
        }
        // Chunks are padded to 4 bytes.
        at = stop.next_multiple_of(4);
    }
    let Some((json, json_offset)) = json else {
        return Err(err(ErrorKind::Missing, 12, "a .glb without a JSON chunk"));
    };
    Ok(Container {
        json,
        json_offset,
        bin,
    })
}

/// Where a buffer's bytes came from, so an image in it can be named as a file.
#[derive(Debug, Clone)]
pub enum Origin {
    /// `offset` bytes into `file` (the `.glb`'s binary chunk, a `.bin` beside).
    File(FileRef, u64),
    /// Decoded from a `data:` URI (images in it are not addressable as files).
    DataUri,
    /// Known only as bytes (parsed without its file).
    Unknown,
}

/// One buffer's bytes.
pub struct Buffer {
    /// The bytes (at least the declared `byteLength`).
    pub bytes: Vec<u8>,
    /// Where they came from.
    pub origin: Origin,
}

/// Fetches a file named by a relative URI beside the glTF: its [`FileRef`] and bytes.
pub type Fetch<'a> = dyn FnMut(&str) -> Result<(FileRef, Vec<u8>), String> + 'a;

/// The payload of a `data:` URI, if `uri` is one: `(offset of the payload in uri,
/// whether it is base64)`.
pub fn data_uri(uri: &str) -> Option<(usize, bool)> {
    let rest = uri.strip_prefix("data:")?;
    let comma = rest.find(',')?;
    let base64 = rest[..comma].ends_with(";base64");
    Some((5 + comma + 1, base64))
}

/// Decodes a `data:` URI's payload.
pub fn decode_data_uri(uri: &str) -> Result<Vec<u8>, String> {
    let (start, base64) = data_uri(uri).ok_or("not a data: URI")?;
    let payload = &uri[start..];
    if base64 {
        base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|e| format!("bad base64 in a data: URI: {e}"))
    } else {
        // The payload's bytes as they are: a data: URI's text may encode any byte.
        Ok(percent_encoding::percent_decode_str(payload).collect())
    }
}

/// A relative URI made safe: percent-decoded, `/`-separated, refusing anything that
/// leaves the glTF's folder (`..` above it, an absolute path, a scheme such as
/// `http:` or `file:`).
pub fn relative_path(uri: &str) -> Result<String, String> {
    let path = crate::files::percent_decode(uri);
    let escapes = || {
        format!("URI {uri:?} leaves the glTF's folder; only files beside it or below it are read")
    };
    if path.starts_with(['/', '\\']) || path.contains(':') {
        return Err(escapes());
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(escapes());
                }
            }
            c => parts.push(c),
        }
    }
    if parts.is_empty() {
        return Err(format!("URI {uri:?} names no file"));
    }
    Ok(parts.join("/"))
}

/// The bytes of every buffer of `doc`, in order.
pub fn buffers(
    doc: &gltf::Document,
    container: &Container<'_>,
    holder: Option<&FileRef>,
    fetch: &mut Fetch<'_>,
) -> Result<Vec<Buffer>, LoadError> {
    let mut out = Vec::new();
    for b in doc.buffers() {
        let i = b.index();
        let what = |m: String| {
            LoadError::new(
                ErrorKind::Missing,
                Location::File,
                format!("buffer {i}: {m}"),
            )
        };
        let (bytes, origin) = match b.source() {
            gltf::buffer::Source::Bin => {
                let (data, at) = container
                    .bin
                    .ok_or_else(|| what("refers to the binary chunk, but there is none".into()))?;
                let origin = holder.map_or(Origin::Unknown, |f| Origin::File(f.clone(), at));
                (data.to_vec(), origin)
            }
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                (decode_data_uri(uri).map_err(what)?, Origin::DataUri)
            }
            gltf::buffer::Source::Uri(uri) => {
                let path = relative_path(uri).map_err(|m| {
                    LoadError::new(
                        ErrorKind::Invalid,
                        Location::File,
                        format!("buffer {i}: {m}"),
                    )
                })?;
                let (file, bytes) = fetch(&path).map_err(what)?;
                (bytes, Origin::File(file, 0))
            }
        };
        if (bytes.len() as u64) < b.length() as u64 {
            return Err(LoadError::new(
                ErrorKind::Truncated,
                Location::File,
                format!(
                    "buffer {i}: declares {} bytes, holds {}",
                    b.length(),
                    bytes.len()
                ),
            ));
        }
        out.push(Buffer { bytes, origin });
    }
    Ok(out)
}

/// The bytes of buffer view `view`, checked against its buffer.
pub fn view_bytes<'a>(
    view: &gltf::buffer::View<'_>,
    buffers: &'a [Buffer],
) -> Result<&'a [u8], String> {
    let buffer = buffers
        .get(view.buffer().index())
        .ok_or_else(|| format!("buffer view {}: no buffer", view.index()))?;
    let (start, len) = (view.offset(), view.length());
    start
        .checked_add(len)
        .and_then(|end| buffer.bytes.get(start..end))
        .ok_or_else(|| {
            format!(
                "buffer view {}: bytes {start}..{} lie past the end of buffer {} ({} bytes)",
                view.index(),
                start.saturating_add(len),
                view.buffer().index(),
                buffer.bytes.len()
            )
        })
}

/// What an accessor holds, read into plain numbers.
pub struct Values {
    /// Components per element.
    pub width: usize,
    /// `count × width` numbers (normalised integers scaled to 0..1 or −1..1).
    pub data: Vec<f32>,
}

impl Values {
    /// Element `i` as an array of `N` (missing components are 0).
    pub fn get<const N: usize>(&self, i: usize) -> [f32; N] {
        let mut out = [0.0; N];
        let row = &self.data[i * self.width..(i + 1) * self.width];
        for (o, v) in out.iter_mut().zip(row) {
            *o = *v;
        }
        out
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn dimensions(d: Dimensions) -> usize {
    match d {
        Dimensions::Scalar => 1,
        Dimensions::Vec2 => 2,
        Dimensions::Vec3 => 3,
        Dimensions::Vec4 => 4,
        Dimensions::Mat2 => 4,
        Dimensions::Mat3 => 9,
        Dimensions::Mat4 => 16,
    }
}

/// Reads accessor `a` as numbers. An accessor without a buffer view is zeros (as the
/// specification says); sparse accessors are refused.
pub fn read(a: &gltf::Accessor<'_>, buffers: &[Buffer]) -> Result<Values, String> {
    let i = a.index();
    let width = dimensions(a.dimensions());
    let size = a.data_type().size();
    let count = a.count();
    if a.sparse().is_some() {
        return Err(format!(
            "accessor {i}: sparse accessors are not read (export without sparse data)"
        ));
    }
    let Some(view) = a.view() else {
        // No data: `count` zeros. Only sparse accessors (refused above) need many; a
        // count this input cannot justify is refused.
        if count > 1 << 16 {
            return Err(format!("accessor {i}: {count} elements without data"));
        }
        return Ok(Values {
            width,
            data: vec![0.0; count * width],
        });
    };
    let bytes = view_bytes(&view, buffers).map_err(|e| format!("accessor {i}: {e}"))?;
    let element = width * size;
    let stride = view.stride().unwrap_or(element).max(element);
    let needed = match count {
        0 => 0,
        n => (n - 1)
            .checked_mul(stride)
            .and_then(|s| s.checked_add(element))
            .and_then(|s| s.checked_add(a.offset()))
            .ok_or_else(|| format!("accessor {i}: {count} elements overflow"))?,
    };
    if needed > bytes.len() {
        return Err(format!(
            "accessor {i}: {count} elements need {needed} bytes from offset {} of buffer view \
             {}, which holds {}",
            a.offset(),
            view.index(),
            bytes.len()
        ));
    }
    let normalized = a.normalized();
    let mut data = Vec::with_capacity(count * width);
    for e in 0..count {
        let base = a.offset() + e * stride;
        for c in 0..width {
            let at = base + c * size;
            let b = &bytes[at..at + size];
            let v = match a.data_type() {
                DataType::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                DataType::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
                DataType::U16 => {
                    let v = u16::from_le_bytes([b[0], b[1]]) as f32;
                    if normalized { v / 65535.0 } else { v }
                }
                DataType::I16 => {
                    let v = i16::from_le_bytes([b[0], b[1]]) as f32;
                    if normalized {
                        (v / 32767.0).max(-1.0)
                    } else {
                        v
                    }
                }
                DataType::U8 => {
                    let v = b[0] as f32;
                    if normalized { v / 255.0 } else { v }
                }
                DataType::I8 => {
                    let v = b[0] as i8 as f32;
                    if normalized { (v / 127.0).max(-1.0) } else { v }
                }
            };
            if !v.is_finite() {
                return Err(format!(
                    "accessor {i}: element {e} holds a value that is not a finite number"
                ));
            }
            data.push(v);
        }
    }
    Ok(Values { width, data })
}

/// Reads an index accessor (unsigned integers, exactly).
pub fn read_indices(a: &gltf::Accessor<'_>, buffers: &[Buffer]) -> Result<Vec<u32>, String> {
    let i = a.index();
    if a.dimensions() != Dimensions::Scalar
        || !matches!(a.data_type(), DataType::U8 | DataType::U16 | DataType::U32)
    {
        return Err(format!(
            "accessor {i}: indices must be unsigned integer scalars"
        ));
    }
    if a.data_type() == DataType::U32 {
        // Read exactly: f32 loses integers past 2^24.
        let view = a
            .view()
            .ok_or_else(|| format!("accessor {i}: indices without data"))?;
        if a.sparse().is_some() {
            return Err(format!("accessor {i}: sparse indices are not read"));
        }
        let bytes = view_bytes(&view, buffers).map_err(|e| format!("accessor {i}: {e}"))?;
        let stride = view.stride().unwrap_or(4).max(4);
        let count = a.count();
        let needed = count.checked_sub(1).map_or(Some(0), |n| {
            n.checked_mul(stride)?.checked_add(4 + a.offset())
        });
        if needed.is_none_or(|n| n > bytes.len()) {
            return Err(format!(
                "accessor {i}: {count} indices lie past the end of buffer view {}",
                view.index()
            ));
        }
        return Ok((0..count)
            .map(|e| {
                let at = a.offset() + e * stride;
                u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
            })
            .collect());
    }
    Ok(read(a, buffers)?
        .data
        .into_iter()
        .map(|v| v as u32)
        .collect())
}
