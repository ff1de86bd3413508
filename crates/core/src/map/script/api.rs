//! The game's map-script API (`runMap_gameRand`, `runMap_log`, `runMap_setMapData` and
//! the globals `runMapScript` defines in `lib/wzmaplib/src/map_script.cpp`), and the
//! length charge of the wrapped natives. `setMapData` checks what the game checks, with
//! its limits: each side at most 256 tiles, width·height ≤ 65536, both above 1; each
//! array of width·height values; textures ≤ 65535; heights over 510 capped with a note;
//! at most 65535 structures, droids and features; directions 0–65535; modules < 255.

use super::{MAX_ELEMENTS, MAX_LENGTH, MAX_NAME_BYTES};
use crate::formats::{ErrorKind, LoadError};
use crate::map::GameRng as Mt19937;
use crate::map::{MAX_AREA, MAX_HEIGHT, MapObject, ObjectKind, Owner};
use crate::model::Location;
use boa_engine::property::Attribute;
use boa_engine::vm::{CallFrame, SourcePath};
use boa_engine::{
    Context, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction,
    js_string,
};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

/// Largest side of a script map (`MAP_MAXWIDTH`, `MAP_MAXHEIGHT`).
pub const MAX_SIDE: i32 = 256;
/// Most objects of one kind (`uint16::max`).
const MAX_OBJECTS: u64 = u16::MAX as u64;
/// `log` lines kept.
const MAX_LOG_LINES: usize = 200;
/// UTF-16 units of a `log` line kept.
const MAX_LOG_TEXT: usize = 500;

/// What the natives share: the generators, the map once given, the log.
pub(super) struct State {
    rand: Mt19937,
    math_random: Mt19937,
    scavenger_slot: i32,
    terrain: Option<(u32, u32, Vec<u16>, Vec<i32>)>,
    objects: [Vec<MapObject>; 3],
    notes: Vec<String>,
    charged: u64,
    /// Where a host watches the run ([`super::run_script_watched`]): the line last seen.
    watch: Option<&'static AtomicU32>,
}

impl State {
    pub(super) fn new(seed: u32, players: u32, watch: Option<&'static AtomicU32>) -> Self {
        State {
            rand: Mt19937::new(seed),
            math_random: Mt19937::new(seed),
            scavenger_slot: players.max(7) as i32,
            terrain: None,
            objects: Default::default(),
            notes: Vec::new(),
            charged: 0,
            watch,
        }
    }

    /// The map, or why there is none.
    pub(super) fn into_map(self) -> Result<super::ScriptMap, LoadError> {
        let Some((width, height, textures, heights)) = self.terrain else {
            return Err(LoadError::new(
                ErrorKind::Missing,
                Location::File,
                "the script ended without calling setMapData: no map",
            ));
        };
        let [droids, features, structures] = self.objects;
        let mut objects = droids;
        objects.extend(features);
        objects.extend(structures);
        Ok(super::ScriptMap {
            width,
            height,
            textures,
            heights,
            objects,
            notes: self.notes,
            slices: 0,
            elements: self.charged,
        })
    }
}

/// Tells a watching host the line of `game.js` the script is on (see [`State::watch`]).
fn seen(context: &mut Context) {
    let Some(watch) = context.get_data::<State>().and_then(|s| s.watch) else {
        return;
    };
    // The innermost frame of `game.js` itself (not of the wrapped natives' guards).
    let line = context
        .stack_trace()
        .map(CallFrame::position)
        .find(|at| matches!(&at.path, SourcePath::Path(p) if p.as_ref() == Path::new("game.js")))
        .and_then(|at| at.position)
        .map_or(0, |p| p.line_number());
    watch.store(line, Ordering::Relaxed);
}

fn state(context: &mut Context) -> JsResult<&mut State> {
    context
        .host_defined_mut()
        .get_mut::<State>()
        .ok_or_else(|| {
            JsNativeError::error()
                .with_message("no map script state")
                .into()
        })
}

