//! What a `game.js` may not hold, refused before any of it runs: a file over
//! [`MAX_SOURCE_BYTES`], brackets nested deeper than [`MAX_NESTING`] (Boa's parser
//! recurses once per level and overflows the stack long before a limit of its own), and
//! the syntax of what the game's map-script context lacks: regular expressions (its
//! QuickJS context is made without `regExp`, so a literal is a `SyntaxError` there too),
//! BigInt literals, and `async`/`await` (no `promise`). Those are the engine's paths
//! to work the script's own instructions do not pay for: a backtracking expression, a
//! number with millions of digits, a chain of promise jobs.

use super::{MAX_NESTING, MAX_SOURCE_BYTES};
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// Size and nesting: no allocation, one pass over the bytes.
///
/// # Errors
/// A file over [`MAX_SOURCE_BYTES`]; a bracket at a depth over [`MAX_NESTING`], at its
/// line.
pub fn screen_text(source: &[u8]) -> Result<(), LoadError> {
    if let Some(e) = script_too_large(source.len() as u64) {
        return Err(e);
    }
    match deepest(source) {
        Some(line) => Err(LoadError::new(
            ErrorKind::CountTooLarge,
            Location::Line(line),
            format!(
                "brackets nested more than {MAX_NESTING} deep (map scripts are limited to \
                 {MAX_NESTING}; the shipped ones nest at most 10)"
            ),
        )),
        None => Ok(()),
    }
}

/// The refusal of a `game.js` of `len` bytes, if it is over [`MAX_SOURCE_BYTES`].
pub fn script_too_large(len: u64) -> Option<LoadError> {
    (len > MAX_SOURCE_BYTES).then(|| {
        LoadError::new(
            ErrorKind::CountTooLarge,
            Location::File,
            format!(
                "the script is {len} bytes; map scripts are limited to {MAX_SOURCE_BYTES} \
                 (the largest shipped map's is 37 KB)"
            ),
        )
    })
}

