//! Typed TPM blocks: the grammar's blocks checked against the spec's block tables.
//!
//! Strict where the data would otherwise be wrong: malformed or non-finite numbers, face
//! indices outside their arrays (v, t, n and the mesh's own `m` list, all 1-based), a
//! missing or repeated `fileinfo`, a `fileinfo` without `formatversion`. Lenient where
//! real files vary (TresEd, GeomAdd and the Blender-TPM add-on each write it a little
//! differently): unknown block types and unknown properties, a repeated unique property,
//! a missing optional or defaultable property and block-name irregularities are
//! warnings with their line. Extra `bone`
//! properties (`Anim00`, `Ratio`, …) are kept for the panel without a warning.
//!
//! Values stay in the file's own terms here (Z up, degrees, 1-based indices already
//! checked and turned 0-based); [`super::build`] converts them.

use super::grammar::{Block, Property, describe};
use super::values::{self, RawFace, ValueError};
use crate::formats::{ErrorKind, LoadError};
use crate::model::{Diagnostic, Location};

/// The `fileinfo` block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FileInfo {
    /// Header line.
    pub line: u32,
    /// `formatversion` as written (`1.0.1`).
    pub formatversion: String,
    /// Every property in file order, string quotes removed.
    pub fields: Vec<(String, String)>,
}

/// A `material` block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MaterialDef {
    /// Block name.
    pub name: String,
    /// Header line.
    pub line: u32,
    /// Colour map path as written.
    pub colormap: Option<String>,
    /// Bump map path as written.
    pub bumpmap: Option<String>,
    /// Opacity map path as written.
    pub opacitymap: Option<String>,
}

/// A face, 0-based and range-checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Face {
    /// Line of the `f` property.
    pub line: u32,
    /// Indices into `MeshDef::positions`.
    pub v: [u32; 3],
    /// Indices into `MeshDef::uvs`.
    pub t: [u32; 3],
    /// Indices into `MeshDef::normals`.
    pub n: [u32; 3],
    /// Index into `MeshDef::materials`.
    pub m: u32,
}

/// A `mesh` or `skin` block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MeshDef {
    /// Block name.
    pub name: String,
    /// Header line.
    pub line: u32,
    /// Whether this was a `skin` block.
    pub skin: bool,
    /// The `m` lines: material name and line.
    pub materials: Vec<(String, u32)>,
    /// `v` positions, file axes.
    pub positions: Vec<[f64; 3]>,
    /// Skins only: per `v`, the bone index as written (negative = unbound).
    pub bones: Vec<i64>,
    /// `n` normals, file axes.
    pub normals: Vec<[f64; 3]>,
    /// `t` texture coordinates, origin bottom-left.
    pub uvs: Vec<[f64; 2]>,
    /// `f` faces.
    pub faces: Vec<Face>,
}

/// An `instance` block, raw values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct InstanceDef {
    /// Block name.
    pub name: String,
    /// Header line.
    pub line: u32,
    /// `mesh`, if given.
    pub mesh: Option<String>,
    /// `position`, file axes (zero if absent).
    pub position: [f64; 3],
    /// `rotation`, Euler degrees X, Y, Z (zero if absent).
    pub rotation: [f64; 3],
    /// Uniform `scale` (1 if absent).
    pub scale: f64,
}

/// A `bone` block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BoneDef {
    /// Block name (`$J<skin><NN>`).
    pub name: String,
    /// Header line.
    pub line: u32,
    /// `position`, skin-local, file axes.
    pub position: [f64; 3],
    /// `rotation`, Euler degrees X, Y, Z.
    pub rotation: [f64; 3],
    /// Every other property as written (`Anim00 = 7`, `Ratio = 0.5`), in file order.
    pub extra: Vec<(String, String)>,
}

/// A whole TPM file in file terms, plus the warnings found so far.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TpmFile {
    /// The one `fileinfo`.
    pub fileinfo: FileInfo,
    /// `material` blocks in file order.
    pub materials: Vec<MaterialDef>,
    /// `mesh` and `skin` blocks in file order.
    pub meshes: Vec<MeshDef>,
    /// `instance` blocks in file order.
    pub instances: Vec<InstanceDef>,
    /// `bone` blocks in file order.
    pub bones: Vec<BoneDef>,
    /// Warnings, each at its line.
    pub warnings: Vec<Diagnostic>,
}

