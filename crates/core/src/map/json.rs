//! JSON objects (`struct.json`, `feature.json`, `droid.json`; `loadJson*Init` and
//! `jsonGetBaseMapObjectInfo` in `lib/wzmaplib/src/map.cpp`).
//!
//! Version 1 has no `"version"` key: the root is an object keyed `structure_N`, each with
//! `position` [x, y, z] (z ignored) and `rotation` [direction, 0, 0]. Version 2 is
//! `{"version": 2, "structures": [...]}` with `position` [x, y] and `rotation` a number or
//! [n]. Names are `name` (`template` for droids); the owner is `player` (a number, or a
//! string starting with `scavenger`), else `startpos`; structures may add `modules`.
//!
//! Each entry is read the way the game reads it, in its order, and an entry the game
//! skips is kept with its refusal ([`MapObject::refused`], the game's message and a
//! `vitrine check` rule) so that the placement lists it as removed:
//! - `name`/`template` must be a string, `id` (optional) a number other than 0;
//! - `position` a list of at least 2 numbers (JSON booleans count as 0 and 1, as
//!   nlohmann's conversion has it); more than 3 (v1) or 2 (v2) is logged and read;
//! - `rotation` (optional) a list of at least 1 number, or in v2 one number; one the game
//!   cannot read is logged and taken as 0, the entry kept;
//! - `player` (it wins over `startpos`) a number or a `scavenger…` string, else a number
//!   `startpos`; the number is the game's `int8_t` (200 is −56, a negative is the
//!   scavengers); features' `player` is ignored;
//! - `modules` a number from 0 to 255.
//!
//! Numbers convert as the game's `static_cast`s do: fractions are cut toward zero and
//! integers wrap to the field's width (a rotation of 70000 is 4464, an id of −1 is
//! 4294967295).

use super::json_stream::{Entry, Item, LIMIT_MARKER, Root, read_root};
use super::{MAX_OBJECTS, MapObject, ObjectKind, Owner, ReadIssue};
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;

/// The rule of an entry missing a key the game requires.
pub(crate) const KEY_MISSING: &str = "map/entry-key-missing";
/// The rule of an entry whose key holds a value of the wrong type.
pub(crate) const KEY_TYPE: &str = "map/entry-key-type";
/// The rule of an entry whose `id` is 0.
pub(crate) const ID_ZERO: &str = "map/entry-id-zero";
/// The rule of a structure with more than 255 modules.
pub(crate) const MODULES_RANGE: &str = "map/entry-modules-range";
/// The rule of a value the game logs as unreadable and reads past.
pub(crate) const VALUE_UNREAD: &str = "map/entry-value-unread";
/// The rule of an object file holding more objects than Vitrine reads.
pub(crate) const OBJECT_LIMIT: &str = "map/object-limit";

/// The refusal of a file holding more than [`MAX_OBJECTS`] objects of `kind`, at `at`,
/// where `first` is the first object past the limit.
pub(crate) fn over_limit(kind: ObjectKind, at: Location, first: &str) -> LoadError {
    LoadError::new(
        ErrorKind::CountTooLarge,
        at,
        format!(
            "more than {MAX_OBJECTS} {}s ({first} is past the limit): Vitrine reads at most \
             {MAX_OBJECTS} objects of a kind from a map file (the game's own limit for a map \
             script's setMapData; the largest map of mp.wz and the map database has 1,439); \
             the map is not read",
            kind.name()
        ),
    )
    .with_rule(OBJECT_LIMIT)
}

