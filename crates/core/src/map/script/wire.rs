//! [`run_script`](super::run_script)'s answer as bytes, for an engine that runs in another
//! module (the page's `vitrine_script` wasm, which shares no memory with the page's own):
//! [`encode`] there, [`decode`] here. Little-endian, each list and string led by its
//! length (u32). What the answer carries is what `setMapData` gives and `run_script`
//! refuses with: an object's id, refusal and logged issues (which the file readers set,
//! never a script) and an error's file and rule (which the caller adds) are not sent.

use super::ScriptMap;
use crate::formats::{ErrorKind, LoadError};
use crate::map::{MapObject, ObjectKind, Owner};
use crate::model::Location;

/// Every [`ErrorKind`], by its code on the wire.
const KINDS: [ErrorKind; 17] = [
    ErrorKind::EmptyFile,
    ErrorKind::BadMagic,
    ErrorKind::UnsupportedVersion,
    ErrorKind::Unsupported,
    ErrorKind::Syntax,
    ErrorKind::BadValue,
    ErrorKind::NonFiniteFloat,
    ErrorKind::Truncated,
    ErrorKind::CountTooLarge,
    ErrorKind::SectionPastEof,
    ErrorKind::IndexOutOfRange,
    ErrorKind::BoneCycle,
    ErrorKind::Encoding,
    ErrorKind::UnterminatedBlock,
    ErrorKind::Missing,
    ErrorKind::Invalid,
    ErrorKind::Io,
];

fn kind_code(kind: ErrorKind) -> u8 {
    match kind {
        ErrorKind::EmptyFile => 0,
        ErrorKind::BadMagic => 1,
        ErrorKind::UnsupportedVersion => 2,
        ErrorKind::Unsupported => 3,
        ErrorKind::Syntax => 4,
        ErrorKind::BadValue => 5,
        ErrorKind::NonFiniteFloat => 6,
        ErrorKind::Truncated => 7,
        ErrorKind::CountTooLarge => 8,
        ErrorKind::SectionPastEof => 9,
        ErrorKind::IndexOutOfRange => 10,
        ErrorKind::BoneCycle => 11,
        ErrorKind::Encoding => 12,
        ErrorKind::UnterminatedBlock => 13,
        ErrorKind::Missing => 14,
        ErrorKind::Invalid => 15,
        ErrorKind::Io => 16,
    }
}

/// `answer` as bytes.
pub fn encode(answer: &Result<ScriptMap, LoadError>) -> Vec<u8> {
    let mut w = Vec::new();
    match answer {
        Ok(map) => {
            w.push(1);
            put_u32(&mut w, map.width);
            put_u32(&mut w, map.height);
            put_len(&mut w, map.textures.len());
            map.textures
                .iter()
                .for_each(|t| w.extend_from_slice(&t.to_le_bytes()));
            put_len(&mut w, map.heights.len());
            map.heights
                .iter()
                .for_each(|h| w.extend_from_slice(&h.to_le_bytes()));
            put_len(&mut w, map.objects.len());
            map.objects.iter().for_each(|o| put_object(&mut w, o));
            put_len(&mut w, map.notes.len());
            map.notes.iter().for_each(|n| put_str(&mut w, n));
            w.extend_from_slice(&map.slices.to_le_bytes());
            w.extend_from_slice(&map.elements.to_le_bytes());
        }
        Err(e) => {
            w.push(0);
            w.push(kind_code(e.kind));
            put_location(&mut w, e.location);
            put_str(&mut w, &e.message);
        }
    }
    w
}

fn put_u32(w: &mut Vec<u8>, v: u32) {
    w.extend_from_slice(&v.to_le_bytes());
}

fn put_len(w: &mut Vec<u8>, n: usize) {
    put_u32(w, u32::try_from(n).unwrap_or(u32::MAX));
}

fn put_str(w: &mut Vec<u8>, s: &str) {
    put_len(w, s.len());
    w.extend_from_slice(s.as_bytes());
}

fn put_location(w: &mut Vec<u8>, at: Location) {
    let (tag, value) = match at {
        Location::File => (0, 0),
        Location::Line(l) => (1, u64::from(l)),
        Location::Offset(o) => (2, o),
    };
    w.push(tag);
    w.extend_from_slice(&value.to_le_bytes());
}