/// The line of the first bracket past [`MAX_NESTING`], if any: `(`, `[`, `{` and a
/// template's `${` counted outside comments, strings and template text. A regular
/// expression literal is read as code (this pass cannot tell it from a division);
/// the syntax screen refuses such a script anyway.
fn deepest(source: &[u8]) -> Option<u32> {
    let mut line = 1u32;
    let mut depth = 0u32;
    // Per open bracket: does it close a template's `${`? (bounded by MAX_NESTING)
    let mut in_template = Vec::new();
    let mut i = 0;
    while i < source.len() {
        let c = source[i];
        let next = source.get(i + 1).copied();
        match c {
            b'\n' => line += 1,
            b'/' if next == Some(b'/') => {
                i = skip_until(source, i + 2, b"\n", &mut line).saturating_sub(1);
            }
            b'/' if next == Some(b'*') => i = skip_until(source, i + 2, b"*/", &mut line),
            b'"' | b'\'' => i = skip_string(source, i + 1, c, &mut line),
            b'`' => match skip_template(source, i + 1, &mut line) {
                (end, true) => {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Some(line);
                    }
                    in_template.push(true);
                    i = end;
                }
                (end, false) => i = end,
            },
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(line);
                }
                in_template.push(false);
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if c == b'}' && in_template.pop() == Some(true) {
                    // Back in the template's text after its `${…}`.
                    match skip_template(source, i + 1, &mut line) {
                        (end, true) => {
                            depth += 1;
                            in_template.push(true);
                            i = end;
                        }
                        (end, false) => i = end,
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the last byte of `end` from `from` (or the last byte), counting lines.
fn skip_until(source: &[u8], from: usize, end: &[u8], line: &mut u32) -> usize {
    let mut i = from;
    while i < source.len() {
        if source[i..].starts_with(end) {
            return i + end.len() - 1;
        }
        if source[i] == b'\n' {
            *line += 1;
        }
        i += 1;
    }
    source.len()
}

/// The index of a string's closing quote (or the last byte).
fn skip_string(source: &[u8], from: usize, quote: u8, line: &mut u32) -> usize {
    let mut i = from;
    while i < source.len() {
        match source[i] {
            b'\\' => i += 1,
            b'\n' => *line += 1,
            c if c == quote => return i,
            _ => {}
        }
        i += 1;
    }
    source.len()
}

/// A template's text from `from`: the index of its closing backtick (`false`) or of the
/// `{` of a `${` (`true`).
fn skip_template(source: &[u8], from: usize, line: &mut u32) -> (usize, bool) {
    let mut i = from;
    while i < source.len() {
        match source[i] {
            b'\\' => i += 1,
            b'\n' => *line += 1,
            b'`' => return (i, false),
            b'$' if source.get(i + 1) == Some(&b'{') => return (i + 1, true),
            _ => {}
        }
        i += 1;
    }
    (source.len(), false)
}

#[cfg(feature = "script")]
pub(super) use syntax::screen_syntax;

#[cfg(feature = "script")]
mod syntax {
    use crate::formats::{ErrorKind, LoadError};
    use crate::model::Location;
    use boa_engine::ast::expression::literal::{Literal, LiteralKind};
    use boa_engine::ast::expression::{Await, RegExpLiteral};
    use boa_engine::ast::function::{
        AsyncArrowFunction, AsyncFunctionDeclaration, AsyncFunctionExpression,
        AsyncGeneratorDeclaration, AsyncGeneratorExpression,
    };
    use boa_engine::ast::visitor::Visitor;
    use boa_engine::ast::{Script, Span, Spanned};
    use std::ops::ControlFlow;

    /// The first construct the game's map-script context lacks, at its line.
    ///
    /// # Errors
    /// A regular expression, a BigInt literal, an `async` function or `await`.
    pub(in crate::map::script) fn screen_syntax(script: &Script) -> Result<(), LoadError> {
        match Screen.visit_script(script) {
            ControlFlow::Continue(()) => Ok(()),
            ControlFlow::Break((line, what)) => Err(LoadError::new(
                ErrorKind::Unsupported,
                Location::Line(line),
                format!(
                    "{what}: the game's map-script context has none (Warzone 2100 runs \
                     game.js without regular expressions, BigInt and promises), so \
                     map scripts may not use them"
                ),
            )),
        }
    }

    struct Screen;

    type Found = (u32, &'static str);

    fn at(span: Span, what: &'static str) -> ControlFlow<Found> {
        ControlFlow::Break((span.start().line_number(), what))
    }

    impl<'ast> Visitor<'ast> for Screen {
        type BreakTy = Found;

        fn visit_reg_exp_literal(&mut self, node: &'ast RegExpLiteral) -> ControlFlow<Found> {
            at(node.span(), "a regular expression")
        }

        fn visit_literal(&mut self, node: &'ast Literal) -> ControlFlow<Found> {
            if matches!(node.kind(), LiteralKind::BigInt(_)) {
                return at(node.span(), "a BigInt literal");
            }
            ControlFlow::Continue(())
        }

        fn visit_await(&mut self, node: &'ast Await) -> ControlFlow<Found> {
            at(node.span(), "await")
        }

        fn visit_async_arrow_function(
            &mut self,
            node: &'ast AsyncArrowFunction,
        ) -> ControlFlow<Found> {
            at(node.span(), "an async function")
        }

        fn visit_async_function_expression(
            &mut self,
            node: &'ast AsyncFunctionExpression,
        ) -> ControlFlow<Found> {
            at(node.span(), "an async function")
        }

        fn visit_async_function_declaration(
            &mut self,
            node: &'ast AsyncFunctionDeclaration,
        ) -> ControlFlow<Found> {
            at(node.body().span(), "an async function")
        }

        fn visit_async_generator_expression(
            &mut self,
            node: &'ast AsyncGeneratorExpression,
        ) -> ControlFlow<Found> {
            at(node.span(), "an async generator")
        }

        fn visit_async_generator_declaration(
            &mut self,
            node: &'ast AsyncGeneratorDeclaration,
        ) -> ControlFlow<Found> {
            at(node.body().span(), "an async generator")
        }
    }
}
