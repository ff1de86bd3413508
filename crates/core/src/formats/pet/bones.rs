//! `BONE`: a u8 count (0 → a u16 count follows), then per bone a NUL-terminated name,
//! a parent id (u8; 255 = root; 0xFE → a u16 follows) and, except in `.apet`, a 4×3
//! local-to-parent matrix: 12 floats, rows X, Y, Z then the translation (Direct3D row
//! vectors), i.e. columns of the column-vector matrix. Version 1.3 adds one unknown
//! float after the matrix.
//!
//! Parents must be in range and acyclic. They normally precede their children; if not,
//! `BoneData::order` gives an order that does.

use super::Kind;
use super::sections::PetFile;
use super::strings;
use crate::formats::reader::Reader;
use crate::formats::{ErrorKind, LoadError};
use crate::model::Location;
use glam::{Mat4, Vec4};

/// One bone as stored (file axes).
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// Name.
    pub name: String,
    /// Parent bone (file index).
    pub parent: Option<usize>,
    /// Local-to-parent matrix (column-vector form, file axes); `None` in `.apet`.
    pub matrix: Option<Mat4>,
    /// The v1.3 unknown float.
    pub extra: Option<f32>,
    /// File offset of the record.
    pub offset: u64,
}

/// The parsed `BONE` section.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BoneData {
    /// Bones in file order.
    pub bones: Vec<Bone>,
    /// File indices in an order where every parent precedes its children (file order
    /// when the file already is).
    pub order: Vec<usize>,
}

impl BoneData {
    /// Model-space rest matrix of every bone (file axes): `model(parent) · local`.
    /// Bones without a matrix count as identity.
    pub(crate) fn model_matrices(&self) -> Vec<Mat4> {
        let mut out = vec![Mat4::IDENTITY; self.bones.len()];
        for &i in &self.order {
            let b = &self.bones[i];
            let local = b.matrix.unwrap_or(Mat4::IDENTITY);
            out[i] = match b.parent {
                Some(p) => out[p] * local,
                None => local,
            };
        }
        out
    }

    /// File index of the bone called `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }
}

/// A bone id: u8, 0xFE → a u16 follows; 0xFF (or 0xFFFF) = none.
pub(crate) fn read_id(
    r: &mut Reader<'_>,
    what: impl std::fmt::Display + Copy,
) -> Result<Option<u32>, LoadError> {
    match r.u8(what)? {
        0xFF => Ok(None),
        0xFE => match r.u16(format_args!("{what} (u16 after 0xFE)"))? {
            0xFFFF => Ok(None),
            v => Ok(Some(v as u32)),
        },
        v => Ok(Some(v as u32)),
    }
}

/// The 12 floats as a column-vector matrix.
pub(crate) fn matrix_from_rows(f: [f32; 12]) -> Mat4 {
    Mat4::from_cols(
        Vec4::new(f[0], f[1], f[2], 0.0),
        Vec4::new(f[3], f[4], f[5], 0.0),
        Vec4::new(f[6], f[7], f[8], 0.0),
        Vec4::new(f[9], f[10], f[11], 1.0),
    )
}

/// Parses a `BONE` payload.
pub(crate) fn parse(r: &mut Reader<'_>, file: &PetFile) -> Result<BoneData, LoadError> {
    let mut count = r.u8("BONE count")? as u64;
    if count == 0 {
        count = r.u16("BONE count (u16 after the 0 escape)")? as u64;
    }
    let has_matrix = file.kind != Kind::Apet;
    let extra = has_matrix && file.at_least(3);
    let min = 2 + if has_matrix { 48 } else { 0 } + if extra { 4 } else { 0 };
    let count = r.check_count(count, min, "BONE bones")?;
    let mut bones = Vec::with_capacity(count);
    let mut parent_at = Vec::with_capacity(count);
    for i in 0..count {
        let offset = r.offset();
        let name = strings::nul_terminated(r, &format!("bone {i} name"))?.text;
        parent_at.push(r.offset());
        let parent = read_id(r, &format!("bone {i} parent"))?.map(|p| p as usize);
        let matrix = if has_matrix {
            Some(matrix_from_rows(
                r.f32s::<12>(&format!("bone {i} ({name}) matrix"))?,
            ))
        } else {
            None
        };
        let extra = if extra {
            Some(r.f32(&format!("bone {i} v1.3 float"))?)
        } else {
            None
        };
        bones.push(Bone {
            name,
            parent,
            matrix,
            extra,
            offset,
        });
    }
    let order = hierarchy_order(&bones, &parent_at)?;
    Ok(BoneData { bones, order })
}