fn put_object(w: &mut Vec<u8>, o: &MapObject) {
    w.push(match o.kind {
        ObjectKind::Structure => 0,
        ObjectKind::Feature => 1,
        ObjectKind::Droid => 2,
    });
    put_str(w, &o.stats_id);
    let (tag, player) = match o.owner {
        Owner::Player(p) => (0, p),
        Owner::Scavenger => (1, 0),
        Owner::None => (2, 0),
    };
    w.push(tag);
    put_u32(w, player);
    w.extend_from_slice(&o.x.to_le_bytes());
    w.extend_from_slice(&o.y.to_le_bytes());
    w.extend_from_slice(&o.direction.to_le_bytes());
    put_u32(w, o.modules);
    put_str(w, &o.key);
}

/// The answer `bytes` carry.
///
/// # Errors
/// The engine's refusal, as it gave it; or bytes that are no answer (cut short, a code
/// out of range, text that is not UTF-8, bytes left over): an error at their offset.
pub fn decode(bytes: &[u8]) -> Result<ScriptMap, LoadError> {
    let mut r = Reader { bytes, at: 0 };
    let answer = match r.u8()? {
        1 => Ok(r.map()?),
        0 => Err(r.error()?),
        tag => return Err(r.bad(format!("answer tag {tag}"))),
    };
    if r.at != bytes.len() {
        return Err(r.bad(format!("{} bytes after the answer", bytes.len() - r.at)));
    }
    answer
}