fn at(line: u32, (kind, message): ValueError, key: &str) -> LoadError {
    LoadError::new(kind, Location::Line(line), format!("`{key}`: {message}"))
}

fn err(kind: ErrorKind, line: u32, message: impl Into<String>) -> LoadError {
    LoadError::new(kind, Location::Line(line), message)
}

/// Collects warnings and remembers which unique keys a block has seen.
struct Checker<'w> {
    warnings: &'w mut Vec<Diagnostic>,
    seen: Vec<String>,
    block: String,
}

impl<'w> Checker<'w> {
    fn new(warnings: &'w mut Vec<Diagnostic>, block: &Block) -> Self {
        Checker {
            warnings,
            seen: Vec::new(),
            block: describe(block.kind, block.name),
        }
    }

    fn warn(&mut self, line: u32, message: impl Into<String>) {
        self.warnings
            .push(Diagnostic::warning(Location::Line(line), message));
    }

    /// Whether this unique key is seen for the first time (warns on repeats).
    fn first(&mut self, p: &Property) -> bool {
        let key = p.key.to_ascii_lowercase();
        if self.seen.contains(&key) {
            let msg = format!(
                "{}: `{}` may appear only once; this repeat is ignored",
                self.block, p.key
            );
            self.warn(p.line, msg);
            return false;
        }
        self.seen.push(key);
        true
    }

    fn unknown(&mut self, p: &Property) {
        let msg = format!("{}: unknown property `{}` ignored", self.block, p.key);
        self.warn(p.line, msg);
    }

    fn has(&self, key: &str) -> bool {
        self.seen.iter().any(|k| k == key)
    }
}

/// The block's name, or a made-up one (with a warning) if the header has none.
fn block_name(block: &Block, warnings: &mut Vec<Diagnostic>) -> String {
    match block.name {
        Some(n) => n.to_string(),
        None => {
            let made = format!("{} at line {}", block.kind, block.line);
            warnings.push(Diagnostic::warning(
                Location::Line(block.line),
                format!("{} block has no name; calling it \"{made}\"", block.kind),
            ));
            made
        }
    }
}

fn fileinfo(block: &Block, warnings: &mut Vec<Diagnostic>) -> Result<FileInfo, LoadError> {
    if let Some(name) = block.name {
        warnings.push(Diagnostic::warning(
            Location::Line(block.line),
            format!("fileinfo takes no name; \"{name}\" ignored"),
        ));
    }
    let mut c = Checker::new(warnings, block);
    let mut fields = Vec::new();
    let mut formatversion = None;
    for p in &block.properties {
        if !c.first(p) {
            continue;
        }
        let value = values::string(p.value).map_err(|e| at(p.line, e, p.key))?;
        let key = p.key.to_ascii_lowercase();
        match key.as_str() {
            "formatversion" => {
                formatversion = Some(value.to_string());
                let parts: Vec<_> = value.split('.').map(str::parse::<u32>).collect();
                if parts.len() != 3 || parts.iter().any(Result::is_err) {
                    c.warn(
                        p.line,
                        format!("formatversion `{value}` is not major.minor.revision"),
                    );
                } else if parts[0] != Ok(1) {
                    c.warn(
                        p.line,
                        format!("formatversion {value}: only 1.x.x is known; reading it as 1.0.1"),
                    );
                }
            }
            "name" | "version" | "source" | "date" | "comments" => {}
            _ => c.unknown(p),
        }
        fields.push((p.key.to_string(), value.to_string()));
    }
    let formatversion = formatversion.ok_or_else(|| {
        err(
            ErrorKind::Missing,
            block.line,
            "fileinfo has no `formatversion` (it is required)",
        )
    })?;
    Ok(FileInfo {
        line: block.line,
        formatversion,
        fields,
    })
}

fn material(block: &Block, warnings: &mut Vec<Diagnostic>) -> Result<MaterialDef, LoadError> {
    let name = block_name(block, warnings);
    let mut c = Checker::new(warnings, block);
    let mut def = MaterialDef {
        name,
        line: block.line,
        colormap: None,
        bumpmap: None,
        opacitymap: None,
    };
    for p in &block.properties {
        let slot = match p.key.to_ascii_lowercase().as_str() {
            "colormap" => &mut def.colormap,
            "bumpmap" => &mut def.bumpmap,
            "opacitymap" => &mut def.opacitymap,
            _ => {
                c.unknown(p);
                continue;
            }
        };
        if c.first(p) {
            let path = values::string(p.value).map_err(|e| at(p.line, e, p.key))?;
            if path.trim().is_empty() {
                c.warn(p.line, format!("`{}` is empty; no texture", p.key));
            } else {
                *slot = Some(path.to_string());
            }
        }
    }
    Ok(def)
}