/// Checks parents (in range, no cycle) and returns a parents-first order.
fn hierarchy_order(bones: &[Bone], parent_at: &[u64]) -> Result<Vec<usize>, LoadError> {
    let n = bones.len();
    for (i, b) in bones.iter().enumerate() {
        if let Some(p) = b.parent
            && p >= n
        {
            return Err(LoadError::new(
                ErrorKind::IndexOutOfRange,
                Location::Offset(parent_at[i]),
                format!(
                    "bone {i} ({}) has parent {p}, but there are {n} bones",
                    b.name
                ),
            ));
        }
    }
    // Per bone: 0 = not seen, `start + 1` = on the chain walked from `start`,
    // PLACED = already in `order`.
    const PLACED: usize = usize::MAX;
    let mut state = vec![0usize; n];
    let mut order = Vec::with_capacity(n);
    let mut chain = Vec::new();
    for start in 0..n {
        chain.clear();
        let mut cur = Some(start);
        while let Some(c) = cur {
            if state[c] == PLACED {
                break;
            }
            if state[c] == start + 1 {
                return Err(LoadError::new(
                    ErrorKind::BoneCycle,
                    Location::Offset(parent_at[c]),
                    format!(
                        "bone {c} ({}) is its own ancestor: the parent chain from bone {start} \
                         loops",
                        bones[c].name
                    ),
                ));
            }
            state[c] = start + 1;
            chain.push(c);
            cur = bones[c].parent;
        }
        for &c in chain.iter().rev() {
            state[c] = PLACED;
            order.push(c);
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pet::sections::parse_file;
    use glam::Vec3;

    fn bone_bytes(name: &str, parent: &[u8], t: [f32; 3]) -> Vec<u8> {
        let mut v = name.as_bytes().to_vec();
        v.push(0);
        v.extend_from_slice(parent);
        for f in [
            1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, t[0], t[1], t[2],
        ] {
            v.extend_from_slice(&f32::to_le_bytes(f));
        }
        v
    }

    fn file_with(body: Vec<u8>) -> Vec<u8> {
        let mut v = b"BONE".to_vec();
        v.extend_from_slice(&(body.len() as u32).to_le_bytes());
        v.extend(body);
        v
    }

    #[test]
    fn hierarchy_table() {
        let mk = |parents: &[&[u8]]| {
            let mut body = vec![parents.len() as u8];
            for (i, p) in parents.iter().enumerate() {
                body.extend(bone_bytes(&format!("b{i}"), p, [0.0, 1.0, 0.0]));
            }
            file_with(body)
        };
        type Case = (&'static str, Vec<u8>, Result<Vec<usize>, ErrorKind>);
        let cases: &[Case] = &[
            ("chain", mk(&[&[255], &[0], &[1]]), Ok(vec![0, 1, 2])),
            ("child first", mk(&[&[1], &[255]]), Ok(vec![1, 0])),
            ("u16 parent", mk(&[&[255], &[0xFE, 0, 0]]), Ok(vec![0, 1])),
            (
                "out of range",
                mk(&[&[255], &[7]]),
                Err(ErrorKind::IndexOutOfRange),
            ),
            ("cycle", mk(&[&[1], &[0]]), Err(ErrorKind::BoneCycle)),
            ("self", mk(&[&[0]]), Err(ErrorKind::BoneCycle)),
        ];
        for (name, bytes, want) in cases {
            let got = parse_file(bytes, Kind::Pet)
                .map(|f| f.bones.unwrap().order)
                .map_err(|e| e.kind);
            assert_eq!(&got, want, "{name}");
        }
    }

    #[test]
    fn count_escape_and_model_matrices() {
        let mut body = vec![0, 2, 0];
        body.extend(bone_bytes("root", &[255], [0.0, 1.0, 0.0]));
        body.extend(bone_bytes("tip", &[0], [0.0, 0.5, 0.0]));
        let f = parse_file(&file_with(body), Kind::Pet).unwrap();
        let b = f.bones.unwrap();
        let m = b.model_matrices();
        assert!(
            m[1].transform_point3(Vec3::ZERO)
                .abs_diff_eq(Vec3::new(0.0, 1.5, 0.0), 1e-6)
        );
        // A claimed count far beyond the bytes is refused before allocating.
        let e = parse_file(&file_with(vec![0, 0xFF, 0xFF, b'x', 0]), Kind::Pet).unwrap_err();
        assert_eq!(e.kind, ErrorKind::CountTooLarge);
    }

    #[test]
    fn rows_are_basis_then_translation() {
        let m = matrix_from_rows([0., 1., 0., -1., 0., 0., 0., 0., 1., 5., 6., 7.]);
        assert!(
            m.transform_point3(Vec3::X)
                .abs_diff_eq(Vec3::new(5.0, 7.0, 7.0), 1e-6)
        );
    }
}
