//! A tiny line font (seven-segment digits plus a few letters) so the renderer can write
//! connector numbers, box dimensions and axis names into headless images, where no egui
//! text exists. Glyphs are line segments in pixels, y down, from the text's top-left.

use glam::Vec2;

/// Glyph width as a fraction of the text height.
const WIDTH: f32 = 0.55;
/// Advance per character as a fraction of the text height.
const ADVANCE: f32 = 0.85;

/// Segments of one glyph in a cell `WIDTH` × 1 (y down); unknown characters are blank.
fn glyph(c: char) -> Vec<[Vec2; 2]> {
    let w = WIDTH;
    let p = |x: f32, y: f32| Vec2::new(x, y);
    // Seven segments: a top, b top right, c bottom right, d bottom, e bottom left,
    // f top left, g middle.
    let seg = |s: char| -> [Vec2; 2] {
        match s {
            'a' => [p(0.0, 0.0), p(w, 0.0)],
            'b' => [p(w, 0.0), p(w, 0.5)],
            'c' => [p(w, 0.5), p(w, 1.0)],
            'd' => [p(0.0, 1.0), p(w, 1.0)],
            'e' => [p(0.0, 0.5), p(0.0, 1.0)],
            'f' => [p(0.0, 0.0), p(0.0, 0.5)],
            _ => [p(0.0, 0.5), p(w, 0.5)],
        }
    };
    let segs = |s: &str| s.chars().map(seg).collect();
    match c {
        '0' => segs("abcdef"),
        '1' => segs("bc"),
        '2' => segs("abged"),
        '3' => segs("abgcd"),
        '4' => segs("fgbc"),
        '5' => segs("afgcd"),
        '6' => segs("afgedc"),
        '7' => segs("abc"),
        '8' => segs("abcdefg"),
        '9' => segs("abcdfg"),
        '-' => segs("g"),
        '.' => vec![[p(w * 0.5, 0.85), p(w * 0.5, 1.0)]],
        'x' => vec![
            [p(0.05, 0.45), p(w - 0.05, 1.0)],
            [p(w - 0.05, 0.45), p(0.05, 1.0)],
        ],
        'X' => vec![[p(0.0, 0.0), p(w, 1.0)], [p(w, 0.0), p(0.0, 1.0)]],
        'Y' => vec![
            [p(0.0, 0.0), p(w * 0.5, 0.5)],
            [p(w, 0.0), p(w * 0.5, 0.5)],
            [p(w * 0.5, 0.5), p(w * 0.5, 1.0)],
        ],
        'Z' => vec![
            [p(0.0, 0.0), p(w, 0.0)],
            [p(w, 0.0), p(0.0, 1.0)],
            [p(0.0, 1.0), p(w, 1.0)],
        ],
        _ => Vec::new(),
    }
}

/// Width in pixels of `text` at `height` pixels.
pub(crate) fn text_width(text: &str, height: f32) -> f32 {
    let n = text.chars().count() as f32;
    if n == 0.0 {
        0.0
    } else {
        ((n - 1.0) * ADVANCE + WIDTH) * height
    }
}

/// The segments of `text` at `height` pixels, from its top-left corner, y down.
pub(crate) fn text_segments(text: &str, height: f32) -> Vec<[Vec2; 2]> {
    let mut out = Vec::new();
    for (i, c) in text.chars().enumerate() {
        let x = i as f32 * ADVANCE;
        for [a, b] in glyph(c) {
            out.push([
                (a + Vec2::new(x, 0.0)) * height,
                (b + Vec2::new(x, 0.0)) * height,
            ]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_have_their_segment_counts_and_advance() {
        for (c, n) in [('1', 2), ('7', 3), ('8', 7), ('0', 6), ('?', 0)] {
            assert_eq!(text_segments(&c.to_string(), 10.0).len(), n, "{c}");
        }
        let s = text_segments("11", 10.0);
        let max_x = s.iter().flat_map(|s| [s[0].x, s[1].x]).fold(0.0, f32::max);
        assert!((max_x - text_width("11", 10.0)).abs() < 1e-4);
    }
}
