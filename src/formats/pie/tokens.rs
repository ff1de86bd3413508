//! The PIE token stream: whitespace-separated words, each with its 1-based line number.
//!
//! The 1999 and 2.x loaders scanned a whitespace-agnostic token stream, so old files put
//! several records on one line (or split one over several); the current loader reads one
//! record per line. Reading tokens accepts both. Lines are split by [`text::Lines`]
//! (`\n`, `\r\n` or a lone `\r`), `#` starts a comment that runs to the end of the line
//! (the game strips comments in every version), and [`text::is_space`] separates tokens,
//! so trailing blanks and a DOS Ctrl-Z end-of-file byte vanish. Nothing is allocated:
//! tokens borrow the input, and numbers are parsed from the bytes in place.

use crate::formats::text;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// One whitespace-separated word of the file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Token<'a> {
    /// The bytes of the word.
    pub text: &'a [u8],
    /// 1-based line it is on.
    pub line: u32,
}

impl<'a> Token<'a> {
    /// Whether this is a directive-like word (starts with an ASCII letter). Hex flags
    /// never reach this test: the parser knows where it expects them.
    pub fn is_word(&self) -> bool {
        self.text.first().is_some_and(u8::is_ascii_alphabetic)
    }

    /// Whether the token is exactly `word`.
    pub fn is(&self, word: &str) -> bool {
        self.text == word.as_bytes()
    }

    /// The token for a message: lossy UTF-8, shortened to 40 characters.
    pub fn show(&self) -> String {
        let s = String::from_utf8_lossy(self.text);
        if s.chars().count() > 40 {
            let cut: String = s.chars().take(40).collect();
            format!("{cut}…")
        } else {
            s.into_owned()
        }
    }
}

/// A syntax error at `line`.
pub fn error(kind: ErrorKind, line: u32, message: impl Into<String>) -> LoadError {
    LoadError::new(kind, Location::Line(line), message)
}

/// Cursor over the tokens of a PIE file.
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    input: &'a [u8],
    lines: text::Lines<'a>,
    /// Unread part of the current line (comment removed).
    rest: &'a [u8],
    line: u32,
    peeked: Option<Token<'a>>,
}

impl<'a> Tokens<'a> {
    /// Tokens of `input`.
    pub fn new(input: &'a [u8]) -> Self {
        Tokens {
            input,
            lines: text::Lines::new(input),
            rest: &[],
            line: 0,
            peeked: None,
        }
    }

    /// The line of the most recently read (or peeked) token; 0 before the first. Used
    /// for "file ends while reading …" errors.
    pub fn line(&self) -> u32 {
        self.line.max(1)
    }

