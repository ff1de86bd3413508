//! Opening what the page is given: which command opens a set of files, and the texture
//! pages a model fetched from a URL needs, fetched from where the desktop looks on disk.

use crate::fetch;
use std::collections::HashMap;
use vitrine_app::commands::{AppCommand, DocumentCommand};
use vitrine_app::gallery::GalleryCommand;
use vitrine_core::files::FileRef;
use vitrine_core::formats::resolve::texture_folders;
use vitrine_core::model::TextureRole;

/// The texture pages of the model at `url` (already in `page` as `file`) that are not in
/// the page's files, fetched from where the desktop looks for them on disk, in the core's
/// order ([`texture_folders`]: the model's folder, then `texpages/`, `base/texpages/`,
/// `mp/texpages/` in it and each of its ancestors), by HTTP on the model's server. In each
/// folder the name as the model writes it (and a `.pcx` as `.png`) is fetched; failing
/// that, the folder's listing, where the server gives one, is matched by the desktop's
/// rules ([`crate::listing::texture_in_listing`]: any case, `page-NN` as
/// `page-NN-….png`). A page found nowhere stays missing, as on the desktop.
pub async fn fetch_texture_pages(page: &crate::page_files::PageFiles, url: &str, file: &FileRef) {
    let files = page.files();
    let Ok(model) = vitrine_core::formats::load(&files, file, &Default::default()) else {
        return;
    };
    let Some((base, _)) = url
        .split(['?', '#'])
        .next()
        .and_then(|u| u.rsplit_once('/'))
    else {
        return;
    };
    // The model's folder and its ancestors, up to the server's root.
    let origin_end = base.find("://").map_or(0, |i| i + 3);
    let origin_end = base[origin_end..]
        .find('/')
        .map_or(base.len(), |i| origin_end + i);
    let mut ancestors = vec![base.to_string()];
    let mut dir = base;
    while dir.len() > origin_end {
        dir = dir.rsplit_once('/').map_or(&dir[..origin_end], |(d, _)| d);
        ancestors.push(dir.to_string());
    }
    let folders = texture_folders(&ancestors, |d, sub| format!("{d}/{sub}"));
    let mut listings: HashMap<String, Option<String>> = HashMap::new();
    for texture in model.textures.iter().filter(|t| t.resolved.is_none()) {
        let Some(name) = texture
            .name
            .rsplit(['/', '\\'])
            .next()
            .filter(|n| !n.is_empty())
        else {
            continue;
        };
        let mut names = vec![name.to_string()];
        if let Some(stem) = name.strip_suffix(".pcx") {
            names.push(format!("{stem}.png"));
        }
        let page_prefix = texture.role == TextureRole::Base;
        for dir in &folders {
            if fetch_first(page, names.iter().map(|n| format!("{dir}/{n}"))).await {
                break;
            }
            if !listings.contains_key(dir) {
                let html = fetch::fetch_bytes(&format!("{dir}/"), |_, _| {}).await;
                let html = html.ok().map(|b| String::from_utf8_lossy(&b).into_owned());
                listings.insert(dir.clone(), html);
            }
            let listed = listings
                .get(dir)
                .and_then(Option::as_deref)
                .and_then(|html| crate::listing::texture_in_listing(html, name, page_prefix));
            if let Some(listed) = listed {
                let encoded = percent_encoding::utf8_percent_encode(&listed, PATH_SEGMENT);
                if fetch_first(page, std::iter::once(format!("{dir}/{encoded}"))).await {
                    break;
                }
            }
        }
    }
}

/// What a file name escapes in a URL's path segment.
const PATH_SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'?')
    .add(b'/')
    .add(b'<')
    .add(b'>');

/// Fetches the first of `candidates` the server has into `page`; whether one was.
async fn fetch_first(
    page: &crate::page_files::PageFiles,
    candidates: impl Iterator<Item = String>,
) -> bool {
    for candidate in candidates {
        if let (Ok(bytes), Some(path)) = (
            fetch::fetch_bytes(&candidate, |_, _| {}).await,
            crate::page_files::url_path(&candidate),
        ) {
            page.add(path, bytes);
            return true;
        }
    }
    false
}

/// One file opens in the viewer, one archive as a gallery of its models (the app's open
/// reads it as a folder: its root, as the desktop's open does); several files as a
/// gallery of them.
pub fn open_command(files: Vec<FileRef>) -> AppCommand {
    match <[FileRef; 1]>::try_from(files) {
        Ok([file]) => AppCommand::Document(DocumentCommand::Open(file)),
        Err(files) => AppCommand::Gallery(GalleryCommand::OpenFiles(files)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_or_archive_is_opened_several_make_a_gallery() {
        let model = FileRef::Disk("drop-1/tank.pie".into());
        assert_eq!(
            open_command(vec![model.clone()]),
            AppCommand::Document(DocumentCommand::Open(model))
        );
        // The open turns an archive into its root and shows it as a gallery (a gallery
        // of the archive's path itself would list it as one file that is not a model).
        let wz = FileRef::Disk("drop-2/mp.wz".into());
        assert_eq!(
            open_command(vec![wz.clone()]),
            AppCommand::Document(DocumentCommand::Open(wz))
        );
        let both = vec![
            FileRef::Disk("drop-3/a.pie".into()),
            FileRef::Disk("drop-3/b.wz".into()),
        ];
        assert_eq!(
            open_command(both.clone()),
            AppCommand::Gallery(GalleryCommand::OpenFiles(both))
        );
    }
}
