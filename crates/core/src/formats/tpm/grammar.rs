//! The TPM block grammar (`../shared/specs/tpm.md`, "File Format"), and nothing more.
//!
//! Lines end at LF, CRLF or a lone CR ([`crate::formats::text::Lines`]). Each line is
//! trimmed; blank lines and lines starting with `//` are skipped (comments only on lines of
//! their own: `{ // x` is not a comment). A block is
//!
//! ```text
//! block-type ["block name"]
//! {
//! key = value
//! }
//! ```
//!
//! with `{` and `}` each alone on a line. `block-type` and `key` are identifiers
//! (ASCII letters, digits, `_`); the name is a double-quoted string without escapes.
//! `value` is everything after the first `=`, trimmed, and is interpreted later by
//! [`super::values`]. Repeated keys are kept in file order.
//!
//! Errors: a `{` on the header line or any other line that fits no rule is
//! [`ErrorKind::Syntax`]; a block that meets the next block header or the end of the file
//! before its `}` is [`ErrorKind::UnterminatedBlock`]; bytes that are not UTF-8 outside
//! comments are [`ErrorKind::Encoding`] (TPM files are meant to be ASCII). Every error
//! names its line.
//!
//! Not supported (the spec has none of it): nested blocks, trailing comments, escapes.

use crate::formats::text::{Lines, trim};
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// One `key = value` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Property<'a> {
    /// The identifier before `=`.
    pub key: &'a str,
    /// Everything after the first `=`, trimmed (quotes still on).
    pub value: &'a str,
    /// 1-based line number.
    pub line: u32,
}

/// One block: its type, optional quoted name and properties in file order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block<'a> {
    /// Block type as written (`mesh`, `fileinfo`, …).
    pub kind: &'a str,
    /// The quoted name without its quotes, if the header has one.
    pub name: Option<&'a str>,
    /// Line of the header.
    pub line: u32,
    /// Properties in file order; repeated keys are all kept.
    pub properties: Vec<Property<'a>>,
}

fn error(kind: ErrorKind, line: u32, message: impl Into<String>) -> LoadError {
    LoadError::new(kind, Location::Line(line), message)
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Whether `s` is a non-empty identifier.
pub(crate) fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_ident_byte)
}

/// Splits a block header (`mesh "Box"`, `fileinfo`) into type and name; the error says
/// what is wrong with it.
pub(crate) fn parse_header(text: &str) -> Result<(&str, Option<&str>), &'static str> {
    let end = text
        .bytes()
        .position(|c| !is_ident_byte(c))
        .unwrap_or(text.len());
    if end == 0 {
        return Err("expected a block type (an identifier)");
    }
    let (kind, rest) = text.split_at(end);
    if rest.is_empty() {
        return Ok((kind, None));
    }
    let rest = rest.trim_start();
    if rest == "{" {
        return Err("'{' must be on its own line after the block header");
    }
    let Some(quoted) = rest.strip_prefix('"') else {
        return Err("the block name must be a double-quoted string");
    };
    let Some(close) = quoted.find('"') else {
        return Err("the block name's string has no closing '\"'");
    };
    let (name, after) = (&quoted[..close], quoted[close + 1..].trim());
    match after {
        "" => Ok((kind, Some(name))),
        "{" => Err("'{' must be on its own line after the block header"),
        _ => Err("unexpected text after the block name"),
    }
}

/// `kind "name"` for messages.
pub fn describe(kind: &str, name: Option<&str>) -> String {
    match name {
        Some(n) => format!("{kind} \"{n}\""),
        None => kind.to_string(),
    }
}

