//! The PIE token stream: whitespace-separated words, each with its 1-based line number.
//!
//! The 1999 and 2.x loaders scanned a whitespace-agnostic token stream, so old files put
//! several records on one line (or split one over several); the current loader reads one
//! record per line. Reading tokens accepts both. Lines are split by [`Lines`](crate::formats::text::Lines)
//! (`\n`, `\r\n` or a lone `\r`), `#` starts a comment that runs to the end of the line
//! (the game strips comments in every version), and `formats::text::is_space` separates tokens,
//! so trailing blanks and a DOS Ctrl-Z end-of-file byte vanish. Nothing is allocated:
//! tokens borrow the input, and numbers are parsed from the bytes in place.

#[cfg(test)]
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

/// Byte classes of the scanner.
const TOKEN: u8 = 0;
const SPACE: u8 = 1;
const LF: u8 = 2;
const CR: u8 = 3;
const HASH: u8 = 4;

/// Class of every byte: the separators of [`is_space`](crate::formats::text::is_space) (ASCII whitespace and
/// Ctrl-Z), the line breaks of [`Lines`](crate::formats::text::Lines) and `#`. A unit test checks the table
/// against both, so the scanner splits exactly as the shared text helpers do.
const CLASS: [u8; 256] = {
    let mut t = [TOKEN; 256];
    t[b' ' as usize] = SPACE;
    t[b'\t' as usize] = SPACE;
    t[0x0c] = SPACE;
    t[0x1a] = SPACE;
    t[b'\n' as usize] = LF;
    t[b'\r' as usize] = CR;
    t[b'#' as usize] = HASH;
    t
};

/// Cursor over the tokens of a PIE file: one pass over the bytes, no allocation.
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    input: &'a [u8],
    /// Next unscanned byte.
    pos: usize,
    /// Line of `pos` (1-based).
    cur_line: u32,
    /// Line of the most recently scanned token.
    last_line: u32,
    peeked: Option<Token<'a>>,
}

impl<'a> Tokens<'a> {
    /// Tokens of `input`.
    pub fn new(input: &'a [u8]) -> Self {
        Tokens {
            input,
            pos: 0,
            cur_line: 1,
            last_line: 1,
            peeked: None,
        }
    }

    /// The line of the most recently read (or peeked) token (1 before the first). Used
    /// for "file ends while reading …" errors.
    pub fn line(&self) -> u32 {
        self.last_line
    }

    /// Moves `pos` to the start of the next token (counting lines on the way); `false`
    /// at the end of the input.
    #[inline(always)]
    fn skip_space(&mut self) -> bool {
        let input = self.input;
        let mut i = self.pos;
        loop {
            let Some(&b) = input.get(i) else {
                self.pos = i;
                return false;
            };
            let class = CLASS[b as usize];
            if class == TOKEN {
                break;
            }
            i += 1;
            // Blanks fall through every test below.
            if class == LF {
                self.cur_line += 1;
            } else if class == CR {
                self.cur_line += 1;
                if input.get(i) == Some(&b'\n') {
                    i += 1;
                }
            } else if class == HASH {
                // `#` comment: skip to the line break.
                while input.get(i).is_some_and(|&b| b != b'\n' && b != b'\r') {
                    i += 1;
                }
            }
        }
        self.pos = i;
        true
    }

