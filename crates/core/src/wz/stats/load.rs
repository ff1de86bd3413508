//! Reading one stats file through the data roots: the first root that has
//! `stats/<name>` gives it (a mod's file replaces the one under it), then every
//! `diffs/<dir>/stats/<name>` of any root is applied to it as a JSON merge patch, the
//! `<dir>`s in name order; the merged object is parsed into a typed table, with a
//! warning for each entry that does not fit.

use super::*;

/// The merged JSON object of `stats/<name>` and the file it came from.
pub(super) fn merged_json(
    lookup: &mut Lookup,
    roots: &[FileRef],
    name: &str,
    warnings: &mut Vec<Warning>,
) -> Option<(Map<String, Value>, FileRef)> {
    let (file, mut root) = roots.iter().find_map(|r| {
        let f = lookup.walk(r, &["stats", name])?;
        Some((f.clone(), read_object(&f, warnings)))
    })?;
    // diffs/<dir>/stats/<name>, every <dir> of every layer, in name order.
    let mut dirs: Vec<String> = Vec::new();
    for r in roots {
        if let Some((d, files::EntryKind::Dir)) = lookup.child(r, "diffs") {
            dirs.extend(
                lookup
                    .listing(&d)
                    .iter()
                    .filter(|(_, _, k)| *k == files::EntryKind::Dir)
                    .map(|(n, _, _)| n.clone()),
            );
        }
    }
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        let patch = roots
            .iter()
            .find_map(|r| lookup.walk(r, &["diffs", &dir, "stats", name]));
        if let (Some(p), Some(base)) = (patch, root.as_mut())
            && let Some(p) = read_object(&p, warnings)
        {
            merge_patch(base, p);
        }
    }
    root.map(|r| (r, file))
}

pub(super) fn read_object(
    file: &FileRef,
    warnings: &mut Vec<Warning>,
) -> Option<Map<String, Value>> {
    let warn = |message: String| Warning {
        file: file.to_string(),
        key: None,
        message,
    };
    let bytes = match files::read(file) {
        Ok(b) => b,
        Err(e) => {
            warnings.push(warn(format!("cannot read: {e}")));
            return None;
        }
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(m)) => Some(m),
        Ok(_) => {
            warnings.push(warn("not a JSON object of entries".into()));
            None
        }
        Err(e) => {
            warnings.push(warn(format!(
                "invalid JSON at line {}, column {}: {e}",
                e.line(),
                e.column()
            )));
            None
        }
    }
}

/// RFC 7386 merge patch, as the game's `jsonMerge`.
pub(super) fn merge_patch(base: &mut Map<String, Value>, patch: Map<String, Value>) {
    for (k, v) in patch {
        match v {
            Value::Null => {
                base.remove(&k);
            }
            Value::Object(p) => match base.get_mut(&k) {
                Some(Value::Object(b)) => merge_patch(b, p),
                _ => {
                    base.insert(k, Value::Object(p));
                }
            },
            v => {
                base.insert(k, v);
            }
        }
    }
}

pub(super) fn load_table<T: Entry + for<'de> Deserialize<'de>>(
    lookup: &mut Lookup,
    roots: &[FileRef],
    name: &str,
    warnings: &mut Vec<Warning>,
) -> Table<T> {
    let mut table = Table::default();
    let Some((json, file)) = merged_json(lookup, roots, name, warnings) else {
        if !warnings.iter().any(|w| w.file.ends_with(name)) {
            warnings.push(Warning {
                file: format!("stats/{name}"),
                key: None,
                message: "not found in any data root".into(),
            });
        }
        return table;
    };
    for (key, value) in json {
        if !value.is_object() {
            warnings.push(Warning {
                file: file.to_string(),
                key: Some(key),
                message: "entry is not a JSON object; skipped".into(),
            });
            continue;
        }
        match T::deserialize(value) {
            Ok(mut e) => {
                e.set_id(key.clone());
                table.index.insert(key, table.entries.len());
                table.entries.push(e);
            }
            Err(err) => warnings.push(Warning {
                file: file.to_string(),
                key: Some(key),
                message: format!("malformed entry: {err}; skipped"),
            }),
        }
    }
    table.source = Some(file);
    table
}