/// The objects of one JSON file (the game's skipped entries with their refusal), its
/// version (1 or 2). Read in one pass, each entry as it comes ([`super::json_stream`]):
/// memory for the objects kept, not for the text.
///
/// # Errors
/// Text that is not JSON (its line), a root the game refuses, more than [`MAX_OBJECTS`]
/// entries (the line of the first past the limit).
pub(crate) fn read_json_objects(
    bytes: &[u8],
    kind: ObjectKind,
) -> Result<(Vec<MapObject>, u32), LoadError> {
    let list = match kind {
        ObjectKind::Structure => "structures",
        ObjectKind::Feature => "features",
        ObjectKind::Droid => "droids",
    };
    let mut root = Root::default();
    if let Err(e) = read_root(bytes, list, &mut root) {
        let at = Location::Line(u32::try_from(e.line()).unwrap_or(u32::MAX));
        if let Some(first) = root.over_limit.as_deref()
            && e.to_string().starts_with(LIMIT_MARKER)
        {
            let at = Location::Line(entry_line(bytes, &e));
            return Err(over_limit(kind, at, first));
        }
        if e.classify() == serde_json::error::Category::Data && is_not_object(bytes) {
            return Err(bad_root("the root is not a JSON object"));
        }
        return Err(LoadError::new(
            ErrorKind::Syntax,
            at,
            format!("invalid JSON (column {}): {e}", e.column()),
        ));
    }
    let Some(v) = root.version else {
        let mut keyed = root.keyed;
        // The game's nlohmann::json keeps a root's keys sorted (std::map), the last of a
        // key given twice.
        keyed.reverse();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        keyed.dedup_by(|later, first| later.0 == first.0);
        let objects = keyed
            .into_iter()
            .filter_map(|(key, e)| Some(entry(&e?, kind, 1, key)))
            .collect();
        return Ok((objects, 1));
    };
    // `jsonGetFileFormatVersion`: a number, read as `uint32_t`; 2 only.
    let Some(n) = number(&v).filter(|_| matches!(v, Item::Number(_))) else {
        return Err(bad_root("\"version\" key is not a number"));
    };
    if n as u32 != 2 {
        return Err(bad_root(&format!(
            "version {v}; the game reads 2 (version 1 has no \"version\" key)"
        )));
    }
    let Some(items) = root.list else {
        return Err(bad_root(&format!("version 2 without a \"{list}\" list")));
    };
    let objects = items
        .into_iter()
        .map(|(i, e)| entry(&e, kind, 2, format!("{list}[{i}]")))
        .collect();
    Ok((objects, 2))
}

/// The line of the entry serde_json's error `e` came after: its position is the next
/// token's (past a comma), so the entry is the last one before it, over whitespace and
/// the comma.
fn entry_line(bytes: &[u8], e: &serde_json::Error) -> u32 {
    let line_start = if e.line() <= 1 {
        0
    } else {
        bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(e.line() - 2)
            .map_or(bytes.len(), |(i, _)| i + 1)
    };
    // The column is 1-based, in bytes.
    let next = (line_start + e.column().saturating_sub(1)).min(bytes.len());
    let end = bytes[..next]
        .iter()
        .rposition(|b| !b.is_ascii_whitespace() && *b != b',')
        .unwrap_or(0);
    let newlines = bytes[..end].iter().filter(|&&b| b == b'\n').count();
    u32::try_from(newlines + 1).unwrap_or(u32::MAX)
}

/// Whether JSON text's first value is something other than an object (what serde_json
/// calls a type error at the root).
fn is_not_object(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b != b'{')
}

fn bad_root(what: &str) -> LoadError {
    LoadError::new(ErrorKind::Invalid, Location::File, what.to_string())
}

fn issue(rule: &'static str, message: impl Into<String>) -> ReadIssue {
    ReadIssue {
        rule,
        message: message.into(),
    }
}

/// One entry as the game reads it; a refusal sets [`MapObject::refused`].
fn entry(obj: &Entry, kind: ObjectKind, version: u32, key: String) -> MapObject {
    let mut o = MapObject {
        kind,
        stats_id: String::new(),
        owner: Owner::None,
        x: 0,
        y: 0,
        direction: 0,
        id: None,
        modules: 0,
        key,
        refused: None,
        logged: Vec::new(),
    };
    if let Err(why) = read_entry(obj, version, &mut o) {
        // For the report only: where the entry says it is, if it says so at all.
        if let Some(Item::Array { first: p, .. }) = obj.get("position") {
            let at = |i: usize| p.get(i).and_then(number).map_or(0, |n| n as i32);
            (o.x, o.y) = (at(0), at(1));
        }
        o.refused = Some(why);
    }
    o
}