/// A `ReferenceError`, as the game's `SCRIPT_ASSERT` throws.
fn refuse(message: impl Into<String>) -> JsError {
    JsNativeError::reference()
        .with_message(format!("setMapData: {}", message.into()))
        .into()
}

/// A native function of the script's API.
type Native = fn(&JsValue, &[JsValue], &mut Context) -> JsResult<JsValue>;

/// Registers the game's functions and constants, `Math.random`'s own generator and the
/// charge the wrapped natives call.
pub(super) fn register(context: &mut Context) -> JsResult<()> {
    let functions: [(&str, usize, Native); 4] = [
        ("gameRand", 0, game_rand),
        ("log", 1, log),
        ("setMapData", 7, set_map_data),
        ("__vitrine_charge", 2, charge),
    ];
    for (name, length, f) in functions {
        context.register_global_builtin_callable(
            JsString::from(name),
            length,
            NativeFunction::from_fn_ptr(f),
        )?;
    }
    let constants: [(&str, JsValue); 6] = [
        ("preview", JsValue::from(false)),
        ("XFLIP", JsValue::from(0x8000)),
        ("YFLIP", JsValue::from(0x4000)),
        ("ROTMASK", JsValue::from(0x3000)),
        ("ROTSHIFT", JsValue::from(12)),
        ("TRIFLIP", JsValue::from(0x0800)),
    ];
    for (name, value) in constants {
        context.register_global_property(JsString::from(name), value, Attribute::empty())?;
    }
    let random = NativeFunction::from_fn_ptr(math_random);
    let math = context
        .global_object()
        .get(js_string!("Math"), context)?
        .as_object()
        .ok_or_else(|| JsNativeError::typ().with_message("no Math"))?;
    let f = boa_engine::object::FunctionObjectBuilder::new(context.realm(), random)
        .name(js_string!("random"))
        .length(0)
        .build();
    math.set(js_string!("random"), f, true, context)?;
    Ok(())
}

/// `gameRand([mod])`: the next output of the seeded `std::mt19937`; with a non-zero
/// `mod` (ToUint32), the output modulo it.
fn game_rand(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    seen(context);
    let modulo = match args.first() {
        Some(m) => m.to_u32(context)?,
        None => 0,
    };
    let n = state(context)?.rand.next_u32();
    Ok(JsValue::from(if modulo != 0 { n % modulo } else { n }))
}

/// `Math.random()`: 53 bits from a generator of its own (repeatable; see the module).
fn math_random(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let mt = &mut state(context)?.math_random;
    let hi = u64::from(mt.next_u32() >> 5);
    let lo = u64::from(mt.next_u32() >> 6);
    Ok(JsValue::from(
        ((hi << 26) | lo) as f64 / (1u64 << 53) as f64,
    ))
}

/// `log(value)`: exactly one argument, as the game asserts; kept as a note.
fn log(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    seen(context);
    if args.len() != 1 {
        return Err(JsNativeError::reference()
            .with_message("log: must have one parameter")
            .into());
    }
    let notes_full = state(context)?.notes.len() >= MAX_LOG_LINES;
    if notes_full {
        return Ok(JsValue::undefined());
    }
    let whole = args[0].to_string(context)?;
    let kept = whole.len().min(MAX_LOG_TEXT);
    let mut text = whole
        .get(..kept)
        .map(|t| t.to_std_string_escaped())
        .unwrap_or_default();
    if kept < whole.len() {
        text.push('…');
    }
    let notes = &mut state(context)?.notes;
    if notes.len() < MAX_LOG_LINES {
        notes.push(format!("game.js log: {text}"));
    }
    Ok(JsValue::undefined())
}

