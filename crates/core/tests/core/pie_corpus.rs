//! Every `.pie` of Warzone 2100 4.3.3 (`../shared/corpus/wz2100`) loads, and each level's
//! point, triangle and connector counts match counts taken here, independently of the
//! loader, from the record lines; every texture the corpus has is found.

use crate::common;

use std::path::Path;
use vitrine_core::formats::LoadOptions;
use vitrine_core::model::Model;
use vitrine_test_needs::vitrine_test;

/// Per level: (points, triangles after fanning, connectors), read the simple way: the
/// shipped files hold one record per line, directives start with a letter, and a
/// polygon line's second field is its point count.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Counts {
    points: usize,
    triangles: usize,
    connectors: usize,
}

fn count_records(text: &str) -> (String, Vec<Counts>) {
    let mut version = String::new();
    let mut levels: Vec<Counts> = Vec::new();
    let mut polygons_left = 0usize;
    for line in text.split(['\n', '\r']) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = fields.first() else {
            continue;
        };
        let number = |i: usize| -> usize { fields[i].parse().unwrap() };
        if first.starts_with(|c: char| c.is_ascii_alphabetic()) {
            polygons_left = 0;
            match *first {
                "PIE" => version = fields[1].to_string(),
                "LEVEL" => levels.push(Counts::default()),
                "POINTS" => levels.last_mut().unwrap().points = number(1),
                "CONNECTORS" => levels.last_mut().unwrap().connectors = number(1),
                "POLYGONS" => polygons_left = number(1),
                _ => {}
            }
        } else if polygons_left > 0 {
            polygons_left -= 1;
            levels.last_mut().unwrap().triangles += number(1) - 2;
        }
    }
    (version, levels)
}

fn loader_counts(m: &Model) -> Vec<Counts> {
    m.meshes
        .iter()
        .enumerate()
        .map(|(i, mesh)| Counts {
            points: mesh.points.len(),
            triangles: mesh.triangle_count(),
            connectors: m.connectors.iter().filter(|c| c.node == i).count(),
        })
        .collect()
}

/// Lower-case names of every file in the corpus's `texpages/` folders.
fn corpus_textures(root: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for layer in ["data/base/texpages", "data/mp/texpages"] {
        if let Ok(dir) = std::fs::read_dir(root.join(layer)) {
            names.extend(dir.map(|e| e.unwrap().file_name().to_string_lossy().to_lowercase()));
        }
    }
    names
}

#[vitrine_test(shared)]
fn every_corpus_file_loads_with_the_counts_its_records_give() {
    let root = common::wz2100();
    let mut files = Vec::new();
    files.extend(common::model_files(&root));
    assert_eq!(files.len(), 855, "the corpus should hold 855 .pie files");
    let textures = corpus_textures(&root);
    assert!(!textures.is_empty());
    let mut failures = Vec::new();
    let (mut levels_checked, mut textures_checked) = (0, 0);
    for path in &files {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let (version, want) = count_records(&text);
        let model = match common::load_path(path, &LoadOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{e}"));
                continue;
            }
        };
        let got = loader_counts(&model);
        if got != want || model.version != version {
            failures.push(format!(
                "{}: version {} vs {version}, loader {got:?} vs records {want:?}",
                path.display(),
                model.version
            ));
        }
        // The "pie" details agree with the model.
        for (i, c) in want.iter().enumerate() {
            let details = model.details.to_json();
            let l = &details["levels"][i];
            if l["points"] != c.points
                || l["triangles"] != c.triangles
                || l["connectors"] != c.connectors
            {
                failures.push(format!("{}: details level {i} = {l}", path.display()));
            }
        }
        levels_checked += want.len();
        for t in &model.textures {
            let exists = textures.contains(&t.name.to_lowercase());
            if exists {
                textures_checked += 1;
                let found = t.resolved.as_ref().map(|p| p.file_name().to_lowercase());
                if found.as_deref() != Some(t.name.to_lowercase().as_str()) {
                    failures.push(format!(
                        "{}: texture {} exists but resolved to {:?}",
                        path.display(),
                        t.name,
                        t.resolved
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} files, {levels_checked} levels, {textures_checked} texture references checked",
        files.len()
    );
    assert!(levels_checked >= 855 && textures_checked >= 855);
}

#[test]
fn the_independent_counter_counts_what_it_should() {
    // The counter above must itself be right for the comparison to mean anything.
    let text = "PIE 2\r\nTYPE 200\r\nLEVELS 2\r\nLEVEL 1\r\nPOINTS 3 \r\n\t0 0 0\r\n\t1 0 0\r\n\t0 1 0\r\n\
                POLYGONS 2\r\n\t200 3 0 1 2 0 0 0 0 0 0\r\n\t200 4 0 1 2 0 0 0 0 0 0 0 0 0\r\n\
                CONNECTORS 1\r\n\t0 0 0\r\nLEVEL 2\nPOINTS 0\nPOLYGONS 0\nANIMOBJECT 1 0 1\n\t0 0 0 0 0 0 0 1 1 1";
    let (version, levels) = count_records(text);
    assert_eq!(version, "2");
    assert_eq!(
        levels,
        vec![
            Counts {
                points: 3,
                triangles: 3,
                connectors: 1
            },
            Counts {
                points: 0,
                triangles: 0,
                connectors: 0
            }
        ]
    );
}
