//! The gallery page, `index.html`: static HTML and CSS, no script (the page's CSP allows
//! scripts from the site only, and the gallery needs none): a section per kind
//! (maps, models, droid templates, structures) with a tile per entry — its thumbnail, its name
//! and a link into the viewer — then the footer. Every text from the command line or the
//! mod is HTML-escaped.

use super::Tile;

/// The Content-Security-Policy the gallery and the viewer are sent with.
pub const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:";

/// `s` with `& < > " '` escaped, for text and attribute values alike.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What the page shows besides the tiles.
#[derive(Debug, Clone, Default)]
pub struct PageText {
    /// The heading and `<title>`.
    pub title: String,
    /// Shown as "by AUTHOR".
    pub author: Option<String>,
    /// The licence line of the footer.
    pub licence: Option<String>,
    /// "vitrine X.Y.Z".
    pub generator: String,
}

const STYLE: &str = "
:root { color-scheme: dark; }
* { box-sizing: border-box; }
body { margin: 0; background: #1b1b1b; color: #dcdcdc;
  font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
header { padding: 28px 32px 8px; }
header h1 { margin: 0; font-size: 28px; font-weight: 600; color: #f2f2f2; }
header p { margin: 6px 0 0; color: #9a9a9a; }
header a.open { display: inline-block; margin-top: 12px; padding: 6px 14px; border-radius: 6px;
  background: #2c5d8a; color: #fff; text-decoration: none; font-weight: 500; }
header a.open:hover { background: #3873a8; }
main { padding: 0 32px 24px; }
section h2 { margin: 28px 0 12px; font-size: 19px; font-weight: 600; color: #eaeaea;
  border-bottom: 1px solid #333; padding-bottom: 6px; }
section h2 .count { margin-left: 8px; font-size: 13px; font-weight: 500; color: #8a8a8a;
  background: #2a2a2a; border-radius: 10px; padding: 1px 9px; vertical-align: 2px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(168px, 1fr)); gap: 14px; }
.tile { display: block; background: #262626; border: 1px solid #333; border-radius: 8px;
  overflow: hidden; text-decoration: none; color: inherit; transition: border-color .12s, transform .12s; }
.tile:hover, .tile:focus { border-color: #4d8fcc; transform: translateY(-2px); outline: none; }
.tile .pic { aspect-ratio: 1; display: flex; align-items: center; justify-content: center;
  background: radial-gradient(circle at 50% 40%, #3a3f48, #2a2d33 75%); }
.tile img { width: 100%; height: 100%; object-fit: contain; display: block; }
.tile .none { color: #6d6d6d; font-size: 12px; }
.tile .name { padding: 7px 10px 1px; font-size: 13.5px; color: #e8e8e8; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; }
.tile .id { padding: 0 10px 8px; font-size: 11.5px; color: #8a8a8a; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; font-family: ui-monospace, 'DejaVu Sans Mono', monospace; }
.tile .fact { padding: 0 10px; font-size: 12px; color: #b4b4b4; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; }
footer { padding: 18px 32px 28px; border-top: 1px solid #2e2e2e; color: #8d8d8d; font-size: 13px; }
footer p { margin: 4px 0; }
footer a { color: #7fb2e5; }
";

/// One section of tiles; nothing when `tiles` is empty.
fn section(out: &mut String, heading: &str, tiles: &[Tile]) {
    if tiles.is_empty() {
        return;
    }
    out.push_str(&format!(
        "<section>\n<h2>{}<span class=\"count\">{}</span></h2>\n<div class=\"grid\">\n",
        escape(heading),
        tiles.len()
    ));
    for t in tiles {
        let pic = match &t.thumb {
            Some(src) => format!(
                "<img src=\"{}\" alt=\"{}\" width=\"256\" height=\"256\" loading=\"lazy\">",
                escape(src),
                escape(&t.name)
            ),
            None => "<span class=\"none\">no picture</span>".to_string(),
        };
        let facts: String = t
            .facts
            .iter()
            .map(|f| format!("<div class=\"fact\">{}</div>", escape(f)))
            .collect();
        out.push_str(&format!(
            "<a class=\"tile\" href=\"{}\" title=\"{} — {}\"><div class=\"pic\">{pic}</div>\
             <div class=\"name\">{}</div>{facts}<div class=\"id\">{}</div></a>\n",
            escape(&t.link),
            escape(&t.name),
            escape(&t.id),
            escape(&t.name),
            escape(&t.id),
        ));
    }
    out.push_str("</div>\n</section>\n");
}

/// The tiles of each section of the page.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sections<'a> {
    /// Model files.
    pub models: &'a [Tile],
    /// The mod's droid templates.
    pub templates: &'a [Tile],
    /// The mod's structures.
    pub structures: &'a [Tile],
    /// Warzone 2100 maps.
    pub maps: &'a [Tile],
}

/// The whole `index.html`.
pub fn page(text: &PageText, tiles: &Sections<'_>) -> String {
    let Sections {
        models,
        templates,
        structures,
        maps,
    } = *tiles;
    let mut out = String::new();
    out.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"{}\">\n<title>{}</title>\n\
         <link rel=\"icon\" href=\"icon.png\">\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&text.generator),
        escape(&text.title)
    ));
    let total = models.len() + templates.len() + structures.len() + maps.len();
    let mut facts = Vec::new();
    if !models.is_empty() || maps.is_empty() {
        let s = if models.len() == 1 { "" } else { "s" };
        facts.push(format!("{} model{s}", models.len()));
    }
    if !templates.is_empty() {
        facts.push(format!("{} droid templates", templates.len()));
    }
    if !structures.is_empty() {
        facts.push(format!("{} structures", structures.len()));
    }
    if !maps.is_empty() {
        let s = if maps.len() == 1 { "" } else { "s" };
        facts.push(format!("{} map{s}", maps.len()));
    }
    let by = text
        .author
        .as_deref()
        .map(|a| format!("by {} · ", escape(a)))
        .unwrap_or_default();
    out.push_str(&format!(
        "<header>\n<h1>{}</h1>\n<p>{by}{}</p>\n",
        escape(&text.title),
        facts.join(" · ")
    ));
    if total > 0 {
        out.push_str("<a class=\"open\" href=\"view.html?url=site.wz\">Open the viewer</a>\n");
    }
    out.push_str("</header>\n<main>\n");
    section(&mut out, "Maps", maps);
    section(&mut out, "Models", models);
    section(&mut out, "Droid templates", templates);
    section(&mut out, "Structures", structures);
    out.push_str("</main>\n<footer>\n");
    out.push_str(&format!("<p>{}", escape(&text.title)));
    if let Some(a) = &text.author {
        out.push_str(&format!(" — by {}", escape(a)));
    }
    out.push_str("</p>\n");
    if let Some(l) = &text.licence {
        out.push_str(&format!("<p class=\"licence\">{}</p>\n", escape(l)));
    }
    out.push_str(&format!(
        "<p>Made with Vitrine ({}). Every file the models need is in \
         <a href=\"site.wz\">site.wz</a>; <a href=\"site.json\">site.json</a> lists them.</p>\n",
        escape(&text.generator)
    ));
    out.push_str("</footer>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_there_is_no_script() {
        let text = PageText {
            title: "<script>alert(1)</script>".into(),
            author: Some("A & B \"quoted\"".into()),
            licence: Some("CC-BY <4.0>".into()),
            generator: "vitrine 0.1.0".into(),
        };
        let tile = Tile {
            id: "x/\"a<b>.pie".into(),
            name: "<b>".into(),
            thumb: None,
            link: "view.html?url=site.wz#model=x/%22a%3Cb%3E.pie".into(),
            facts: vec!["by <i>".into()],
        };
        let html = page(
            &text,
            &Sections {
                models: &[tile],
                ..Sections::default()
            },
        );
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("A &amp; B &quot;quoted&quot;"));
        assert!(html.contains("CC-BY &lt;4.0&gt;"));
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<b>") && !html.contains("<i>"));
        assert!(html.contains("<div class=\"fact\">by &lt;i&gt;</div>"));
        assert!(html.contains("Made with Vitrine"));
        assert!(html.contains("Content-Security-Policy"));
        assert!(html.contains("<h2>Models<span class=\"count\">1</span></h2>"));
        assert!(
            !html.contains("Droid templates"),
            "empty sections are left out"
        );
    }
}