fn index(raw: i64, len: usize, label: &str, mesh: &str, line: u32) -> Result<u32, LoadError> {
    if raw >= 1 && (raw as u64) <= len as u64 {
        return Ok((raw - 1) as u32);
    }
    let key = &label[..1];
    Err(err(
        ErrorKind::IndexOutOfRange,
        line,
        format!(
            "face {label} index {raw} is out of range: {mesh} has {len} `{key}` line(s) (indices are 1-based)"
        ),
    ))
}

fn mesh(block: &Block, skin: bool, warnings: &mut Vec<Diagnostic>) -> Result<MeshDef, LoadError> {
    let name = block_name(block, warnings);
    let mut c = Checker::new(warnings, block);
    let mut def = MeshDef {
        name,
        line: block.line,
        skin,
        materials: Vec::new(),
        positions: Vec::new(),
        bones: Vec::new(),
        normals: Vec::new(),
        uvs: Vec::new(),
        faces: Vec::new(),
    };
    let mut raw_faces: Vec<(RawFace, u32)> = Vec::new();
    for p in &block.properties {
        let e = |e: ValueError| at(p.line, e, p.key);
        match p.key.to_ascii_lowercase().as_str() {
            "m" => {
                let m = values::string(p.value).map_err(e)?;
                def.materials.push((m.to_string(), p.line));
            }
            "v" if skin => {
                let (pos, bone) = values::skin_vertex(p.value).map_err(e)?;
                def.positions.push(pos);
                def.bones.push(bone);
            }
            "v" => def.positions.push(values::vec3(p.value).map_err(e)?),
            "n" => def.normals.push(values::vec3(p.value).map_err(e)?),
            "t" => def.uvs.push(values::vec2(p.value).map_err(e)?),
            "f" => raw_faces.push((values::face(p.value).map_err(e)?, p.line)),
            _ => c.unknown(p),
        }
    }
    let what = describe(block.kind, block.name);
    let counts = [
        ("vertex", def.positions.len()),
        ("texture", def.uvs.len()),
        ("normal", def.normals.len()),
    ];
    for (raw, line) in raw_faces {
        let mut out = [[0u32; 3]; 3];
        for ((o, idx), (label, len)) in out.iter_mut().zip([raw.v, raw.t, raw.n]).zip(counts) {
            for (slot, &i) in o.iter_mut().zip(&idx) {
                *slot = index(i, len, label, &what, line)?;
            }
        }
        let m = index(raw.m, def.materials.len(), "material", &what, line)?;
        def.faces.push(Face {
            line,
            v: out[0],
            t: out[1],
            n: out[2],
            m,
        });
    }
    Ok(def)
}

/// `position`, `rotation` (vec3) and `scale`-style numbers shared by instance and bone.
fn vec3_once(c: &mut Checker, p: &Property, slot: &mut [f64; 3]) -> Result<(), LoadError> {
    if c.first(p) {
        *slot = values::vec3(p.value).map_err(|e| at(p.line, e, p.key))?;
    }
    Ok(())
}

fn instance(block: &Block, warnings: &mut Vec<Diagnostic>) -> Result<InstanceDef, LoadError> {
    let name = block_name(block, warnings);
    let mut c = Checker::new(warnings, block);
    let mut def = InstanceDef {
        name,
        line: block.line,
        mesh: None,
        position: [0.0; 3],
        rotation: [0.0; 3],
        scale: 1.0,
    };
    for p in &block.properties {
        match p.key.to_ascii_lowercase().as_str() {
            "mesh" => {
                if c.first(p) {
                    let m = values::string(p.value).map_err(|e| at(p.line, e, p.key))?;
                    def.mesh = Some(m.to_string());
                }
            }
            "position" => vec3_once(&mut c, p, &mut def.position)?,
            "rotation" => vec3_once(&mut c, p, &mut def.rotation)?,
            "scale" => {
                if c.first(p) {
                    def.scale = values::scalar(p.value).map_err(|e| at(p.line, e, p.key))?;
                }
            }
            _ => c.unknown(p),
        }
    }
    for (key, default) in [
        ("position", "(0,0,0)"),
        ("rotation", "(0,0,0)"),
        ("scale", "1"),
    ] {
        if !c.has(key) {
            let msg = format!("{}: no `{key}`; using {default}", c.block);
            c.warn(block.line, msg);
        }
    }
    Ok(def)
}

