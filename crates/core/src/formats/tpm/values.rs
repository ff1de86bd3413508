//! Property values: strings, numbers, `vec2`/`vec3`/`ivec3` tuples and the compound
//! values of faces (`(v1,v2,v3),(t1,t2,t3),(n1,n2,n3),m`) and skin vertices
//! (`(x,y,z),bone`), per the spec's helper types.
//!
//! Numbers are read as `f64` (so the `info --json` "raw" values print as written) and
//! must also fit an `f32`, the precision the model keeps. `nan`, `inf` and values beyond
//! the `f32` range are [`ErrorKind::NonFiniteFloat`]; anything else that is not a number,
//! or a tuple with the wrong number of parts, is [`ErrorKind::BadValue`]. Errors come
//! back without a line; [`super::blocks`] adds it.

use crate::formats::ErrorKind;

/// A value error: category and message, before a line is attached.
pub(crate) type ValueError = (ErrorKind, String);

fn bad(message: impl Into<String>) -> ValueError {
    (ErrorKind::BadValue, message.into())
}

/// One comma-separated part of a value: a bare token or a parenthesised tuple.
#[derive(Debug, Clone, PartialEq)]
enum Item<'a> {
    Scalar(&'a str),
    Tuple(Vec<&'a str>),
}

/// Splits `value` into top-level comma-separated items.
fn items(value: &str) -> Result<Vec<Item<'_>>, ValueError> {
    let mut out = Vec::new();
    let mut rest = value.trim();
    if rest.is_empty() {
        return Err(bad("the value is empty"));
    }
    loop {
        rest = rest.trim_start();
        let item;
        if let Some(inner) = rest.strip_prefix('(') {
            let close = inner
                .find(')')
                .ok_or_else(|| bad(format!("`{value}`: '(' without a closing ')'")))?;
            let parts = inner[..close].split(',').map(str::trim).collect();
            item = Item::Tuple(parts);
            rest = inner[close + 1..].trim_start();
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            let token = rest[..end].trim();
            if token.is_empty() || token.contains(['(', ')']) {
                return Err(bad(format!(
                    "`{value}` is not a list of numbers and tuples"
                )));
            }
            item = Item::Scalar(token);
            rest = &rest[end..];
        }
        out.push(item);
        if rest.is_empty() {
            return Ok(out);
        }
        rest = rest
            .strip_prefix(',')
            .ok_or_else(|| bad(format!("`{value}`: expected ',' between parts")))?;
    }
}

/// A float token that must be finite in `f32`.
pub fn float(token: &str) -> Result<f64, ValueError> {
    let x: f64 = token
        .trim()
        .parse()
        .map_err(|_| bad(format!("`{token}` is not a number")))?;
    if !x.is_finite() || !(x as f32).is_finite() {
        return Err((
            ErrorKind::NonFiniteFloat,
            format!("`{token}` is not a finite number"),
        ));
    }
    Ok(x)
}

/// A decimal integer token.
pub(crate) fn int(token: &str) -> Result<i64, ValueError> {
    token
        .trim()
        .parse()
        .map_err(|_| bad(format!("`{token}` is not an integer")))
}

fn tuple<'a>(item: &Item<'a>, n: usize, what: &str) -> Result<Vec<&'a str>, ValueError> {
    match item {
        Item::Tuple(parts) if parts.len() == n => Ok(parts.clone()),
        Item::Tuple(parts) => Err(bad(format!(
            "{what} has {} components, expected {n}",
            parts.len()
        ))),
        Item::Scalar(s) => Err(bad(format!(
            "{what}: expected a ({n}-component) tuple, found `{s}`"
        ))),
    }
}

fn floats<const N: usize>(item: &Item, what: &str) -> Result<[f64; N], ValueError> {
    let parts = tuple(item, N, what)?;
    let mut out = [0.0; N];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = float(p).map_err(|(k, m)| (k, format!("{what}: {m}")))?;
    }
    Ok(out)
}

fn ints(item: &Item, what: &str) -> Result<[i64; 3], ValueError> {
    let parts = tuple(item, 3, what)?;
    let mut out = [0; 3];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = int(p).map_err(|(k, m)| (k, format!("{what}: {m}")))?;
    }
    Ok(out)
}

fn exactly<'a>(value: &'a str, n: usize, shape: &str) -> Result<Vec<Item<'a>>, ValueError> {
    let items = items(value)?;
    if items.len() != n {
        return Err(bad(format!("`{value}` is not of the form {shape}")));
    }
    Ok(items)
}

/// `(x,y,z)`.
pub fn vec3(value: &str) -> Result<[f64; 3], ValueError> {
    let items = exactly(value, 1, "(x,y,z)")?;
    floats(&items[0], "vec3")
}

/// `(u,v)`.
pub fn vec2(value: &str) -> Result<[f64; 2], ValueError> {
    let items = exactly(value, 1, "(u,v)")?;
    floats(&items[0], "vec2")
}

/// A single float.
pub(crate) fn scalar(value: &str) -> Result<f64, ValueError> {
    let items = exactly(value, 1, "a number")?;
    match &items[0] {
        Item::Scalar(s) => float(s),
        Item::Tuple(_) => Err(bad(format!("`{value}`: expected a single number"))),
    }
}