/// Reads an answer, each refusal at its offset.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn bad(&self, what: String) -> LoadError {
        LoadError::new(
            ErrorKind::Invalid,
            Location::Offset(self.at as u64),
            format!("the script engine's answer is broken: {what}"),
        )
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], LoadError> {
        let got = self
            .bytes
            .get(self.at..self.at + N)
            .and_then(|b| <[u8; N]>::try_from(b).ok())
            .ok_or_else(|| self.bad("it ends early".into()))?;
        self.at += N;
        Ok(got)
    }

    fn u8(&mut self) -> Result<u8, LoadError> {
        Ok(self.take::<1>()?[0])
    }

    fn u32(&mut self) -> Result<u32, LoadError> {
        self.take().map(u32::from_le_bytes)
    }

    fn i32(&mut self) -> Result<i32, LoadError> {
        self.take().map(i32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, LoadError> {
        self.take().map(u64::from_le_bytes)
    }

    /// A count of items of at least `size` bytes each, checked against the bytes left.
    fn count(&mut self, size: usize) -> Result<usize, LoadError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(size) > self.bytes.len() - self.at {
            return Err(self.bad(format!("a count of {n} past its end")));
        }
        Ok(n)
    }

    fn string(&mut self) -> Result<String, LoadError> {
        let n = self.count(1)?;
        let text = std::str::from_utf8(&self.bytes[self.at..self.at + n])
            .map_err(|_| self.bad("text that is not UTF-8".into()))?;
        self.at += n;
        Ok(text.to_string())
    }

    fn map(&mut self) -> Result<ScriptMap, LoadError> {
        let (width, height) = (self.u32()?, self.u32()?);
        let n = self.count(2)?;
        let textures = (0..n)
            .map(|_| self.take().map(u16::from_le_bytes))
            .collect::<Result<_, _>>()?;
        let n = self.count(4)?;
        let heights = (0..n).map(|_| self.i32()).collect::<Result<_, _>>()?;
        let n = self.count(28)?;
        let objects = (0..n).map(|_| self.object()).collect::<Result<_, _>>()?;
        let n = self.count(4)?;
        let notes = (0..n).map(|_| self.string()).collect::<Result<_, _>>()?;
        Ok(ScriptMap {
            width,
            height,
            textures,
            heights,
            objects,
            notes,
            slices: self.u64()?,
            elements: self.u64()?,
        })
    }

    fn object(&mut self) -> Result<MapObject, LoadError> {
        let kind = match self.u8()? {
            0 => ObjectKind::Structure,
            1 => ObjectKind::Feature,
            2 => ObjectKind::Droid,
            k => return Err(self.bad(format!("object kind {k}"))),
        };
        let stats_id = self.string()?;
        let owner = match (self.u8()?, self.u32()?) {
            (0, p) => Owner::Player(p),
            (1, _) => Owner::Scavenger,
            (2, _) => Owner::None,
            (t, _) => return Err(self.bad(format!("owner tag {t}"))),
        };
        Ok(MapObject {
            kind,
            stats_id,
            owner,
            x: self.i32()?,
            y: self.i32()?,
            direction: self.take().map(u16::from_le_bytes)?,
            id: None,
            modules: self.u32()?,
            key: self.string()?,
            refused: None,
            logged: Vec::new(),
        })
    }

    fn error(&mut self) -> Result<LoadError, LoadError> {
        let code = self.u8()?;
        let kind = *KINDS
            .get(usize::from(code))
            .ok_or_else(|| self.bad(format!("error kind {code}")))?;
        let location = match (self.u8()?, self.u64()?) {
            (0, _) => Location::File,
            (1, l) => Location::Line(u32::try_from(l).map_err(|_| self.bad(format!("line {l}")))?),
            (2, o) => Location::Offset(o),
            (t, _) => return Err(self.bad(format!("location tag {t}"))),
        };
        Ok(LoadError::new(kind, location, self.string()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ScriptMap {
        ScriptMap {
            width: 2,
            height: 1,
            textures: vec![7, 0x8003],
            heights: vec![0, 510, -3, 12, 4, 5],
            objects: vec![
                MapObject {
                    kind: ObjectKind::Structure,
                    stats_id: "A0CommandCentre".into(),
                    owner: Owner::Player(3),
                    x: 320,
                    y: -64,
                    direction: 0x4000,
                    id: None,
                    modules: 2,
                    key: "structure 0".into(),
                    refused: None,
                    logged: Vec::new(),
                },
                MapObject {
                    kind: ObjectKind::Feature,
                    stats_id: "OilResource".into(),
                    owner: Owner::None,
                    x: 1,
                    y: 2,
                    direction: 0,
                    id: None,
                    modules: 0,
                    key: "feature 0".into(),
                    refused: None,
                    logged: Vec::new(),
                },
                MapObject {
                    kind: ObjectKind::Droid,
                    stats_id: "ConstructorDroid".into(),
                    owner: Owner::Scavenger,
                    x: 5,
                    y: 6,
                    direction: 65535,
                    id: None,
                    modules: 0,
                    key: "droid 0".into(),
                    refused: None,
                    logged: Vec::new(),
                },
            ],
            notes: vec!["log: héllo".into(), String::new()],
            slices: 1 << 40,
            elements: 12,
        }
    }

    #[test]
    fn a_map_and_every_error_kind_cross_unchanged() {
        let map = sample();
        assert_eq!(decode(&encode(&Ok(map.clone()))), Ok(map));
        for (code, kind) in KINDS.into_iter().enumerate() {
            assert_eq!(usize::from(kind_code(kind)), code);
            for at in [
                Location::File,
                Location::Line(37),
                Location::Offset(1 << 33),
            ] {
                let e = LoadError::new(kind, at, "the script stopped: x");
                assert_eq!(decode(&encode(&Err(e.clone()))), Err(e));
            }
        }
    }

    #[test]
    fn broken_answers_are_refused_at_their_offset() {
        let good = encode(&Ok(sample()));
        // Every cut, and a byte too many.
        for end in 0..good.len() {
            let e = decode(&good[..end]).unwrap_err();
            assert!(
                e.message
                    .starts_with("the script engine's answer is broken"),
                "{e}"
            );
            assert!(
                matches!(e.location, Location::Offset(o) if o as usize <= end),
                "{e:?}"
            );
        }
        let mut long = good.clone();
        long.push(0);
        let e = decode(&long).unwrap_err();
        assert_eq!(e.location, Location::Offset(good.len() as u64));
        assert!(e.message.ends_with("1 bytes after the answer"), "{e}");
        // A count past the end is refused before anything is made for it.
        let mut huge = good[..9].to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        let e = decode(&huge).unwrap_err();
        assert_eq!(e.location, Location::Offset(13));
        assert!(
            e.message.contains("a count of 4294967295 past its end"),
            "{e}"
        );
        assert_eq!(decode(&[9]).unwrap_err().location, Location::Offset(1));
    }
}