    fn scan(&mut self) -> Option<Token<'a>> {
        loop {
            let start = self.rest.iter().position(|&b| !text::is_space(b));
            match start {
                Some(s) => {
                    let rest = &self.rest[s..];
                    let len = rest
                        .iter()
                        .position(|&b| text::is_space(b))
                        .unwrap_or(rest.len());
                    let (word, after) = rest.split_at(len);
                    self.rest = after;
                    return Some(Token {
                        text: word,
                        line: self.line,
                    });
                }
                None => {
                    let (n, line) = self.lines.next()?;
                    self.line = n;
                    self.rest = match line.iter().position(|&b| b == b'#') {
                        Some(i) => &line[..i],
                        None => line,
                    };
                }
            }
        }
    }

    /// The next token, if any.
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        self.peeked.take().or_else(|| self.scan())
    }

    /// The next token without consuming it.
    pub fn peek(&mut self) -> Option<Token<'a>> {
        if self.peeked.is_none() {
            self.peeked = self.scan();
        }
        self.peeked
    }

    /// Bytes from the next unread token (or the unread rest of the current line) to the
    /// end of the input: an upper bound on what the rest of the file can still hold.
    pub fn remaining_bytes(&self) -> usize {
        let at = match &self.peeked {
            Some(t) => t.text.as_ptr(),
            None => self.rest.as_ptr(),
        };
        // Both slices borrow `input`, so the address difference is the offset.
        let offset = (at as usize).saturating_sub(self.input.as_ptr() as usize);
        self.input.len().saturating_sub(offset)
    }

    /// Accepts `count` records of at least `tokens_per_record` tokens each only if the
    /// rest of the file could hold them (a token takes at least one byte and a separator).
    /// Call before allocating for `count` records.
    pub fn check_count(
        &self,
        count: u64,
        tokens_per_record: u64,
        what: &str,
        line: u32,
    ) -> Result<usize, LoadError> {
        let room = (self.remaining_bytes() as u64 + 1) / (2 * tokens_per_record.max(1));
        if count > room {
            return Err(error(
                ErrorKind::CountTooLarge,
                line,
                format!(
                    "{what} {count}: the remaining {} bytes can hold at most {room}",
                    self.remaining_bytes()
                ),
            ));
        }
        Ok(count as usize)
    }

    /// The next token, or a "file ends" error naming `what`.
    pub fn expect<F: Fn() -> String>(&mut self, what: F) -> Result<Token<'a>, LoadError> {
        match self.next_token() {
            Some(t) => Ok(t),
            None => Err(error(
                ErrorKind::Truncated,
                self.line(),
                format!("file ends while reading {}", what()),
            )),
        }
    }

    /// A finite float.
    pub fn f32<F: Fn() -> String>(&mut self, what: F) -> Result<f32, LoadError> {
        let t = self.peek_or_eof(&what)?;
        match parse_f32(t.text) {
            Some(v) if v.is_finite() => {
                self.peeked = None;
                Ok(v)
            }
            Some(_) => Err(error(
                ErrorKind::NonFiniteFloat,
                t.line,
                format!("{}: {} is not a finite number", what(), t.show()),
            )),
            None => Err(not_a(t, "number", what)),
        }
    }

    /// A non-negative decimal integer.
    pub fn uint<F: Fn() -> String>(&mut self, what: F) -> Result<u32, LoadError> {
        let t = self.peek_or_eof(&what)?;
        match parse_uint(t.text) {
            Some(v) => {
                self.peeked = None;
                Ok(v)
            }
            None => Err(not_a(t, "whole number ≥ 0", what)),
        }
    }

    /// A decimal integer, possibly negative.
    pub fn int<F: Fn() -> String>(&mut self, what: F) -> Result<i64, LoadError> {
        let t = self.peek_or_eof(&what)?;
        match parse_int(t.text) {
            Some(v) => {
                self.peeked = None;
                Ok(v)
            }
            None => Err(not_a(t, "whole number", what)),
        }
    }

    /// Hexadecimal flags (`200`, `4200`, `0x10200`).
    pub fn hex<F: Fn() -> String>(&mut self, what: F) -> Result<u32, LoadError> {
        let t = self.peek_or_eof(&what)?;
        match parse_hex(t.text) {
            Some(v) => {
                self.peeked = None;
                Ok(v)
            }
            None => Err(not_a(t, "hexadecimal number", what)),
        }
    }

    /// Skips the tokens left on `line` (for directives whose arguments are ignored).
    pub fn skip_line(&mut self, line: u32) -> usize {
        let mut n = 0;
        while self.peek().is_some_and(|t| t.line == line) {
            self.peeked = None;
            n += 1;
        }
        n
    }

    /// Skips tokens while they are integers (a legacy BSP block); returns how many.
    pub fn skip_integers(&mut self) -> usize {
        let mut n = 0;
        while self.peek().is_some_and(|t| parse_int(t.text).is_some()) {
            self.peeked = None;
            n += 1;
        }
        n
    }

    fn peek_or_eof<F: Fn() -> String>(&mut self, what: &F) -> Result<Token<'a>, LoadError> {
        match self.peek() {
            Some(t) => Ok(t),
            None => Err(error(
                ErrorKind::Truncated,
                self.line(),
                format!("file ends while reading {}", what()),
            )),
        }
    }
}