/// `(x,y,z),bone` of a skin vertex.
pub(crate) fn skin_vertex(value: &str) -> Result<([f64; 3], i64), ValueError> {
    let items = exactly(value, 2, "(x,y,z),bone")?;
    let p = floats(&items[0], "skin vertex position")?;
    let bone = match &items[1] {
        Item::Scalar(s) => int(s).map_err(|(k, m)| (k, format!("skin vertex bone: {m}")))?,
        Item::Tuple(_) => return Err(bad("skin vertex bone: expected an integer")),
    };
    Ok((p, bone))
}

/// A face as written: 1-based `(v1,v2,v3)`, `(t1,t2,t3)`, `(n1,n2,n3)` and material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawFace {
    /// Vertex (position) indices, 1-based.
    pub v: [i64; 3],
    /// Texture-coordinate indices, 1-based.
    pub t: [i64; 3],
    /// Normal indices, 1-based.
    pub n: [i64; 3],
    /// Index into the mesh's own `m` list, 1-based.
    pub m: i64,
}

/// `(v1,v2,v3),(t1,t2,t3),(n1,n2,n3),m`.
pub(crate) fn face(value: &str) -> Result<RawFace, ValueError> {
    let items = exactly(value, 4, "(v1,v2,v3),(t1,t2,t3),(n1,n2,n3),m")?;
    let m = match &items[3] {
        Item::Scalar(s) => int(s).map_err(|(k, m)| (k, format!("face material: {m}")))?,
        Item::Tuple(_) => return Err(bad("face material: expected an integer")),
    };
    Ok(RawFace {
        v: ints(&items[0], "face vertex indices")?,
        t: ints(&items[1], "face texture-coordinate indices")?,
        n: ints(&items[2], "face normal indices")?,
        m,
    })
}

/// A string value without its quotes. An unquoted value is taken as written (the
/// add-on's exporter always quotes, but hand-edited files may not).
pub fn string(value: &str) -> Result<&str, ValueError> {
    match value.strip_prefix('"') {
        None => Ok(value),
        Some(rest) => rest
            .strip_suffix('"')
            .filter(|s| !s.contains('"'))
            .ok_or_else(|| bad(format!("`{value}`: the string is not closed by '\"'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_tuples() {
        let ok: &[(&str, [f64; 3])] = &[
            (
                "(0.00585938,-0.51088,0.0339626)",
                [0.00585938, -0.51088, 0.0339626],
            ),
            ("( 1 , 2 ,3 )", [1.0, 2.0, 3.0]),
            ("(-1.0E+0,-5.0e-1,0)", [-1.0, -0.5, 0.0]),
            ("(+2.99E8,.5,5.)", [2.99e8, 0.5, 5.0]),
        ];
        for (input, want) in ok {
            assert_eq!(vec3(input), Ok(*want), "{input}");
        }
        let err: &[(&str, ErrorKind)] = &[
            ("(1,2)", ErrorKind::BadValue),
            ("(1,2,3,4)", ErrorKind::BadValue),
            ("(1,2,3", ErrorKind::BadValue),
            ("1,2,3", ErrorKind::BadValue),
            ("(1,2,3),4", ErrorKind::BadValue),
            ("(1,x,3)", ErrorKind::BadValue),
            ("(1,,3)", ErrorKind::BadValue),
            ("", ErrorKind::BadValue),
            ("(nan,0,0)", ErrorKind::NonFiniteFloat),
            ("(inf,0,0)", ErrorKind::NonFiniteFloat),
            ("(0,-infinity,0)", ErrorKind::NonFiniteFloat),
            ("(1e39,0,0)", ErrorKind::NonFiniteFloat),
        ];
        for (input, kind) in err {
            assert_eq!(vec3(input).map_err(|e| e.0), Err(*kind), "{input}");
        }
        assert_eq!(vec2("(0.31415,0.27818)"), Ok([0.31415, 0.27818]));
        assert_eq!(scalar("3.05637"), Ok(3.05637));
        assert!(scalar("(1)").is_err());
    }

    #[test]
    fn faces_and_skin_vertices() {
        assert_eq!(
            face("(3,1,4),(3,1,4),(1,1,1),2"),
            Ok(RawFace {
                v: [3, 1, 4],
                t: [3, 1, 4],
                n: [1, 1, 1],
                m: 2
            })
        );
        assert_eq!(
            face(" ( 1,2,3 ) , (1,2,3),(1,1,1) , 1 ").map(|f| f.m),
            Ok(1)
        );
        for bad_face in [
            "(1,2,3),(1,2,3),(1,1,1)",
            "(1,2,3),(1,2,3),(1,1,1),1,1",
            "(1,2),(1,2,3),(1,1,1),1",
            "(1,2,3),(1,2,3),(1,1,1),(1)",
            "(1.5,2,3),(1,2,3),(1,1,1),1",
        ] {
            assert_eq!(
                face(bad_face).map_err(|e| e.0),
                Err(ErrorKind::BadValue),
                "{bad_face}"
            );
        }
        assert_eq!(skin_vertex("(-1.0,-0.5,0.0),1"), Ok(([-1.0, -0.5, 0.0], 1)));
        assert_eq!(skin_vertex("(0,2,0.1),-1"), Ok(([0.0, 2.0, 0.1], -1)));
        assert!(skin_vertex("(0,2,0.1)").is_err());
    }

    #[test]
    fn strings() {
        assert_eq!(string("\"Map\\lab\\x.bmp\""), Ok("Map\\lab\\x.bmp"));
        assert_eq!(string("\" a = b \""), Ok(" a = b "));
        assert_eq!(string("bare.bmp"), Ok("bare.bmp"));
        assert!(string("\"open").is_err());
        assert!(string("\"a\"b\"").is_err());
    }
}