fn bone(block: &Block, warnings: &mut Vec<Diagnostic>) -> Result<BoneDef, LoadError> {
    let name = block_name(block, warnings);
    let mut c = Checker::new(warnings, block);
    let mut def = BoneDef {
        name,
        line: block.line,
        position: [0.0; 3],
        rotation: [0.0; 3],
        extra: Vec::new(),
    };
    for p in &block.properties {
        match p.key.to_ascii_lowercase().as_str() {
            "position" => vec3_once(&mut c, p, &mut def.position)?,
            "rotation" => vec3_once(&mut c, p, &mut def.rotation)?,
            _ => def.extra.push((p.key.to_string(), p.value.to_string())),
        }
    }
    for key in ["position", "rotation"] {
        if !c.has(key) {
            let msg = format!("{}: no `{key}`; using (0,0,0)", c.block);
            c.warn(block.line, msg);
        }
    }
    Ok(def)
}

/// Types every block of `blocks`.
///
/// # Errors
/// A malformed value, a face index out of range ([`ErrorKind::IndexOutOfRange`]), no
/// `fileinfo` or no `formatversion` ([`ErrorKind::Missing`]), a second `fileinfo`
/// ([`ErrorKind::Invalid`]); each at its line.
pub(crate) fn type_blocks(blocks: &[Block]) -> Result<TpmFile, LoadError> {
    let mut warnings = Vec::new();
    let mut info: Option<FileInfo> = None;
    let (mut materials, mut meshes, mut instances, mut bones) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for block in blocks {
        match block.kind.to_ascii_lowercase().as_str() {
            "fileinfo" => {
                if let Some(first) = &info {
                    return Err(err(
                        ErrorKind::Invalid,
                        block.line,
                        format!(
                            "a second fileinfo block (the first is at line {}); a TPM file has exactly one",
                            first.line
                        ),
                    ));
                }
                info = Some(fileinfo(block, &mut warnings)?);
            }
            "material" => materials.push(material(block, &mut warnings)?),
            "mesh" => meshes.push(mesh(block, false, &mut warnings)?),
            "skin" => meshes.push(mesh(block, true, &mut warnings)?),
            "instance" => instances.push(instance(block, &mut warnings)?),
            "bone" => bones.push(bone(block, &mut warnings)?),
            _ => warnings.push(Diagnostic::warning(
                Location::Line(block.line),
                format!(
                    "unknown block type `{}` ({}); skipped",
                    block.kind,
                    describe(block.kind, block.name)
                ),
            )),
        }
    }
    let fileinfo = info.ok_or_else(|| {
        LoadError::new(
            ErrorKind::Missing,
            Location::Line(blocks.first().map_or(1, |b| b.line)),
            "no fileinfo block (a TPM file needs exactly one, with formatversion)",
        )
    })?;
    Ok(TpmFile {
        fileinfo,
        materials,
        meshes,
        instances,
        bones,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::tpm::grammar::parse_blocks;

    const HEAD: &str = "fileinfo\n{\nformatversion = 1.0.1\n}\n";

    fn typed(body: &str) -> Result<TpmFile, LoadError> {
        let text = format!("{HEAD}{body}");
        type_blocks(&parse_blocks(text.as_bytes())?)
    }

    #[test]
    fn spec_mesh_example() {
        let f = typed(
            "mesh \"Plane01\"\n{\n m = \"wood04\"\n m = \"stone03\"\n v = (-1.0,-0.5,0.0)\n v = (1.0,-0.5,0.0)\n v = (-1.0,0.5,0.0)\n v = (1.0,0.5,0.0)\n t = (0.0,0.0)\n t = (1.0,0.0)\n t = (0.0,1.0)\n t = (1.0,1.0)\n n = (0.0,0.0,1.0)\n f = (3,1,4),(3,1,4),(1,1,1),2\n f = (2,4,1),(2,4,1),(1,1,1),1\n}\n",
        )
        .unwrap();
        let m = &f.meshes[0];
        assert_eq!((m.positions.len(), m.uvs.len(), m.normals.len()), (4, 4, 1));
        assert_eq!(m.faces[0].v, [2, 0, 3]);
        assert_eq!((m.faces[0].m, m.faces[1].m), (1, 0));
        assert_eq!(m.faces[0].line, 18);
        assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    }

    #[test]
    fn errors_and_warnings_table() {
        let mesh = |extra: &str| {
            format!(
                "mesh \"M\"\n{{\nm = \"A\"\nv = (0,0,0)\nv = (1,0,0)\nv = (0,1,0)\nt = (0,0)\nn = (0,0,1)\n{extra}\n}}\n"
            )
        };
        // (case, body, Err(kind, line) or Ok(number of warnings))
        type Want = Result<usize, (ErrorKind, u32)>;
        let cases: Vec<(&str, String, Want)> = vec![
            ("good face", mesh("f = (1,2,3),(1,1,1),(1,1,1),1"), Ok(0)),
            ("index 0", mesh("f = (0,2,3),(1,1,1),(1,1,1),1"), Err((ErrorKind::IndexOutOfRange, 13))),
            ("vertex past end", mesh("f = (1,2,4),(1,1,1),(1,1,1),1"), Err((ErrorKind::IndexOutOfRange, 13))),
            ("uv past end", mesh("f = (1,2,3),(1,2,1),(1,1,1),1"), Err((ErrorKind::IndexOutOfRange, 13))),
            ("normal negative", mesh("f = (1,2,3),(1,1,1),(1,-1,1),1"), Err((ErrorKind::IndexOutOfRange, 13))),
            ("material past m list", mesh("f = (1,2,3),(1,1,1),(1,1,1),2"), Err((ErrorKind::IndexOutOfRange, 13))),
            ("two-component v", mesh("v = (1,2)"), Err((ErrorKind::BadValue, 13))),
            ("nan normal", mesh("n = (nan,0,1)"), Err((ErrorKind::NonFiniteFloat, 13))),
            ("unknown mesh key", mesh("q = (1,2,3)"), Ok(1)),
            (
                "instance defaults and unknown key",
                "instance \"I\"\n{\nmesh = \"M\"\ncolour = 1\n}\n".into(),
                Ok(4),
            ),
            (
                "repeated unique key",
                "instance \"I\"\n{\nmesh = \"M\"\nposition = (0,0,0)\nposition = (1,0,0)\nrotation = (0,0,0)\nscale = 1\n}\n".into(),
                Ok(1),
            ),
            (
                "inf scale",
                "instance \"I\"\n{\nmesh = \"M\"\nscale = inf\n}\n".into(),
                Err((ErrorKind::NonFiniteFloat, 8)),
            ),
            ("unknown block", "light \"Sun\"\n{\ncolour = (1,1,1)\n}\n".into(), Ok(1)),
            (
                "bone extras are no warning",
                "bone \"$JA00\"\n{\nposition = (0,0,0)\nrotation = (0,0,0)\nAnim00 = 7\nRatio = 0.5\n}\n".into(),
                Ok(0),
            ),
            ("second fileinfo", HEAD.into(), Err((ErrorKind::Invalid, 5))),
            (
                "skin v without bone",
                "skin \"S\"\n{\nv = (0,0,0)\n}\n".into(),
                Err((ErrorKind::BadValue, 7)),
            ),
        ];
        for (what, body, want) in cases {
            let got = typed(&body)
                .map(|f| f.warnings.len())
                .map_err(|e| match e.location {
                    Location::Line(l) => (e.kind, l),
                    _ => (e.kind, 0),
                });
            assert_eq!(got, want, "{what}");
        }
    }

    #[test]
    fn fileinfo_rules() {
        let run = |t: &str| parse_blocks(t.as_bytes()).and_then(|b| type_blocks(&b));
        assert_eq!(run("").map_err(|e| e.kind).err(), Some(ErrorKind::Missing));
        assert_eq!(
            run("fileinfo\n{\nname = \"x\"\n}\n")
                .map_err(|e| e.kind)
                .err(),
            Some(ErrorKind::Missing)
        );
        let f = run("fileinfo\n{\n formatversion = 1.0.1\n name = \"NewRaptor.max\"\n date = 7/2/2007 6:03:23 PM\n}\n").unwrap();
        assert_eq!(f.fileinfo.formatversion, "1.0.1");
        assert_eq!(
            f.fileinfo.fields[1..],
            [
                ("name".to_string(), "NewRaptor.max".to_string()),
                ("date".to_string(), "7/2/2007 6:03:23 PM".to_string())
            ]
        );
    }
}