fn not_a<F: Fn() -> String>(t: Token<'_>, kind: &str, what: F) -> LoadError {
    let message = if t.is_word() {
        format!(
            "{}: expected a {kind}, found {} (fewer records than the count declared?)",
            what(),
            t.show()
        )
    } else {
        format!("{}: expected a {kind}, found {}", what(), t.show())
    };
    error(ErrorKind::BadValue, t.line, message)
}

/// Decimal `u32` (an optional `+`, digits only).
pub fn parse_uint(s: &[u8]) -> Option<u32> {
    let s = s.strip_prefix(b"+").unwrap_or(s);
    if s.is_empty() {
        return None;
    }
    let mut v: u32 = 0;
    for &b in s {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(u32::from(d))?;
    }
    Some(v)
}

/// Decimal integer with an optional sign, within ±2³¹.
pub fn parse_int(s: &[u8]) -> Option<i64> {
    match s.first() {
        Some(b'-') => parse_uint(&s[1..]).map(|v| -i64::from(v)),
        _ => parse_uint(s).map(i64::from),
    }
}

/// Hexadecimal `u32` with an optional `0x` prefix.
pub fn parse_hex(s: &[u8]) -> Option<u32> {
    let s = s
        .strip_prefix(b"0x")
        .or_else(|| s.strip_prefix(b"0X"))
        .unwrap_or(s);
    if s.is_empty() || s.len() > 8 {
        return None;
    }
    let mut v: u32 = 0;
    for &b in s {
        let d = (b as char).to_digit(16)?;
        v = (v << 4) | d;
    }
    Some(v)
}

