//! `#[vitrine_test(shared)]`, `#[vitrine_test(gpu)]`, `#[vitrine_test(game)]`,
//! `#[vitrine_test(mapdb)]` (the map database's validator: Python and its package) or several
//! (`#[vitrine_test(shared, gpu)]`): a test that needs the shared corpus
//! (`../shared/corpus`), a GPU adapter or the installed Warzone 2100 says so, and the
//! attribute turns that into what libtest and the helpers check.
//!
//! `#[vitrine_test(gpu)] fn f() { body }` becomes
//!
//! ```text
//! #[test]
//! #[cfg_attr(all(vitrine_no_gpu), ignore = "needs a GPU adapter (…)")]
//! fn f() { let _needs = ::vitrine_test_needs::__enter("f", false, true, false, false); body }
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
/// … and for one that needs the installed game when the build found none.
const NO_GAME: &str =
    "needs Warzone 2100 installed (its base.wz, mp.wz and program; apt-get install warzone2100)";
/// … and for one that needs the map database's validator when the build found none.
const NO_MAPDB: &str = "needs python3 with license_expression (pip install license_expression==30.4.4) \
     for the map database's validator";

/// What a test declared: the shared corpus, a GPU adapter, the installed game.
#[derive(Clone, Copy, Default)]
struct Declared {
    shared: bool,
    gpu: bool,
    game: bool,
    mapdb: bool,
}

impl Declared {
    /// The declared needs as (cfg the build scripts set when it is absent, reason).
    fn absent_cases(self) -> Vec<(&'static str, &'static str)> {
        [
            (self.shared, "vitrine_no_shared", NO_SHARED),
            (self.gpu, "vitrine_no_gpu", NO_GPU),
            (self.game, "vitrine_no_game", NO_GAME),
            (self.mapdb, "vitrine_no_mapdb", NO_MAPDB),
        ]
        .into_iter()
        .filter(|(declared, _, _)| *declared)
        .map(|(_, cfg, reason)| (cfg, reason))
        .collect()
    }
}

/// Marks a test that needs the shared corpus (`shared`), a GPU adapter (`gpu`), the
/// installed game (`game`) or several; see the crate's documentation.
#[proc_macro_attribute]
pub fn vitrine_test(attr: TokenStream, item: TokenStream) -> TokenStream {
    match expand(attr, item) {
        Ok(out) => out,
        Err((span, message)) => compile_error(span, &message),
    }
}

type Error = (Span, String);

fn expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    let declared = needs(attr)?;
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
        "let _vitrine_test_needs = ::vitrine_test_needs::__enter({:?}, {}, {}, {}, {});",
        name, declared.shared, declared.gpu, declared.game, declared.mapdb
    )
    .parse()
    .expect("a statement");
    let mut new_body = enter;
    new_body.extend(body.stream());
    let mut group = Group::new(Delimiter::Brace, new_body);
    group.set_span(body.span());
    tokens[body_at] = TokenTree::Group(group);

    let mut out: TokenStream = "#[test]".parse().expect("an attribute");
    out.extend(ignore_attributes(declared));
    out.extend(tokens);
    Ok(out)
}

/// `shared`, `gpu`, `game`, comma separated, at least one.
fn needs(attr: TokenStream) -> Result<Declared, Error> {
    let mut d = Declared::default();
    for t in attr {
        let word = t.to_string();
        // Anything else is refused below (it reads as already declared).
        let mut unknown = true;
        let slot = match (&t, word.as_str()) {
            (TokenTree::Punct(p), _) if p.as_char() == ',' => continue,
            (TokenTree::Ident(_), "shared") => &mut d.shared,
            (TokenTree::Ident(_), "gpu") => &mut d.gpu,
            (TokenTree::Ident(_), "game") => &mut d.game,
            (TokenTree::Ident(_), "mapdb") => &mut d.mapdb,
            _ => &mut unknown,
        };
        if *slot {
            return Err((
                t.span(),
                format!(
                    "#[vitrine_test]: unknown or repeated need `{t}` (shared, gpu, game, mapdb)"
                ),
            ));
        }
        *slot = true;
    }
    if d.absent_cases().is_empty() {
        return Err((
            Span::call_site(),
            "#[vitrine_test] names what the test needs: shared, gpu, game or several (a test \
             that needs none is a plain #[test])"
                .to_string(),
        ));
    }
    Ok(d)
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
fn ignore_attributes(declared: Declared) -> TokenStream {
    let needs = declared.absent_cases();
    let mut out = TokenStream::new();
    // Each non-empty subset of the declared needs: those absent, the others present.
    for mask in 1u32..(1 << needs.len()) {
        let absent = |i: usize| mask & (1 << i) != 0;
        let conditions: Vec<String> = (0..needs.len())
            .map(|i| match absent(i) {
                true => needs[i].0.to_string(),
                false => format!("not({})", needs[i].0),
            })
            .collect();
        let reason: Vec<&str> = (0..needs.len())
            .filter(|&i| absent(i))
            .map(|i| needs[i].1)
            .collect();
        let attr = format!(
            "#[cfg_attr(all({}), ignore = {})]",
            conditions.join(", "),
            Literal::string(&reason.join("; "))
        );
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