enum State<'a> {
    Top,
    AwaitOpen(Block<'a>),
    Open(Block<'a>),
}

/// Parses the whole file into blocks.
///
/// # Errors
/// [`ErrorKind::Syntax`], [`ErrorKind::UnterminatedBlock`] or [`ErrorKind::Encoding`],
/// each at the line concerned.
pub(crate) fn parse_blocks(bytes: &[u8]) -> Result<Vec<Block<'_>>, LoadError> {
    let mut blocks = Vec::new();
    let mut state = State::Top;
    let mut last_line = 0;
    for (n, raw) in Lines::new(bytes) {
        last_line = n;
        let line = trim(raw);
        if line.is_empty() || line.starts_with(b"//") {
            continue;
        }
        let text = std::str::from_utf8(line).map_err(|e| {
            let bad = line.get(e.valid_up_to()).copied().unwrap_or(0);
            error(
                ErrorKind::Encoding,
                n,
                format!(
                    "byte 0x{bad:02X} at character {} is not valid UTF-8 (TPM files are ASCII)",
                    e.valid_up_to() + 1
                ),
            )
        })?;
        state = match state {
            State::Top => {
                if text == "{" || text == "}" {
                    return Err(error(
                        ErrorKind::Syntax,
                        n,
                        format!("'{text}' outside a block (a block header must come first)"),
                    ));
                }
                if text.contains('=') && parse_header(text).is_err() {
                    return Err(error(
                        ErrorKind::Syntax,
                        n,
                        "a `key = value` property outside any block",
                    ));
                }
                let (kind, name) = parse_header(text)
                    .map_err(|why| error(ErrorKind::Syntax, n, format!("block header: {why}")))?;
                State::AwaitOpen(Block {
                    kind,
                    name,
                    line: n,
                    properties: Vec::new(),
                })
            }
            State::AwaitOpen(block) => {
                if text != "{" {
                    return Err(error(
                        ErrorKind::Syntax,
                        n,
                        format!(
                            "expected '{{' alone on the line after the header of {} (line {})",
                            describe(block.kind, block.name),
                            block.line
                        ),
                    ));
                }
                State::Open(block)
            }
            State::Open(mut block) => {
                if text == "}" {
                    blocks.push(block);
                    State::Top
                } else if let Some((key, value)) = text.split_once('=') {
                    let key = key.trim();
                    if !is_identifier(key) {
                        return Err(error(
                            ErrorKind::Syntax,
                            n,
                            format!("property name `{key}` is not an identifier"),
                        ));
                    }
                    block.properties.push(Property {
                        key,
                        value: value.trim(),
                        line: n,
                    });
                    State::Open(block)
                } else if parse_header(text).is_ok() {
                    return Err(error(
                        ErrorKind::UnterminatedBlock,
                        block.line,
                        format!(
                            "{} has no closing '}}' before the next block header at line {n}",
                            describe(block.kind, block.name)
                        ),
                    ));
                } else {
                    return Err(error(
                        ErrorKind::Syntax,
                        n,
                        format!(
                            "expected `key = value` or '}}' inside {} (line {})",
                            describe(block.kind, block.name),
                            block.line
                        ),
                    ));
                }
            }
        };
    }
    match state {
        State::Top => Ok(blocks),
        State::AwaitOpen(block) | State::Open(block) => Err(error(
            ErrorKind::UnterminatedBlock,
            block.line,
            format!(
                "{} is not closed with '}}' before the end of the file (line {last_line})",
                describe(block.kind, block.name)
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(kind, name, [(key, value, line)])` of each block.
    type Shape<'a> = Vec<(&'a str, Option<&'a str>, Vec<(&'a str, &'a str, u32)>)>;

    fn shape<'a>(blocks: &[Block<'a>]) -> Shape<'a> {
        blocks
            .iter()
            .map(|b| {
                let props = b
                    .properties
                    .iter()
                    .map(|p| (p.key, p.value, p.line))
                    .collect();
                (b.kind, b.name, props)
            })
            .collect()
    }

    #[test]
    fn accepted_inputs() {
        let cases: &[(&str, &[u8], Shape)] = &[
            (
                "spec example, tabs, repeated keys",
                b"BlockType \"Block ID 0\"\n{\n\tPropertyA = \"X Y Z\"\n\tPropertyB = +2.99E8\n\tPropertyC = (1, A), (2, B)\n\tPropertyD = \" string with = and whitespace \"\n}\n\nBlockTypeNoName\n{\n\tPropertyA = \"A B C\"\n\tPropertyA = 2\n}\n",
                vec![
                    (
                        "BlockType",
                        Some("Block ID 0"),
                        vec![
                            ("PropertyA", "\"X Y Z\"", 3),
                            ("PropertyB", "+2.99E8", 4),
                            ("PropertyC", "(1, A), (2, B)", 5),
                            ("PropertyD", "\" string with = and whitespace \"", 6),
                        ],
                    ),
                    (
                        "BlockTypeNoName",
                        None,
                        vec![("PropertyA", "\"A B C\"", 11), ("PropertyA", "2", 12)],
                    ),
                ],
            ),
            (
                "CRLF, comments, blank and whitespace-only lines, empty block",
                b"// c\r\n   // indented\r\n\t\r\nmaterial \"Plain\"\r\n{\r\n}\r\n",
                vec![("material", Some("Plain"), vec![])],
            ),
            (
                "lone CR and spaces around = and in the name",
                b"mesh   \"A B\"  \r{\r  m  =   \"x\"   \r}",
                vec![("mesh", Some("A B"), vec![("m", "\"x\"", 3)])],
            ),
            ("only comments", b"// nothing\n//\n", vec![]),
            (
                "empty value",
                b"fileinfo\n{\ncomments =\n}\n",
                vec![("fileinfo", None, vec![("comments", "", 3)])],
            ),
        ];
        for (what, input, want) in cases {
            let got = parse_blocks(input).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(&shape(&got), want, "{what}");
        }
    }

    #[test]
    fn rejected_inputs() {
        let cases: &[(&str, &[u8], ErrorKind, u32)] = &[
            (
                "brace on header line",
                b"mesh \"Box\" {\n}\n",
                ErrorKind::Syntax,
                1,
            ),
            (
                "trailing comment after brace",
                b"mesh\n{ // x\n}\n",
                ErrorKind::Syntax,
                2,
            ),
            ("unquoted name", b"mesh Box\n{\n}\n", ErrorKind::Syntax, 1),
            ("unclosed name", b"mesh \"Box\n{\n}\n", ErrorKind::Syntax, 1),
            ("stray close", b"}\n", ErrorKind::Syntax, 1),
            ("property at top", b"a = 1\n", ErrorKind::Syntax, 1),
            (
                "key not identifier",
                b"mesh\n{\nm x = 1\n}\n",
                ErrorKind::Syntax,
                3,
            ),
            (
                "junk line in block",
                b"mesh\n{\n(1,2,3)\n}\n",
                ErrorKind::Syntax,
                3,
            ),
            ("nested open", b"mesh\n{\n{\n}\n", ErrorKind::Syntax, 3),
            ("no open brace", b"mesh\nm = 1\n", ErrorKind::Syntax, 2),
            (
                "next header before close",
                b"mesh \"A\"\n{\nv = (1,2,3)\n\ninstance \"B\"\n{\n}\n",
                ErrorKind::UnterminatedBlock,
                1,
            ),
            (
                "end of file in block",
                b"fileinfo\n{\nformatversion = 1.0.1\n}\nmesh \"A\"\n{\nv = (0.5",
                ErrorKind::UnterminatedBlock,
                5,
            ),
            (
                "end of file after header",
                b"mesh \"A\"\n",
                ErrorKind::UnterminatedBlock,
                1,
            ),
            (
                "latin-1 byte",
                b"material \"Caf\xe9\"\n{\n}\n",
                ErrorKind::Encoding,
                1,
            ),
        ];
        for (what, input, kind, line) in cases {
            match parse_blocks(input) {
                Ok(b) => panic!("{what}: accepted as {:?}", shape(&b)),
                Err(e) => {
                    assert_eq!(
                        (e.kind, e.location),
                        (*kind, Location::Line(*line)),
                        "{what}: {e}"
                    );
                }
            }
        }
    }

    #[test]
    fn latin1_in_a_comment_is_skipped() {
        assert_eq!(parse_blocks(b"// caf\xe9\n").map(|b| b.len()), Ok(0));
    }
}