/// The wrapped natives' charge: `(length, builds)`. A length over [`MAX_LENGTH`] is a
/// `RangeError`; a native that builds (`builds` true) adds its length to the run's total,
/// and a total over [`MAX_ELEMENTS`] is a `RangeError` too.
fn charge(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    seen(context);
    let n = args
        .first()
        .cloned()
        .unwrap_or_default()
        .to_number(context)?;
    let builds = args.get(1).is_some_and(JsValue::to_boolean);
    let n = if n.is_finite() && n > 0.0 {
        n as u64
    } else {
        0
    };
    let s = state(context)?;
    if builds {
        s.charged = s.charged.saturating_add(n);
    }
    if n > MAX_LENGTH || s.charged > MAX_ELEMENTS {
        return Err(JsNativeError::range()
            .with_message(format!(
                "map script memory bound: a length of {n} (at most {MAX_LENGTH}; {} of \
                 {MAX_ELEMENTS} elements built in this run)",
                s.charged
            ))
            .into());
    }
    Ok(JsValue::undefined())
}

/// The array's length, or `None` when `value` is no array.
fn array(value: &JsValue, context: &mut Context) -> JsResult<Option<(JsObject, u64)>> {
    let Some(o) = value.as_object().filter(JsObject::is_array) else {
        return Ok(None);
    };
    let len = o.get(js_string!("length"), context)?.to_length(context)?;
    Ok(Some((o, len)))
}

fn set_map_data(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    seen(context);
    if args.len() != 7 {
        return Err(refuse(format!(
            "must have 7 parameters, has {}",
            args.len()
        )));
    }
    for (i, name) in [(0, "mapWidth"), (1, "mapHeight")] {
        if !args[i].is_number() {
            return Err(refuse(format!("{name} must be a number")));
        }
    }
    let names = ["texture", "height", "structures", "droids", "features"];
    let mut arrays = Vec::with_capacity(5);
    for (i, name) in names.iter().enumerate() {
        match array(&args[i + 2], context)? {
            Some(a) => arrays.push(a),
            None => return Err(refuse(format!("{name} must be an array"))),
        }
    }
    let width = args[0].to_i32(context)?;
    let height = args[1].to_i32(context)?;
    let area = i64::from(width) * i64::from(height);
    if width <= 1 || height <= 1 || area as u64 > MAX_AREA {
        return Err(refuse(format!("map size {width}×{height} out of bounds")));
    }
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(refuse(format!(
            "map size {width}×{height}: each side at most {MAX_SIDE}"
        )));
    }
    let (textures, heights) = tiles(&arrays[0], &arrays[1], area as u64, context)?;
    let s = state(context)?;
    s.terrain = Some((width as u32, height as u32, textures, heights.0));
    s.notes.extend(heights.1);
    let kinds = [
        ObjectKind::Structure,
        ObjectKind::Droid,
        ObjectKind::Feature,
    ];
    for (k, kind) in kinds.into_iter().enumerate() {
        let list = objects(&arrays[k + 2], kind, names[k + 2], context)?;
        let slot = match kind {
            ObjectKind::Droid => 0,
            ObjectKind::Feature => 1,
            ObjectKind::Structure => 2,
        };
        let kept = &mut state(context)?.objects[slot];
        if kept.len() as u64 + list.len() as u64 > MAX_OBJECTS {
            return Err(refuse(format!(
                "{} {} over the calls so far, with {} more: at most 65535 of each kind",
                kept.len(),
                names[k + 2],
                list.len()
            )));
        }
        kept.extend(list);
    }
    Ok(JsValue::from(true))
}

type Heights = (Vec<i32>, Vec<String>);

