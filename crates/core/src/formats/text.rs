//! Line splitting shared by the text formats (PIE, TPM).
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`; the yielded line has no terminator and is
//! numbered from 1 the way an editor shows it. No allocation: lines borrow the input.

/// Iterator over `(line number, line bytes)`, blank lines included.
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    rest: &'a [u8],
    line: u32,
    done: bool,
}

impl<'a> Lines<'a> {
    /// Lines of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Lines {
            rest: bytes,
            line: 0,
            done: bytes.is_empty(),
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u32, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.line += 1;
        match self.rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                let line = &self.rest[..i];
                let skip = if self.rest[i] == b'\r' && self.rest.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                self.rest = &self.rest[i + skip..];
                if self.rest.is_empty() {
                    self.done = true;
                }
                Some((self.line, line))
            }
            None => {
                self.done = true;
                Some((self.line, self.rest))
            }
        }
    }
}

/// Whitespace for the text formats: ASCII whitespace plus Ctrl-Z (the DOS end-of-file
/// byte some 1999-era files end with).
pub(crate) fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x1a
}

/// `line` without leading and trailing `is_space` bytes.
pub fn trim(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |e| e + 1);
    &line[start..end]
}

/// Whitespace-separated tokens of `line`: the plain reading the PIE tokenizer's tests
/// compare it with.
#[cfg(test)]
pub fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| is_space(b)).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected `(line number, line)` pairs.
    type Expected = &'static [(u32, &'static [u8])];

    #[test]
    #[allow(clippy::type_complexity)]
    fn line_endings_and_numbers() {
        let cases: &[(&[u8], Expected)] = &[
            (b"a\nb\n", &[(1, b"a"), (2, b"b")]),
            (b"a\r\nb", &[(1, b"a"), (2, b"b")]),
            (b"a\rb\r\r\nc", &[(1, b"a"), (2, b"b"), (3, b""), (4, b"c")]),
            (b"", &[]),
            (b"\n", &[(1, b"")]),
        ];
        for (input, want) in cases {
            let got: Vec<_> = Lines::new(input).collect();
            assert_eq!(&got, want, "input {:?}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn trims_blanks_and_ctrl_z() {
        assert_eq!(trim(b" \tPIE 2 \x1a"), b"PIE 2");
        assert_eq!(tokens(b"  200 3\t0 1 2 ").count(), 5);
    }
}