    fn scan(&mut self) -> Option<Token<'a>> {
        if !self.skip_space() {
            return None;
        }
        let input = self.input;
        let start = self.pos;
        let mut i = start;
        while input.get(i).is_some_and(|&b| CLASS[b as usize] == TOKEN) {
            i += 1;
        }
        self.pos = i;
        self.last_line = self.cur_line;
        Some(Token {
            text: input.get(start..i)?,
            line: self.cur_line,
        })
    }

    /// Runs a fused scan-and-parse fast path `fast` at the next token: it returns the
    /// value and the end of the number, which must be followed by a separator. `None`
    /// leaves the position unchanged for the slow path.
    #[inline(always)]
    fn fast<T>(&mut self, fast: impl Fn(&[u8]) -> Option<(T, usize)>) -> Option<T> {
        if self.peeked.is_some() || !self.skip_space() {
            return None;
        }
        let rest = self.input.get(self.pos..)?;
        let (v, len) = fast(rest)?;
        let mut end = len;
        match rest.get(len) {
            Some(&b) if CLASS[b as usize] == TOKEN => return None,
            // One blank before the next token, the commonest case: step over it now.
            Some(b' ' | b'\t')
                if rest
                    .get(len + 1)
                    .is_some_and(|&b| CLASS[b as usize] == TOKEN) =>
            {
                end += 1;
            }
            _ => {}
        }
        self.pos += end;
        self.last_line = self.cur_line;
        Some(v)
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

    /// Bytes from the next unread token to the end of the input: an upper bound on what
    /// the rest of the file can still hold.
    pub fn remaining_bytes(&self) -> usize {
        let peeked = self.peeked.map_or(0, |t| t.text.len());
        self.input.len().saturating_sub(self.pos) + peeked
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
            None => Err(self.eof(&what)),
        }
    }

    fn eof<F: Fn() -> String>(&self, what: &F) -> LoadError {
        error(
            ErrorKind::Truncated,
            self.line(),
            format!("file ends while reading {}", what()),
        )
    }

    /// A finite float.
    #[inline(always)]
    pub fn f32<F: Fn() -> String>(&mut self, what: F) -> Result<f32, LoadError> {
        match self.fast(fast_f32) {
            Some(v) => Ok(v),
            None => self.f32_slow(what),
        }
    }

    #[cold]
    fn f32_slow<F: Fn() -> String>(&mut self, what: F) -> Result<f32, LoadError> {
        let t = self.expect(&what)?;
        match parse_f32(t.text) {
            Some(v) if v.is_finite() => Ok(v),
            Some(_) => Err(error(
                ErrorKind::NonFiniteFloat,
                t.line,
                format!("{}: {} is not a finite number", what(), t.show()),
            )),
            None => Err(not_a(t, "number", what)),
        }
    }

    /// A non-negative decimal integer.
    #[inline(always)]
    pub fn uint<F: Fn() -> String>(&mut self, what: F) -> Result<u32, LoadError> {
        match self.fast(fast_uint) {
            Some(v) => Ok(v),
            None => self.uint_slow(what),
        }
    }

    #[cold]
    fn uint_slow<F: Fn() -> String>(&mut self, what: F) -> Result<u32, LoadError> {
        let t = self.expect(&what)?;
        parse_uint(t.text).ok_or_else(|| not_a(t, "whole number ≥ 0", what))
    }

    /// A decimal integer, possibly negative.
    pub fn int<F: Fn() -> String>(&mut self, what: F) -> Result<i64, LoadError> {
        let t = self.expect(&what)?;
        parse_int(t.text).ok_or_else(|| not_a(t, "whole number", what))
    }

    /// Hexadecimal flags (`200`, `4200`, `0x10200`).
    #[inline(always)]
    pub fn hex<F: Fn() -> String>(&mut self, what: F) -> Result<u32, LoadError> {
        match self.fast(fast_hex) {
            Some(v) => Ok(v),
            None => self.hex_slow(what),
        }
    }

    #[cold]
    fn hex_slow<F: Fn() -> String>(&mut self, what: F) -> Result<u32, LoadError> {
        let t = self.expect(&what)?;
        parse_hex(t.text).ok_or_else(|| not_a(t, "hexadecimal number", what))
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

/// The run of decimal digits starting at `s[at]`: its value and length (possibly 0).
/// `None` for runs too long for the fast paths (8 or more digits). With 8 bytes to read it
/// works on all 8 at once (SWAR), so a number's length costs no branch per digit.
#[inline(always)]
fn digit_run(s: &[u8], at: usize) -> Option<(u32, usize)> {
    let Some(bytes) = s.get(at..at.wrapping_add(8)) else {
        // Near the end of the input: one digit at a time.
        let mut v: u32 = 0;
        let mut n = 0;
        while let Some(&b) = s.get(at + n) {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v * 10 + u32::from(d);
            n += 1;
        }
        return Some((v, n));
    };
    let chunk = u64::from_le_bytes(bytes.try_into().ok()?);
    // Digit bytes become 0..=9; a byte is a digit iff that value is below 10.
    let t = chunk ^ 0x3030_3030_3030_3030;
    let non_digit = (t.wrapping_add(0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080;
    if non_digit == 0 {
        return None;
    }
    let len = (non_digit.trailing_zeros() / 8) as usize;
    if len == 0 {
        return Some((0, 0));
    }
    // Move the digits to the top bytes (the bytes after them fall off; zeros, i.e.
    // leading '0' digits, fill the bottom), then combine pairs, quads, octets.
    let v = t << (8 * (8 - len));
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    let v = ((v & 0x0000_00FF_0000_00FF)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32))))
        >> 32;
    Some((v as u32, len))
}

/// Fast path of [`parse_uint`]: leading digits of `s` (fewer than 8) and how many bytes
/// they take.
#[inline(always)]
fn fast_uint(s: &[u8]) -> Option<(u32, usize)> {
    let (v, n) = digit_run(s, 0)?;
    (n > 0).then_some((v, n))
}

/// Fast path of [`parse_hex`]: leading hex digits of `s` (at most 8).
#[inline(always)]
fn fast_hex(s: &[u8]) -> Option<(u32, usize)> {
    let mut v: u32 = 0;
    let mut n = 0;
    while let Some(&b) = s.get(n) {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => break,
        };
        if n == 8 {
            return None;
        }
        v = (v << 4) | u32::from(d);
        n += 1;
    }
    (n > 0).then_some((v, n))
}

/// Fast path of [`parse_f32`]: `[-]digits[.digits]` with at most 24 significant bits and
/// 10 decimals, converted exactly as [`parse_f32`] does; anything else is left to it.
#[inline(always)]
fn fast_f32(s: &[u8]) -> Option<(f32, usize)> {
    let neg = s.first() == Some(&b'-');
    let mut n = usize::from(neg);
    let (whole, digits) = digit_run(s, n)?;
    n += digits;
    let mut mantissa = u64::from(whole);
    let mut decimals = 0usize;
    if s.get(n) == Some(&b'.') {
        n += 1;
        let (frac, len) = digit_run(s, n)?;
        n += len;
        decimals = len;
        mantissa = mantissa * POW10_INT[len] + u64::from(frac);
    }
    if digits + decimals == 0 || mantissa > 1 << 24 {
        return None;
    }
    let m = mantissa as f32;
    // Whole numbers (all of PIE 2) need no division.
    let v = if decimals == 0 {
        m
    } else {
        m / *POW10.get(decimals)?
    };
    Some((if neg { -v } else { v }, n))
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
/// Powers of ten for joining a number's whole and decimal digits.
const POW10_INT: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

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
mod tests;
