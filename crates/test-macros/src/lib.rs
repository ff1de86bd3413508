//! `#[vitrine_test(shared)]`, `#[vitrine_test(gpu)]`, `#[vitrine_test(shared, gpu)]`: a
//! test that needs the shared corpus (`../shared/corpus`) or a GPU adapter says so, and
//! the attribute turns that into what libtest and the helpers check.
//!
//! `#[vitrine_test(gpu)] fn f() { body }` becomes
//!
//! ```text
//! #[test]
//! #[cfg_attr(vitrine_no_gpu, ignore = "needs a GPU adapter (…)")]
//! fn f() { let _needs = ::vitrine_test_needs::__enter("f", false, true); body }
//! ```
//!
//! The cfgs are set by the test crate's build script when the corpus or an adapter is
//! absent, so libtest lists the test as ignored with the reason. The statement records,
//! for the running thread, what the test declared: the helpers that reach the corpus or
//! a GPU (`shared_dir()`, `Rig::new()`, `gpu()`, …) panic when their test did not declare
//! it — on every machine — so an unmarked test fails rather than passing where the
//! corpus or a GPU happens to be absent.
//!
//! Non-goal: parsing Rust. The item is kept as written; the statement goes first in the
//! last top-level `{ … }` group, which for a `fn` item is its body.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Libtest's reason for a test that needs the corpus when it is absent.
const NO_SHARED: &str = "needs ../shared/corpus";
/// … and for one that needs an adapter when the build found none.
const NO_GPU: &str = "needs a GPU adapter (none found at build time; install mesa-vulkan-drivers)";

/// Marks a test that needs the shared corpus (`shared`), a GPU adapter (`gpu`) or both;
/// see the crate's documentation.
#[proc_macro_attribute]
pub fn vitrine_test(attr: TokenStream, item: TokenStream) -> TokenStream {
    match expand(attr, item) {
        Ok(out) => out,
        Err((span, message)) => compile_error(span, &message),
    }
}

type Error = (Span, String);

fn expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    let (shared, gpu) = needs(attr)?;
    let mut tokens: Vec<TokenTree> = item.into_iter().collect();
    check_attributes(&tokens)?;
    let name = fn_name(&tokens)?;
    let body_at = tokens
        .iter()
        .rposition(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
        .ok_or_else(|| {
            (
                Span::call_site(),
                "#[vitrine_test] goes on a test fn".to_string(),
            )
        })?;
    let TokenTree::Group(body) = &tokens[body_at] else {
        unreachable!("found as a brace group")
    };
    let enter: TokenStream = format!(
        "let _vitrine_test_needs = ::vitrine_test_needs::__enter({:?}, {shared}, {gpu});",
        name
    )
    .parse()
    .expect("a statement");
    let mut new_body = enter;
    new_body.extend(body.stream());
    let mut group = Group::new(Delimiter::Brace, new_body);
    group.set_span(body.span());
    tokens[body_at] = TokenTree::Group(group);

    let mut out: TokenStream = "#[test]".parse().expect("an attribute");
    out.extend(ignore_attributes(shared, gpu));
    out.extend(tokens);
    Ok(out)
}

/// `shared`, `gpu` or both, comma separated.
fn needs(attr: TokenStream) -> Result<(bool, bool), Error> {
    let (mut shared, mut gpu) = (false, false);
    for t in attr {
        match &t {
            TokenTree::Ident(i) if i.to_string() == "shared" && !shared => shared = true,
            TokenTree::Ident(i) if i.to_string() == "gpu" && !gpu => gpu = true,
            TokenTree::Punct(p) if p.as_char() == ',' => {}
            other => {
                return Err((
                    other.span(),
                    format!("#[vitrine_test]: unknown or repeated need `{other}` (shared, gpu)"),
                ));
            }
        }
    }
    if !shared && !gpu {
        return Err((
            Span::call_site(),
            "#[vitrine_test] names what the test needs: shared, gpu or both (a test that \
             needs neither is a plain #[test])"
                .to_string(),
        ));
    }
    Ok((shared, gpu))
}

/// Refuses the attributes the expansion adds (a second `#[test]`, the older hand-written
/// `cfg_attr(vitrine_no_shared, ignore …)` marker), which would otherwise repeat.
fn check_attributes(tokens: &[TokenTree]) -> Result<(), Error> {
    for pair in tokens.windows(2) {
        let (TokenTree::Punct(p), TokenTree::Group(g)) = (&pair[0], &pair[1]) else {
            continue;
        };
        if p.as_char() != '#' || g.delimiter() != Delimiter::Bracket {
            continue;
        }
        let text = g.stream().to_string();
        let first = g.stream().into_iter().next().map(|t| t.to_string());
        if first.as_deref() == Some("test") || text.contains("vitrine_no_") {
            return Err((
                g.span(),
                format!(
                    "#[vitrine_test] adds #[test] and the ignore marker itself: remove #[{text}]"
                ),
            ));
        }
    }
    Ok(())
}

/// The name after `fn`.
fn fn_name(tokens: &[TokenTree]) -> Result<String, Error> {
    let mut after_fn = false;
    for t in tokens {
        if let TokenTree::Ident(i) = t {
            if after_fn {
                return Ok(i.to_string());
            }
            after_fn = i.to_string() == "fn";
        }
    }
    Err((
        Span::call_site(),
        "#[vitrine_test] goes on a test fn".to_string(),
    ))
}

/// One `cfg_attr(…, ignore = "…")` per combination of absent needs, so an ignored test
/// has one `ignore` attribute whose reason names everything it lacks.
fn ignore_attributes(shared: bool, gpu: bool) -> TokenStream {
    let both = format!("{NO_SHARED}; {NO_GPU}");
    let cases: Vec<(&str, &str)> = match (shared, gpu) {
        (true, false) => vec![("vitrine_no_shared", NO_SHARED)],
        (false, true) => vec![("vitrine_no_gpu", NO_GPU)],
        _ => vec![
            ("all(vitrine_no_shared, not(vitrine_no_gpu))", NO_SHARED),
            ("all(vitrine_no_gpu, not(vitrine_no_shared))", NO_GPU),
            ("all(vitrine_no_shared, vitrine_no_gpu)", both.as_str()),
        ],
    };
    let mut out = TokenStream::new();
    for (cfg, reason) in cases {
        let attr = format!("#[cfg_attr({cfg}, ignore = {})]", Literal::string(reason));
        out.extend(attr.parse::<TokenStream>().expect("an attribute"));
    }
    out
}

/// `compile_error!("…")` at `span`.
fn compile_error(span: Span, message: &str) -> TokenStream {
    let mut lit = Literal::string(message);
    lit.set_span(span);
    let mut bang = Punct::new('!', Spacing::Alone);
    bang.set_span(span);
    let mut semi = Punct::new(';', Spacing::Alone);
    semi.set_span(span);
    TokenStream::from_iter([
        TokenTree::Ident(Ident::new("compile_error", span)),
        TokenTree::Punct(bang),
        TokenTree::Group(Group::new(
            Delimiter::Parenthesis,
            TokenTree::Literal(lit).into(),
        )),
        TokenTree::Punct(semi),
    ])
}