/// The texture and height arrays, each of `area` values.
fn tiles(
    texture: &(JsObject, u64),
    height: &(JsObject, u64),
    area: u64,
    context: &mut Context,
) -> JsResult<(Vec<u16>, Heights)> {
    for ((_, len), name) in [(texture, "texture"), (height, "height")] {
        if *len != area {
            return Err(refuse(format!(
                "{name} array length must equal mapWidth * mapHeight ({area}); actual length is {len}"
            )));
        }
    }
    let mut textures = Vec::with_capacity(area as usize);
    let mut heights = Vec::with_capacity(area as usize);
    let mut notes = Vec::new();
    for n in 0..area as u32 {
        let t = texture.0.get(n, context)?.to_u32(context)?;
        let t =
            u16::try_from(t).map_err(|_| refuse(format!("texture[{n}] = {t} exceeds 65535")))?;
        textures.push(t);
        let h = height.0.get(n, context)?.to_u32(context)?;
        if h > MAX_HEIGHT as u32 {
            if notes.len() < 20 {
                notes.push(format!(
                    "game.js: height[{n}] = {h} is over {MAX_HEIGHT}; capped as the game does"
                ));
            }
            heights.push(MAX_HEIGHT);
        } else {
            heights.push(h as i32);
        }
    }
    Ok((textures, (heights, notes)))
}

/// One list of structures, droids or features.
fn objects(
    list: &(JsObject, u64),
    kind: ObjectKind,
    name: &str,
    context: &mut Context,
) -> JsResult<Vec<MapObject>> {
    if list.1 > MAX_OBJECTS {
        return Err(refuse(format!(
            "{name} array length must be <= 65535; actual length is {}",
            list.1
        )));
    }
    let scavengers = state(context)?.scavenger_slot;
    let mut out = Vec::with_capacity(list.1 as usize);
    for i in 0..list.1 as u32 {
        let entry = list.0.get(i, context)?;
        let key = format!("{name}[{i}]");
        let field = |k: &str, context: &mut Context| -> JsResult<JsValue> {
            match entry.as_object() {
                Some(o) => o.get(JsString::from(k), context),
                None => entry.to_object(context)?.get(JsString::from(k), context),
            }
        };
        let stats_id = field("name", context)?.to_string(context)?;
        if stats_id.len() > MAX_NAME_BYTES {
            return Err(refuse(format!(
                "{key}: a name of {} characters (at most {MAX_NAME_BYTES}: no object of the \
                 game has a longer one)",
                stats_id.len()
            )));
        }
        let stats_id = stats_id.to_std_string_escaped();
        let (x, y) = position(&field("position", context)?, &key, context)?;
        let direction = field("direction", context)?.to_i32(context)?;
        let direction = u16::try_from(direction)
            .map_err(|_| refuse(format!("{key}: invalid direction ({direction})")))?;
        let mut modules = 0;
        if kind == ObjectKind::Structure {
            modules = field("modules", context)?.to_u32(context)?;
            if modules >= 255 {
                return Err(refuse(format!("{key}: invalid modules ({modules})")));
            }
        }
        let owner = if kind == ObjectKind::Feature {
            Owner::None
        } else {
            // The game keeps the player as an 8-bit signed number, unchecked; -1 is
            // `PLAYER_SCAVENGERS`, and so is the scavenger slot.
            let p = i32::from(field("player", context)?.to_i32(context)? as i8);
            if p < 0 || p == scavengers {
                Owner::Scavenger
            } else {
                Owner::Player(p as u32)
            }
        };
        out.push(MapObject {
            kind,
            stats_id,
            owner,
            x,
            y,
            direction,
            id: None,
            modules,
            key,
            refused: None,
            logged: Vec::new(),
        });
    }
    Ok(out)
}

/// `[x, y]` (ToInt32 each), or (0, 0) where `position` is no array, as the game leaves it.
fn position(value: &JsValue, key: &str, context: &mut Context) -> JsResult<(i32, i32)> {
    let Some((o, len)) = array(value, context)? else {
        return Ok((0, 0));
    };
    if len != 2 {
        return Err(refuse(format!(
            "{key}: position array length must equal 2; actual length is {len}"
        )));
    }
    let x = o.get(0, context)?.to_i32(context)?;
    let y = o.get(1, context)?.to_i32(context)?;
    Ok((x, y))
}
