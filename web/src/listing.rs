//! A folder's files as a web server lists them (the index page nginx's `autoindex`,
//! Apache's, `python -m http.server` and most static servers answer for a folder's URL):
//! how the page finds a texture page the model names by another name (`page-12.png` for
//! `page-12-player-buildings.png`), as the desktop does in a folder's listing.

/// The names of the files `html` (a folder's index page) links to in that folder,
/// percent-decoded: each `href` that is a plain name (no folder, query, fragment or
/// scheme), not a sub-folder (`name/`) or the parent (`../`).
pub fn folder_files(html: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("href=") {
        rest = &rest[at + 5..];
        let (value, after) = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => match rest[1..].split_once(q) {
                Some((v, after)) => (v, after),
                None => break,
            },
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '>')
                    .unwrap_or(rest.len());
                (&rest[..end], &rest[end..])
            }
        };
        rest = after;
        let value = value.strip_prefix("./").unwrap_or(value);
        if value.is_empty() || value.starts_with('.') || value.contains(['/', '?', '#', ':', '\\'])
        {
            continue;
        }
        let name = vitrine_core::files::percent_decode(value);
        if !name.contains(['/', '\\']) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The file of a folder listed as `html` that the texture `name` is, by the desktop's
/// rules ([`vitrine_core::formats::resolve::texture_in_folder`]: the exact name, a
/// `.pcx` as `.png`, for a diffuse page (`page_prefix`) `page-NN` as `page-NN-….png`),
/// matched without regard to case; the name as the server spells it.
pub fn texture_in_listing(html: &str, name: &str, page_prefix: bool) -> Option<String> {
    let files = folder_files(html);
    let lower: Vec<String> = files.iter().map(|f| f.to_lowercase()).collect();
    let bare = name.rsplit(['/', '\\']).next()?.to_lowercase();
    let found = vitrine_core::formats::resolve::texture_in_folder(
        lower.iter().map(String::as_str),
        &bare,
        page_prefix,
    )?;
    let i = lower.iter().position(|l| l == found)?;
    Some(files[i].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What nginx's autoindex answers for a Warzone 2100 mod's `texpages/`.
    const NGINX: &str = r#"<html><head><title>Index of /mod/texpages/</title></head><body>
<h1>Index of /mod/texpages/</h1><hr><pre><a href="../">../</a>
<a href="old/">old/</a>                                  27-Nov-2026 10:00       -
<a href="Page-12-Player%20Buildings.png">Page-12-Player Buildings.png</a> 27-Nov-2026 10:00   1234
<a href="page-7.png">page-7.png</a>                          27-Nov-2026 10:00   1234
<a href="page-7_tcmask.png">page-7_tcmask.png</a>            27-Nov-2026 10:00   1234
<a href="?C=N;O=D">Name</a> <a href='https://elsewhere/x.png'>x</a> <a href=tank.png>tank</a>
</pre><hr></body></html>"#;

    #[test]
    fn a_listing_gives_the_folders_files_only() {
        assert_eq!(
            folder_files(NGINX),
            [
                "Page-12-Player Buildings.png",
                "page-7.png",
                "page-7_tcmask.png",
                "tank.png"
            ]
        );
    }

    #[test]
    fn a_page_named_by_its_number_is_found_in_a_listing() {
        assert_eq!(
            texture_in_listing(NGINX, "page-12.png", true).as_deref(),
            Some("Page-12-Player Buildings.png")
        );
        assert_eq!(
            texture_in_listing(NGINX, "texpages\\PAGE-7.PCX", true).as_deref(),
            Some("page-7.png")
        );
        assert_eq!(texture_in_listing(NGINX, "page-12_tcmask.png", false), None);
        assert_eq!(texture_in_listing(NGINX, "page-3.png", true), None);
    }
}
