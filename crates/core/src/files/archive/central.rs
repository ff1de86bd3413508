//! A zip's central directory, read once, record by record, duplicates included (the `zip`
//! crate keeps one entry per name, the last one, so it cannot say which names repeat nor
//! read the first of them), and where an entry's data starts after its local header.
//!
//! The `zip` crate finds and checks the directory (end record, Zip64, bytes before the
//! archive); this module only walks the records it found.

use super::source::{Cursor, Source};
use std::io::{self, BufReader, Read};

const CENTRAL_SIGNATURE: u32 = 0x0201_4b50;
const LOCAL_SIGNATURE: u32 = 0x0403_4b50;
/// A central directory record's fixed part, signature included.
const CENTRAL_FIXED: usize = 46;

/// One central directory record.
#[derive(Debug, Clone)]
pub(super) struct Record {
    /// The name, decoded as the `zip` crate decodes it (UTF-8 or code page 437).
    pub name: String,
    /// General purpose flags (bit 0: encrypted).
    pub flags: u16,
    /// Compression method (0 stored, 8 deflate).
    pub method: u16,
    pub crc: u32,
    pub compressed: u64,
    pub size: u64,
    /// Offset of the local header in the file.
    pub header: u64,
}

impl Record {
    /// A folder entry (`name/`).
    pub fn is_dir(&self) -> bool {
        self.name.ends_with(['/', '\\'])
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Every record of the directory that `zip` opened, in directory order.
pub(super) fn records<R: Read + io::Seek>(
    source: &Source,
    zip: &zip::ZipArchive<R>,
) -> Result<Vec<Record>, String> {
    let start = zip.central_directory_start();
    let mut r = BufReader::with_capacity(1 << 16, Cursor::new(source.clone(), start));
    let mut out = Vec::with_capacity(zip.len());
    let mut fixed = [0u8; CENTRAL_FIXED];
    loop {
        // The directory ends where the records do (the end records have other signatures).
        match r.read_exact(&mut fixed) {
            Ok(()) if u32_at(&fixed, 0) == CENTRAL_SIGNATURE => {}
            _ => break,
        }
        let (name_len, extra_len, comment_len) = (
            usize::from(u16_at(&fixed, 28)),
            usize::from(u16_at(&fixed, 30)),
            usize::from(u16_at(&fixed, 32)),
        );
        let mut var = vec![0u8; name_len + extra_len + comment_len];
        r.read_exact(&mut var)
            .map_err(|e| format!("central directory record {}: {e}", out.len()))?;
        let (raw, extra) = (&var[..name_len], &var[name_len..name_len + extra_len]);
        let mut record = Record {
            name: decoded_name(zip, raw, extra),
            flags: u16_at(&fixed, 8),
            method: u16_at(&fixed, 10),
            crc: u32_at(&fixed, 16),
            compressed: u64::from(u32_at(&fixed, 20)),
            size: u64::from(u32_at(&fixed, 24)),
            header: u64::from(u32_at(&fixed, 42)),
        };
        apply_zip64(extra, &mut record);
        record.header = record
            .header
            .checked_add(zip.offset())
            .ok_or("a local header offset overflows")?;
        out.push(record);
    }
    // The crate keeps one entry per distinct name: this walk must have found as many
    // records, more only when names repeat.
    let expected = out.len() == zip.len() || (zip.has_duplicate_names() && out.len() > zip.len());
    if !expected {
        return Err(format!(
            "the central directory holds {} entries, {} records were read",
            zip.len(),
            out.len()
        ));
    }
    Ok(out)
}

/// The name as the `zip` crate decodes it (the flag for UTF-8, else code page 437; a
/// Unicode path field), or the raw bytes read as UTF-8. ASCII reads the same either way.
fn decoded_name<R: Read + io::Seek>(zip: &zip::ZipArchive<R>, raw: &[u8], extra: &[u8]) -> String {
    if raw.is_ascii() && !has_field(extra, UNICODE_PATH) {
        return String::from_utf8_lossy(raw).into_owned();
    }
    zip.index_for_name_raw(raw)
        .and_then(|i| zip.name_for_index(i))
        .and_then(Result::ok)
        .map_or_else(
            || String::from_utf8_lossy(raw).into_owned(),
            |n| n.into_owned(),
        )
}

/// The Info-ZIP Unicode Path extra field: a name that replaces the header's.
const UNICODE_PATH: u16 = 0x7075;

/// Whether the extra fields hold one with this id.
fn has_field(mut extra: &[u8], want: u16) -> bool {
    while extra.len() >= 4 {
        let (id, len) = (u16_at(extra, 0), usize::from(u16_at(extra, 2)));
        if id == want {
            return true;
        }
        extra = extra.get(4 + len..).unwrap_or_default();
    }
    false
}

/// Reads the Zip64 extra field (id 1): the 64-bit values of the fields saturated at
/// `0xFFFF_FFFF`, in the order size, compressed size, header offset.
fn apply_zip64(mut extra: &[u8], r: &mut Record) {
    while extra.len() >= 4 {
        let (id, len) = (u16_at(extra, 0), usize::from(u16_at(extra, 2)));
        let Some(mut data) = extra.get(4..4 + len) else {
            return;
        };
        if id == 1 {
            for field in [&mut r.size, &mut r.compressed, &mut r.header] {
                if *field == 0xFFFF_FFFF && data.len() >= 8 {
                    let mut v = [0u8; 8];
                    v.copy_from_slice(&data[..8]);
                    *field = u64::from_le_bytes(v);
                    data = &data[8..];
                }
            }
        }
        extra = &extra[4 + len..];
    }
}

/// A local header's fixed part, signature included: what precedes its name and extra field.
pub(super) const LOCAL_FIXED: u64 = 30;

/// Where the entry's compressed bytes start: after its local header's name and extra
/// field. An error when the header is not there (of the read's kind: a reader over a
/// network that has not fetched it yet says [`io::ErrorKind::WouldBlock`]).
pub(super) fn data_start(source: &Source, header: u64) -> Result<u64, (io::ErrorKind, String)> {
    let mut fixed = [0u8; LOCAL_FIXED as usize];
    source.read_exact_at(&mut fixed, header).map_err(|e| {
        let why = format!("damaged entry: its local header (at byte {header}) cannot be read: {e}");
        (e.kind(), why)
    })?;
    if u32_at(&fixed, 0) != LOCAL_SIGNATURE {
        let why = format!("damaged entry: no local header at byte {header}");
        return Err((io::ErrorKind::InvalidData, why));
    }
    let variable = u64::from(u16_at(&fixed, 26)) + u64::from(u16_at(&fixed, 28));
    Ok(header + LOCAL_FIXED + variable)
}
