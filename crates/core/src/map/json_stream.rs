//! The JSON object files read in one pass, in memory bounded by what the game keeps of
//! them: each entry as it comes, only the keys `loadJson*Init` reads
//! ([`KEYS`]), each list cut to its first members (with the count of the rest), every
//! other value skipped without being built; at most [`MAX_OBJECTS`] entries of a file.
//!
//! A file over the limit is refused at the entry past it (serde_json's line), before the
//! rest is read. The shape of the root (version 1 keyed objects or version 2 lists) is
//! decided once the whole root is read, as the `"version"` key may come last.
//!
//! Not built: values of keys the game does not read, lists past their first
//! [`FIRST`] members, nested lists and objects (their size only).

use super::MAX_OBJECTS;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The keys of an entry the game reads (`jsonGetBaseMapObjectInfo`, `loadJson*Init`).
pub(crate) const KEYS: [&str; 8] = [
    "name", "template", "id", "position", "rotation", "player", "startpos", "modules",
];

/// Members of a list kept (the game reads at most the first two of `position`).
pub(crate) const FIRST: usize = 3;

/// A value of an entry as far as the game reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Item {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// A number.
    Number(serde_json::Number),
    /// A string.
    String(String),
    /// A list: its first [`FIRST`] members (a list or object among them only sized), and
    /// how many it has.
    Array { first: Vec<Item>, len: usize },
    /// An object, by its member count.
    Object { len: usize },
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Null => f.write_str("null"),
            Item::Bool(b) => write!(f, "{b}"),
            Item::Number(n) => write!(f, "{n}"),
            Item::String(s) => write!(f, "{s:?}"),
            Item::Array { len, .. } => write!(f, "a list of {len}"),
            Item::Object { len } => write!(f, "an object of {len} keys"),
        }
    }
}

/// One entry: the keys of [`KEYS`] it has, in file order (a key given twice: the last
/// counts, as nlohmann's parser keeps it).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Entry(Vec<(&'static str, Item)>);

impl Entry {
    /// The value of `key`, the last where it is given twice.
    pub(crate) fn get(&self, key: &str) -> Option<&Item> {
        self.0.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// What the root of an object file holds.
#[derive(Debug, Default)]
pub(crate) struct Root {
    /// The `"version"` value, where there is one.
    pub version: Option<Item>,
    /// Version 1: each key of the root and its entry (`None`: not an object), in file
    /// order.
    pub keyed: Vec<(String, Option<Entry>)>,
    /// Version 2: the list named for the kind, where it is a list: each object's index
    /// in it and its entry.
    pub list: Option<Vec<(usize, Entry)>>,
    /// The first entry past the limit (`droids[65535]`, a version 1 key): the file is
    /// refused (set where [`read_root`]'s error is the limit's).
    pub over_limit: Option<String>,
}

/// Reads the root of an object file whose version 2 list is `list`.
///
/// # Errors
/// serde_json's error: text that is not JSON, a root that is not an object, or (with
/// [`Root::over_limit`] set in `out`) more than [`MAX_OBJECTS`] entries.
pub(crate) fn read_root(
    bytes: &[u8],
    list: &'static str,
    out: &mut Root,
) -> serde_json::Result<()> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    RootSeed { list, out }.deserialize(&mut de)?;
    de.end()
}

struct RootSeed<'a> {
    list: &'static str,
    out: &'a mut Root,
}

/// Where the refusal of a file over the limit comes from (its message is rewritten).
pub(crate) const LIMIT_MARKER: &str = "vitrine object limit";

fn over_limit<E: de::Error>(out: &mut Root, first: String) -> E {
    out.over_limit = Some(first);
    E::custom(LIMIT_MARKER)
}

impl<'de> DeserializeSeed<'de> for RootSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for RootSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut entries = 0usize;
        while let Some(key) = map.next_key::<String>()? {
            if key == "version" {
                self.out.version = Some(map.next_value_seed(ItemSeed { nested: false })?);
                continue;
            }
            let value = map.next_value_seed(ListOrEntry {
                list: (key == self.list).then_some(self.list),
                out: &mut *self.out,
            })?;
            let entry = match value {
                Member::List => continue,
                Member::Entry(e) => Some(e),
                Member::Other => None,
            };
            entries += usize::from(entry.is_some());
            if entries > MAX_OBJECTS {
                return Err(over_limit(self.out, format!("{key:?}")));
            }
            self.out.keyed.push((key, entry));
        }
        Ok(())
    }
}

/// A root member: the version 2 list (kept in [`Root::list`]) where it is the list's
/// key and a list, else an entry or nothing.
struct ListOrEntry<'a> {
    /// The list's name, where this member is the list's key.
    list: Option<&'static str>,
    out: &'a mut Root,
}

/// What a root member is.
enum Member {
    /// The version 2 list (in [`Root::list`]).
    List,
    /// An object: a version 1 entry.
    Entry(Entry),
    /// Anything else (the game passes over it).
    Other,
}