/// Exact powers of ten as `f32` (all below 2²⁴ · 2^k, so exactly representable).
const POW10: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// A float in the forms PIE files use (`-4`, `0.707111`, `1.`, `.5`, `4.76837e-07`).
///
/// Fast path (Clinger's): with at most 24 significant bits of digits and at most 10
/// decimals, `digits / 10^decimals` is one correctly rounded `f32` division, so the result
/// equals the standard library's. Anything else (exponents, long mantissas) goes to
/// [`str::parse`]. Returns `None` for text that is not a number; may return a non-finite
/// value, which the caller rejects.
pub fn parse_f32(s: &[u8]) -> Option<f32> {
    let (neg, body) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut mantissa: u32 = 0;
    let mut digits = 0usize;
    let mut decimals = 0usize;
    let mut dot = false;
    let mut fast = true;
    for &b in body {
        let d = b.wrapping_sub(b'0');
        if d <= 9 {
            digits += 1;
            if dot {
                decimals += 1;
            }
            match mantissa
                .checked_mul(10)
                .and_then(|m| m.checked_add(u32::from(d)))
            {
                Some(m) if m <= 1 << 24 => mantissa = m,
                _ => fast = false,
            }
        } else if b == b'.' && !dot {
            dot = true;
        } else {
            fast = false;
            break;
        }
    }
    if fast && digits > 0 && decimals < POW10.len() {
        let v = mantissa as f32 / POW10[decimals];
        return Some(if neg { -v } else { v });
    }
    // Rare forms: let the standard library decide (it also rejects junk).
    let text = std::str::from_utf8(s).ok()?;
    // `str::parse` accepts "inf"/"nan"/"infinity"; PIE does not.
    if !text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
    {
        return None;
    }
    text.parse::<f32>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<(String, u32)> {
        let mut t = Tokens::new(input);
        std::iter::from_fn(|| t.next_token())
            .map(|t| (String::from_utf8_lossy(t.text).into_owned(), t.line))
            .collect()
    }

    #[test]
    fn tokens_carry_line_numbers_across_line_endings() {
        let cases: &[(&[u8], &[(&str, u32)])] = &[
            (
                b"PIE 2\nTYPE 200\n",
                &[("PIE", 1), ("2", 1), ("TYPE", 2), ("200", 2)],
            ),
            (
                b"PIE 2\r\nTYPE 200\r\n",
                &[("PIE", 1), ("2", 1), ("TYPE", 2), ("200", 2)],
            ),
            (
                b"PIE 2\rTYPE 200\r",
                &[("PIE", 1), ("2", 1), ("TYPE", 2), ("200", 2)],
            ),
            (
                b"PIE 2\n\n\tTYPE 200",
                &[("PIE", 1), ("2", 1), ("TYPE", 3), ("200", 3)],
            ),
            (b"a b \t \n\x1a", &[("a", 1), ("b", 1)]),
            (b"# whole line\nA # trailing B\nC#D", &[("A", 2), ("C", 3)]),
            (b"", &[]),
        ];
        for (input, want) in cases {
            let want: Vec<_> = want.iter().map(|(s, l)| (s.to_string(), *l)).collect();
            assert_eq!(
                all(input),
                want,
                "input {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn peek_does_not_consume_and_remaining_bytes_shrinks() {
        let mut t = Tokens::new(b"A  BB\nC");
        assert_eq!(t.remaining_bytes(), 7);
        assert_eq!(t.peek().unwrap().text, b"A");
        assert_eq!(t.remaining_bytes(), 7);
        t.next_token();
        assert_eq!(t.peek().unwrap().text, b"BB");
        assert_eq!(t.remaining_bytes(), 4);
        t.next_token();
        t.next_token();
        assert_eq!(t.remaining_bytes(), 0);
        assert!(t.next_token().is_none());
    }

    #[test]
    fn counts_must_fit_in_the_rest_of_the_file() {
        let t = Tokens::new(b"1 2 3 4 5 6");
        assert_eq!(t.check_count(2, 3, "POINTS", 1).unwrap(), 2);
        let e = t.check_count(3, 3, "POINTS", 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge);
        assert!(t.check_count(u64::MAX, 3, "POINTS", 1).is_err());
    }

    #[test]
    fn floats_match_the_standard_library() {
        let cases = [
            "0",
            "-4",
            "8.0",
            "0.707111",
            "-0.000000",
            "1.",
            ".5",
            "+3",
            "-36.6678",
            "4.76837e-07",
            "123456789.5",
            "0.00000000001",
            "16777217",
            "1e3",
        ];
        for s in cases {
            let want: f32 = s.parse().unwrap();
            let got = parse_f32(s.as_bytes()).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{s}");
        }
        for bad in ["", "-", ".", "abc", "1.2.3", "inf", "nan", "1x", "--1"] {
            assert_eq!(parse_f32(bad.as_bytes()), None, "{bad}");
        }
        assert_eq!(parse_f32(b"1e39"), Some(f32::INFINITY));
    }

    #[test]
    fn integers_and_hex() {
        let ints: &[(&str, Option<i64>)] = &[
            ("0", Some(0)),
            ("+7", Some(7)),
            ("-1", Some(-1)),
            ("4294967295", Some(4294967295)),
            ("4294967296", None),
            ("1.5", None),
            ("", None),
            ("-", None),
        ];
        for (s, want) in ints {
            assert_eq!(parse_int(s.as_bytes()), *want, "{s}");
        }
        assert_eq!(parse_uint(b"-1"), None);
        let hex: &[(&str, Option<u32>)] = &[
            ("200", Some(0x200)),
            ("10200", Some(0x10200)),
            ("2a00", Some(0x2a00)),
            ("0x4200", Some(0x4200)),
            ("ffffffff", Some(u32::MAX)),
            ("100000000", None),
            ("g", None),
            ("", None),
        ];
        for (s, want) in hex {
            assert_eq!(parse_hex(s.as_bytes()), *want, "{s}");
        }
    }

    #[test]
    fn errors_name_the_line_and_the_field() {
        let mut t = Tokens::new(b"1\n2 x\n");
        assert_eq!(t.uint(|| "a".into()).unwrap(), 1);
        assert_eq!(t.uint(|| "b".into()).unwrap(), 2);
        let e = t.f32(|| "point 0 y".into()).unwrap_err();
        assert_eq!(e.location, Location::Line(2));
        assert!(e.message.contains("point 0 y"), "{}", e.message);
        let e = t
            .next_token()
            .map(|_| ())
            .and(t.f32(|| "point 0 z".into()).err());
        let e = e.unwrap();
        assert_eq!(e.kind, ErrorKind::Truncated);
        assert!(e.message.contains("file ends while reading point 0 z"));
    }
}