/// The game's checks in its order: name, id, position, rotation, then the owner and
/// modules (`loadJson*Init`).
fn read_entry(obj: &Entry, version: u32, o: &mut MapObject) -> Result<(), ReadIssue> {
    let name_key = if o.kind == ObjectKind::Droid {
        "template"
    } else {
        "name"
    };
    o.stats_id = match obj.get(name_key) {
        None => {
            return Err(issue(
                KEY_MISSING,
                format!("Missing required \"{name_key}\" key"),
            ));
        }
        Some(Item::String(s)) => s.clone(),
        Some(_) => {
            return Err(issue(
                KEY_TYPE,
                format!("Unexpected type of required \"{name_key}\" key (expecting string)"),
            ));
        }
    };
    if let Some(v) = obj.get("id") {
        let Some(n) = number(v).filter(|_| matches!(v, Item::Number(_))) else {
            return Err(issue(
                KEY_TYPE,
                "Unexpected type of \"id\" key (expecting number)",
            ));
        };
        let id = n as u32;
        if id == 0 {
            return Err(issue(ID_ZERO, "Invalid \"id\" = 0"));
        }
        o.id = Some(id);
    }
    let (max_position, max_rotation) = if version > 1 { (2, 1) } else { (3, 3) };
    match list(obj, "position", 2, max_position, false) {
        List::Absent => {
            return Err(issue(KEY_MISSING, "Missing required \"position\" key"));
        }
        List::Failed(why) => return Err(issue(KEY_TYPE, why)),
        List::Read(p, logged) => {
            (o.x, o.y) = (p[0] as i32, p[1] as i32);
            o.logged.extend(logged.map(|m| issue(VALUE_UNREAD, m)));
        }
    }
    match list(obj, "rotation", 1, max_rotation, version > 1) {
        List::Absent => {}
        List::Failed(why) => o
            .logged
            .push(issue(VALUE_UNREAD, format!("{why}; the direction is 0"))),
        List::Read(r, logged) => {
            o.direction = r[0] as u16;
            o.logged.extend(logged.map(|m| issue(VALUE_UNREAD, m)));
        }
    }
    if o.kind != ObjectKind::Feature {
        o.owner = owner(obj, o.kind)?;
    }
    if o.kind == ObjectKind::Structure
        && let Some(v) = obj.get("modules")
    {
        if !matches!(v, Item::Number(_)) {
            return Err(issue(
                KEY_TYPE,
                "Unexpected type of \"modules\" key (expecting number)",
            ));
        }
        // `get<number_unsigned_t>`: a negative wraps to a huge count.
        let n = number(v).unwrap_or(-1);
        if !(0..=255).contains(&n) {
            return Err(issue(
                MODULES_RANGE,
                "\"modules\" value exceeds maximum allowable value",
            ));
        }
        o.modules = n as u32;
    }
    Ok(())
}

/// A JSON number or boolean as the game's `get<T>()` converts it, before the narrowing to
/// `T` (done by the caller with `as`): integers as they are (an unsigned one above
/// `i64::MAX` wraps), fractions cut toward zero.
fn number(v: &Item) -> Option<i64> {
    match v {
        Item::Bool(b) => Some(i64::from(*b)),
        Item::Number(n) => n
            .as_i64()
            .or_else(|| n.as_u64().map(|u| u as i64))
            .or_else(|| n.as_f64().filter(|f| f.is_finite()).map(|f| f as i64)),
        _ => None,
    }
}

/// nlohmann's `size()`: members of an array or object, 0 for null, 1 for anything else.
fn json_size(v: &Item) -> usize {
    match v {
        Item::Null => 0,
        Item::Array { len, .. } | Item::Object { len } => *len,
        _ => 1,
    }
}

/// What `jsonGetListOfType` makes of one key.
enum List {
    /// No such key.
    Absent,
    /// Unreadable: the game's message.
    Failed(String),
    /// The first `min` numbers, and the error the game logs while reading them anyway.
    Read(Vec<i64>, Option<String>),
}

/// `jsonGetListOfType`: at least `min` members (a scalar counts as 1), an array unless
/// `scalar` allows one number, the first `min` convertible; more than `max` is logged.
fn list(obj: &Entry, key: &str, min: usize, max: usize, scalar: bool) -> List {
    let Some(v) = obj.get(key) else {
        return List::Absent;
    };
    if json_size(v) < min {
        return List::Failed(format!(
            "Invalid \"{key}\" (requires at least {min} members)"
        ));
    }
    let unconvertible = || {
        List::Failed(format!(
            "Invalid \"{key}\" (unable to convert to desired output type)"
        ))
    };
    let Item::Array { first: items, len } = v else {
        if !scalar {
            return List::Failed(format!("Invalid \"{key}\" (expecting an array)"));
        }
        return number(v).map_or_else(unconvertible, |n| List::Read(vec![n], None));
    };
    // `min` is at most 2, within the members kept (`json_stream::FIRST`).
    let Some(first) = items
        .iter()
        .take(min)
        .map(number)
        .collect::<Option<Vec<_>>>()
    else {
        return unconvertible();
    };
    let logged = (*len > max).then(|| format!("Invalid \"{key}\" (too many array members)"));
    List::Read(first, logged)
}