impl<'de> DeserializeSeed<'de> for ListOrEntry<'_> {
    type Value = Member;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Member, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ListOrEntry<'_> {
    type Value = Member;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Member, A::Error> {
        entry_of(map).map(Member::Entry)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Member, A::Error> {
        let Some(name) = self.list else {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(Member::Other);
        };
        let mut items = Vec::new();
        let mut index = 0;
        while let Some(entry) = seq.next_element_seed(EntrySeed)? {
            if let Some(e) = entry {
                if items.len() == MAX_OBJECTS {
                    return Err(over_limit(self.out, format!("{name}[{index}]")));
                }
                items.push((index, e));
            }
            index += 1;
        }
        self.out.list = Some(items);
        Ok(Member::List)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Member, E> {
        Ok(Member::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Member, E> {
        Ok(Member::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Member, E> {
        Ok(Member::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Member, E> {
        Ok(Member::Other)
    }
    fn visit_str<E>(self, _: &str) -> Result<Member, E> {
        Ok(Member::Other)
    }
    fn visit_unit<E>(self) -> Result<Member, E> {
        Ok(Member::Other)
    }
}

/// An entry of a list: an object, or nothing (the game passes over the rest).
struct EntrySeed;

impl<'de> DeserializeSeed<'de> for EntrySeed {
    type Value = Option<Entry>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Option<Entry>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for EntrySeed {
    type Value = Option<Entry>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<Entry>, A::Error> {
        entry_of(map).map(Some)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Entry>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Option<Entry>, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Option<Entry>, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Option<Entry>, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Option<Entry>, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Option<Entry>, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Option<Entry>, E> {
        Ok(None)
    }
}

/// The keys of [`KEYS`] of one object; the others skipped unbuilt.
fn entry_of<'de, A: MapAccess<'de>>(mut map: A) -> Result<Entry, A::Error> {
    let mut entry = Entry::default();
    while let Some(key) = map.next_key_seed(KeySeed)? {
        match key {
            Some(k) => {
                let v = map.next_value_seed(ItemSeed { nested: false })?;
                // The last of a key given twice counts; one copy is kept.
                entry.0.retain(|(old, _)| *old != k);
                entry.0.push((k, v));
            }
            None => {
                map.next_value::<IgnoredAny>()?;
            }
        }
    }
    Ok(entry)
}

/// A key of an entry: one of [`KEYS`], or `None` (not read by the game), never
/// allocated.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Option<&'static str>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Option<&'static str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(KEYS.iter().copied().find(|k| *k == v))
    }
}

/// A value as [`Item`]: lists cut to their first members, nested lists and objects
/// sized only.
struct ItemSeed {
    /// Inside a list: a list or object here is only counted.
    nested: bool,
}

impl<'de> DeserializeSeed<'de> for ItemSeed {
    type Value = Item;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Item, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed {
    type Value = Item;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Item, E> {
        Ok(Item::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Item, E> {
        Ok(Item::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Item, E> {
        Ok(Item::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Item, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Item::Null, Item::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Item, E> {
        Ok(Item::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Item, E> {
        Ok(Item::String(v))
    }
    fn visit_unit<E>(self) -> Result<Item, E> {
        Ok(Item::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
        let mut first = Vec::new();
        let mut len = 0;
        while !self.nested && first.len() < FIRST {
            match seq.next_element_seed(ItemSeed { nested: true })? {
                Some(v) => first.push(v),
                None => {
                    return Ok(Item::Array {
                        len: first.len(),
                        first,
                    });
                }
            }
        }
        len += first.len();
        while seq.next_element::<IgnoredAny>()?.is_some() {
            len += 1;
        }
        Ok(Item::Array { first, len })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
        let mut len = 0;
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
            len += 1;
        }
        Ok(Item::Object { len })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(text: &str, list: &'static str) -> (serde_json::Result<()>, Root) {
        let mut out = Root::default();
        let r = read_root(text.as_bytes(), list, &mut out);
        (r, out)
    }

    #[test]
    fn keeps_the_keys_the_game_reads_and_cuts_lists() {
        let (r, out) = root(
            r#"{"structures": [{"name": "A", "extra": [1, [2, 3], {"x": 1}],
                "position": [1, [2], {"a": 1}, 4, 5], "name": "B"}, 7],
                "version": 2}"#,
            "structures",
        );
        r.unwrap();
        assert_eq!(out.version, Some(Item::Number(2.into())));
        let list = out.list.unwrap();
        assert_eq!(list.len(), 1);
        let e = &list[0].1;
        assert_eq!(e.get("name"), Some(&Item::String("B".into())));
        assert_eq!(e.get("extra"), None);
        let Some(Item::Array { first, len }) = e.get("position") else {
            panic!("{e:?}");
        };
        assert_eq!(*len, 5);
        assert_eq!(
            first,
            &[
                Item::Number(1.into()),
                Item::Array {
                    first: vec![],
                    len: 1
                },
                Item::Object { len: 1 }
            ]
        );
    }

    #[test]
    fn refuses_entries_past_the_limit_at_their_line() {
        let mut text = String::from("{\"version\": 2, \"droids\": [\n");
        for i in 0..=MAX_OBJECTS {
            text.push_str(&format!(
                "{}{{\"template\": \"T\"}}\n",
                if i > 0 { "," } else { "" }
            ));
        }
        text.push_str("]}");
        let (r, out) = root(&text, "droids");
        r.unwrap_err();
        assert_eq!(out.over_limit.as_deref(), Some("droids[65535]"));
        // Version 1 likewise, and non-objects do not count.
        let mut text = String::from("{\"x\": 1,\n");
        for i in 0..MAX_OBJECTS {
            text.push_str(&format!("\"s_{i}\": {{}},\n"));
        }
        text.push_str("\"y\": [], \"z\": {}}");
        let (r, out) = root(&text, "structures");
        assert!(r.is_err());
        assert_eq!(out.over_limit.as_deref(), Some("\"z\""));
        assert_eq!(out.keyed.len(), MAX_OBJECTS + 2);
    }
}
