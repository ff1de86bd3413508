//! How much of a KTX2 file its small mip levels need, from its header alone: a KTX2 file
//! holds its header, level index, data format descriptor, key/value data and
//! supercompression global data first, then its levels' data from the smallest level to
//! the largest (the [KTX2 spec] §3.9's order, which Warzone 2100's ground pages follow:
//! `page-82-yellow-sand-arizona.ktx2`'s 1024² level 0 is its last 1.0 MB of 1.4). So the
//! levels up to a size are a prefix of the file: a map's first frame, drawn from its
//! ground pages' 256² levels down ([`super::ktx2::decode_levels`]), needs about a
//! sixteenth of each page, and a page read over the network fetches only that
//! ([`crate::files::Files::read_prefix`]).
//!
//! [KTX2 spec]: https://registry.khronos.org/KTX/specs/2.0/ktxspec.v2.html

/// Bytes of the fixed header before the level index.
const HEADER: u64 = 80;
/// Bytes of one level-index entry (offset, length, uncompressed length: three u64).
const LEVEL_ENTRY: u64 = 24;

/// Bytes to read first to find how much of a KTX2 file its small levels need: the
/// header and a level index of up to 16 levels (a 32768² chain).
pub const HEAD: u64 = HEADER + 16 * LEVEL_ENTRY;

/// What the start of a KTX2 file says of the part of it to read ([`prefix`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefix {
    /// The head read is too short to hold the level index: read this many bytes.
    Head(u64),
    /// The first `len` bytes of the file hold everything
    /// [`super::ktx2::decode_levels`] reads for the size asked; the file is `file_len`
    /// bytes long as its level index says (where its largest level ends).
    Part {
        /// Bytes from the start of the file to read.
        len: u64,
        /// The file's length as its level index says.
        file_len: u64,
    },
    /// Read the whole file: the levels kept end at its end, or its header does not say
    /// (not KTX2, a field out of place: the decoder says what is wrong).
    Whole,
}

fn u32_at(b: &[u8], at: u64) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    Some(u64::from(u32::from_le_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}

fn u64_at(b: &[u8], at: u64) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// What of the KTX2 file starting with `head` to read to decode its levels no wider or
/// taller than `max_side` texels (and, when none is, its smallest), as
/// [`super::ktx2::decode_levels`] chooses them: the header, the descriptors and the
/// supercompression data before the levels, and those levels.
pub fn prefix(head: &[u8], max_side: u32) -> Prefix {
    if !super::ktx2::is_ktx2(head) || head.len() < HEADER as usize {
        return Prefix::Whole;
    }
    let (Some(width), Some(height), Some(levels)) =
        (u32_at(head, 20), u32_at(head, 24), u32_at(head, 40))
    else {
        return Prefix::Whole;
    };
    let full_chain = 64 - width.max(height).leading_zeros();
    let count = levels.max(1).min(u64::from(full_chain.max(1)));
    let index_end = HEADER + count * LEVEL_ENTRY;
    if (head.len() as u64) < index_end {
        return Prefix::Head(index_end);
    }
    let first = (0..count)
        .find(|&l| (width >> l).max(height >> l) <= u64::from(max_side))
        .unwrap_or(count - 1);
    let end = |offset: Option<u64>, len: Option<u64>| offset?.checked_add(len?);
    let mut len = index_end;
    let mut file_len = index_end;
    // The data format descriptor, key/value data and supercompression global data.
    for (offset, length) in [
        (u32_at(head, 48), u32_at(head, 52)),
        (u32_at(head, 56), u32_at(head, 60)),
        (u64_at(head, 64), u64_at(head, 72)),
    ] {
        let Some(e) = end(offset, length) else {
            return Prefix::Whole;
        };
        len = len.max(e);
        file_len = file_len.max(e);
    }
    for level in 0..count {
        let entry = HEADER + level * LEVEL_ENTRY;
        let Some(e) = end(u64_at(head, entry), u64_at(head, entry + 8)) else {
            return Prefix::Whole;
        };
        if level >= first {
            len = len.max(e);
        }
        file_len = file_len.max(e);
    }
    if len >= file_len {
        Prefix::Whole
    } else {
        Prefix::Part { len, file_len }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A KTX2 header of a `side`² texture with `levels` levels stored smallest first
    /// after 200 bytes of descriptors: level `l` is `4 << (2 * (levels - 1 - l))`
    /// bytes long.
    fn header(side: u32, levels: u32) -> (Vec<u8>, Vec<(u64, u64)>) {
        let mut b = super::super::ktx2::IDENTIFIER.to_vec();
        for v in [
            0u32,
            1,
            side,
            side,
            0,
            0,
            1,
            levels,
            2,
            80 + 24 * levels,
            44,
            0,
            0,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&0u64.to_le_bytes());
        b.extend_from_slice(&0u64.to_le_bytes());
        assert_eq!(b.len(), 80);
        let mut at = 80 + 24 * u64::from(levels) + 200;
        let mut spans = vec![(0, 0); levels as usize];
        for l in (0..levels).rev() {
            let len = 4u64 << (2 * (levels - 1 - l));
            spans[l as usize] = (at, len);
            at += len;
        }
        for (offset, len) in &spans {
            for v in [*offset, *len, *len] {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        (b, spans)
    }

    #[test]
    fn the_small_levels_are_a_prefix_up_to_the_largest_kept() {
        let (head, spans) = header(1024, 11);
        let file_len = spans[0].0 + spans[0].1;
        // 256² is level 2: it and every smaller level, nothing of levels 0 and 1.
        let want = Prefix::Part {
            len: spans[2].0 + spans[2].1,
            file_len,
        };
        assert_eq!(prefix(&head, 256), want);
        assert_eq!(spans[1].0, spans[2].0 + spans[2].1, "level 1 follows");
        // Every level: the whole file; none small enough: the smallest alone.
        assert_eq!(prefix(&head, u32::MAX), Prefix::Whole);
        let (one, spans1) = header(1024, 1);
        assert_eq!(prefix(&one, 16), Prefix::Whole, "one level: all of it");
        let (head3, spans3) = header(1024, 3);
        assert_eq!(
            prefix(&head3, 16),
            Prefix::Part {
                len: spans3[2].0 + spans3[2].1,
                file_len: spans3[0].0 + spans3[0].1
            },
            "its smallest level (256²) when none is within the size"
        );
        assert!(spans1[0].0 > 0);
    }

    #[test]
    fn a_short_head_asks_for_its_index_and_nonsense_reads_whole() {
        let (head, _) = header(1024, 11);
        assert_eq!(prefix(&head[..100], 256), Prefix::Head(80 + 24 * 11));
        assert_eq!(prefix(b"not a ktx2 file at all", 256), Prefix::Whole);
        let mut wrapping = head.clone();
        let at = 80 + 24 * 2;
        wrapping[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(prefix(&wrapping, 256), Prefix::Whole, "an offset past u64");
    }
}