/// `jsonGetPlayerFromObj`: `player` if present (a number, or a string starting with
/// `scavenger`), else `startpos` (a number); the number narrowed to `int8_t`, a negative
/// one being the scavengers (`RemapWzMapPlayerNumber`).
fn owner(obj: &Entry, kind: ObjectKind) -> Result<Owner, ReadIssue> {
    let slot = |v: &Item| {
        let n = number(v).filter(|_| matches!(v, Item::Number(_)))? as i8;
        Some(if n < 0 {
            Owner::Scavenger
        } else {
            Owner::Player(n as u32)
        })
    };
    let found = match (obj.get("player"), obj.get("startpos")) {
        (Some(Item::String(s)), _) if s.starts_with("scavenger") => Some(Owner::Scavenger),
        (Some(p), _) => slot(p),
        (None, Some(s)) => slot(s),
        (None, None) => {
            return Err(issue(
                KEY_MISSING,
                format!("Missing required player/startpos key for {}", kind.name()),
            ));
        }
    };
    found.ok_or_else(|| {
        issue(
            KEY_TYPE,
            format!(
                "Missing required player/startpos key for {} (not a number, nor a \"scavenger\" string)",
                kind.name()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One structure entry, read in a v1 file and in a v2 file (`position` and `rotation`
    /// given in each version's shape by the caller).
    fn one(kind: ObjectKind, v1: &str, v2: &str) -> [MapObject; 2] {
        let list = match kind {
            ObjectKind::Structure => "structures",
            ObjectKind::Feature => "features",
            ObjectKind::Droid => "droids",
        };
        let a = format!("{{\"{}_0\": {{{v1}}}}}", kind.name());
        let b = format!("{{\"version\": 2, \"{list}\": [{{{v2}}}]}}");
        let read = |s: &str| {
            let (mut o, _) = read_json_objects(s.as_bytes(), kind).unwrap();
            assert_eq!(o.len(), 1, "{s}");
            o.remove(0)
        };
        [read(&a), read(&b)]
    }

    #[test]
    fn reads_both_versions() {
        let v1 = br#"{"structure_1": {"name": "A0LightFactory", "position": [2624, 2368, 242],
            "rotation": [16384, 0, 0], "startpos": 0}}"#;
        let (o, version) = read_json_objects(v1, ObjectKind::Structure).unwrap();
        assert_eq!((version, o.len()), (1, 1));
        assert_eq!((o[0].x, o[0].y, o[0].direction), (2624, 2368, 16384));
        assert_eq!(o[0].owner, Owner::Player(0));
        assert!(o[0].refused.is_none() && o[0].logged.is_empty());
        let v2 = br#"{"version": 2, "droids": [{"template": "ConstructorDroid", "id": 9,
            "position": [100, 200], "rotation": 8192, "player": "scavenger"},
            {"template": "X", "position": [1]}]}"#;
        let (o, version) = read_json_objects(v2, ObjectKind::Droid).unwrap();
        assert_eq!((version, o.len()), (2, 2));
        assert_eq!(o[0].owner, Owner::Scavenger);
        assert_eq!(o[0].id, Some(9));
        assert_eq!(o[0].degrees(), 45.0);
        assert_eq!(o[1].refused.as_ref().unwrap().rule, KEY_TYPE);
    }

    /// Every kind of entry the game skips, on both versions: the rule and the game's words.
    #[test]
    fn refuses_what_the_game_skips_in_both_versions() {
        let s = ObjectKind::Structure;
        let cases: [(&str, &str, &str, &str); 12] = [
            // The community maps' string ids.
            (
                r#""id": "A0CommandCentre""#,
                "",
                KEY_TYPE,
                "Unexpected type of \"id\" key",
            ),
            (r#""id": 0"#, "", ID_ZERO, "Invalid \"id\" = 0"),
            (r#""id": 0.5"#, "", ID_ZERO, "Invalid \"id\" = 0"),
            (
                r#""id": true"#,
                "",
                KEY_TYPE,
                "\"id\" key (expecting number)",
            ),
            (r#""player": "1""#, "NOPLAYER", KEY_TYPE, "player/startpos"),
            (
                r#""player": null, "startpos": 0"#,
                "NOPLAYER",
                KEY_TYPE,
                "player/startpos",
            ),
            (
                "",
                "NOPLAYER",
                KEY_MISSING,
                "Missing required player/startpos key",
            ),
            (
                r#""startpos": "0""#,
                "NOPLAYER",
                KEY_TYPE,
                "player/startpos",
            ),
            (
                r#""modules": "1""#,
                "",
                KEY_TYPE,
                "\"modules\" key (expecting number)",
            ),
            (r#""modules": 256"#, "", MODULES_RANGE, "exceeds maximum"),
            (r#""modules": -1"#, "", MODULES_RANGE, "exceeds maximum"),
            (r#""modules": false"#, "", KEY_TYPE, "\"modules\" key"),
        ];
        for (extra, flags, rule, words) in cases {
            let player = if flags == "NOPLAYER" {
                ""
            } else {
                r#""startpos": 1,"#
            };
            let sep = if extra.is_empty() { "" } else { ", " };
            let v1 = format!(
                r#"{player} "name": "A0LightFactory", "position": [640, 640, 0]{sep}{extra}"#
            );
            let v2 =
                format!(r#"{player} "name": "A0LightFactory", "position": [640, 640]{sep}{extra}"#);
            for o in one(s, &v1, &v2) {
                let r = o
                    .refused
                    .as_ref()
                    .unwrap_or_else(|| panic!("{extra}: kept"));
                assert_eq!(r.rule, rule, "{extra}");
                assert!(r.message.contains(words), "{extra}: {}", r.message);
                // The report still says where the entry is.
                assert_eq!((o.x, o.y), (640, 640), "{extra}");
            }
        }
    }

    #[test]
    fn refuses_missing_and_mistyped_names_and_positions() {
        let d = ObjectKind::Droid;
        let cases: [(&str, &str, &str); 8] = [
            (r#""position": [1, 2, 0]"#, KEY_MISSING, "\"template\""),
            (
                r#""template": 7, "position": [1, 2, 0]"#,
                KEY_TYPE,
                "expecting string",
            ),
            (r#""template": "T""#, KEY_MISSING, "\"position\""),
            (
                r#""template": "T", "position": [1]"#,
                KEY_TYPE,
                "at least 2 members",
            ),
            (
                r#""template": "T", "position": "1, 2""#,
                KEY_TYPE,
                "at least 2 members",
            ),
            (
                r#""template": "T", "position": {"x": 1, "y": 2}"#,
                KEY_TYPE,
                "expecting an array",
            ),
            (
                r#""template": "T", "position": [1, "2"]"#,
                KEY_TYPE,
                "unable to convert",
            ),
            (
                r#""template": "T", "position": [null, 2]"#,
                KEY_TYPE,
                "unable to convert",
            ),
        ];
        for (body, rule, words) in cases {
            let body = format!(r#"{body}, "player": 0"#);
            let v2 = body.replace("[1, 2, 0]", "[1, 2]");
            for o in one(d, &body, &v2) {
                let r = o.refused.as_ref().unwrap_or_else(|| panic!("{body}: kept"));
                assert_eq!(
                    (r.rule, r.message.contains(words)),
                    (rule, true),
                    "{body}: {}",
                    r.message
                );
            }
        }
    }

    /// What the game logs but reads past: the entry is kept, the error listed.
    #[test]
    fn keeps_entries_whose_rotation_it_cannot_read() {
        let f = ObjectKind::Feature;
        // v1 wants a list; v2 takes a number but not a string.
        for o in one(
            f,
            r#""name": "Tree1", "position": [64, 64, 0], "rotation": 16384"#,
            r#""name": "Tree1", "position": [64, 64], "rotation": "90""#,
        ) {
            assert!(o.refused.is_none());
            assert_eq!(o.direction, 0);
            assert_eq!(o.logged.len(), 1, "{:?}", o.logged);
            assert_eq!(o.logged[0].rule, VALUE_UNREAD);
        }
        // Too many members: logged, read all the same.
        for o in one(
            f,
            r#""name": "Tree1", "position": [64, 64, 0, 0]"#,
            r#""name": "Tree1", "position": [64, 64, 0], "rotation": [16384, 0]"#,
        ) {
            assert!(o.refused.is_none());
            assert_eq!((o.x, o.y), (64, 64));
            assert!(
                o.logged
                    .iter()
                    .all(|l| l.message.contains("too many array members"))
            );
            assert!(!o.logged.is_empty());
        }
        // A feature's player is ignored, whatever it is.
        let [a, b] = one(
            f,
            r#""name": "Tree1", "position": [64, 64, 0], "player": "x""#,
            r#""name": "Tree1", "position": [64, 64], "player": 3"#,
        );
        assert!(a.refused.is_none() && b.refused.is_none());
        assert_eq!((a.owner, b.owner), (Owner::None, Owner::None));
    }

    /// The game's `static_cast`s: wrapping, cutting toward zero, `int8_t` owners.
    #[test]
    fn converts_numbers_as_the_game_does() {
        let s = ObjectKind::Structure;
        let [a, b] = one(
            s,
            r#""name": "W", "position": [640.9, 700, 0], "rotation": [70000, 0, 0], "player": 200, "id": -1"#,
            r#""name": "W", "position": [640.9, 700], "rotation": -16384, "startpos": 3.7, "modules": 1.9"#,
        );
        assert_eq!(
            (a.x, a.direction, a.owner, a.id),
            (640, 4464, Owner::Scavenger, Some(u32::MAX))
        );
        assert_eq!(
            (b.x, b.direction, b.owner, b.modules),
            (640, 49152, Owner::Player(3), 1)
        );
        // `player` wins over `startpos`; 256 narrows to player 0.
        let [c, _] = one(
            s,
            r#""name": "W", "position": [1, 2, 0], "player": 256, "startpos": 1"#,
            r#""name": "W", "position": [1, 2]"#,
        );
        assert_eq!(c.owner, Owner::Player(0));
    }

    /// A file past the limit: refused at the line of the first entry over it, in both
    /// versions and however the text is laid out.
    #[test]
    fn refuses_files_over_the_limit_at_the_entry() {
        let entry = r#"{"name": "Tree1", "position": [64, 64]}"#;
        let mut pretty = String::from("{\n  \"version\": 2,\n  \"features\": [\n");
        let mut leading = String::from("{\"version\": 2, \"features\": [\n");
        let mut keyed = String::from("{\n");
        for i in 0..=MAX_OBJECTS {
            let sep = if i == MAX_OBJECTS { "" } else { "," };
            pretty.push_str(&format!("    {entry}{sep}\n"));
            leading.push_str(&format!("{}{entry}\n", if i == 0 { "" } else { "," }));
            let v1 = r#"{"name": "Tree1", "position": [64, 64, 0]}"#;
            keyed.push_str(&format!("  \"feature_{i:06}\": {v1}{sep}\n"));
        }
        pretty.push_str("  ]\n}\n");
        leading.push_str("]}");
        keyed.push('}');
        for (text, first_line) in [(pretty, 4), (leading, 2), (keyed, 2)] {
            let e = read_json_objects(text.as_bytes(), ObjectKind::Feature).unwrap_err();
            assert_eq!(e.rule, Some(OBJECT_LIMIT), "{e}");
            assert_eq!(e.location, Location::Line(first_line + MAX_OBJECTS as u32));
            assert!(e.message.contains("65535 features"), "{e}");
        }
        // One fewer: read.
        let text = format!(
            "{{\"version\": 2, \"features\": [{}]}}",
            vec![entry; MAX_OBJECTS].join(",")
        );
        let (o, _) = read_json_objects(text.as_bytes(), ObjectKind::Feature).unwrap();
        assert_eq!(o.len(), MAX_OBJECTS);
    }

    #[test]
    fn bad_json_names_the_line() {
        let e = read_json_objects(b"{\n\"a\": [1,\n}", ObjectKind::Feature).unwrap_err();
        assert_eq!(e.location, Location::Line(3));
        let e = read_json_objects(br#"{"version": 3}"#, ObjectKind::Feature).unwrap_err();
        assert!(e.message.contains("version 3"), "{e}");
        // An explicit version 1 is refused too; 2.0 is 2.
        assert!(read_json_objects(br#"{"version": 1}"#, ObjectKind::Feature).is_err());
        let v = br#"{"version": 2.0, "features": []}"#;
        assert_eq!(read_json_objects(v, ObjectKind::Feature).unwrap().1, 2);
    }
}
