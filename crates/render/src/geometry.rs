//! A model's vertices and indices ([`MeshBuffers`]) in GPU buffers no larger than the
//! device takes (`max_buffer_size`: 256 MiB on lavapipe and in WebGL2 as wgpu asks for
//! them): cut between meshes, a buffer pair per run of meshes, each mesh's indices moved
//! to count from its run's first vertex. A model within one buffer is one pair, as
//! before; how the cut falls is a property of the buffers, not of the file format.
//!
//! Not drawn: a single mesh whose own vertices or indices are more than a buffer holds
//! (tens of millions of points); it is left out with a warning instead of failing the
//! device.

use super::mesh_buffers::MeshBuffers;
use super::uniforms::Vertex;
use std::ops::Range;

/// A run of meshes in one vertex buffer and one index buffer.
#[derive(Debug)]
pub(crate) struct GeometryChunk {
    /// The run's vertices.
    pub vertices: wgpu::Buffer,
    /// Its indices, counting from the run's first vertex.
    pub indices: wgpu::Buffer,
}

/// Where each mesh is drawn from.
#[derive(Debug, Default)]
pub(crate) struct Geometry {
    /// The buffer pairs.
    pub chunks: Vec<GeometryChunk>,
    /// Per mesh, its chunk and its first index there; `None` for a mesh no buffer can
    /// hold (not drawn).
    pub place: Vec<Option<(u32, u32)>>,
}

/// The meshes of each chunk (runs of mesh indices), and the meshes too large for one
/// buffer, for buffers of at most `limit` bytes.
pub(crate) fn plan(buffers: &MeshBuffers, limit: u64) -> (Vec<Range<usize>>, Vec<usize>) {
    let n = buffers.first_index.len();
    let vertex = std::mem::size_of::<Vertex>() as u64;
    let span = |i: usize| {
        let v_end = buffers.first_vertex.get(i + 1).copied();
        let i_end = buffers.first_index.get(i + 1).copied();
        let v = v_end.unwrap_or(buffers.vertices.len() as u32) - buffers.first_vertex[i];
        let x = i_end.unwrap_or(buffers.indices.len() as u32) - buffers.first_index[i];
        (u64::from(v) * vertex, u64::from(x) * 4)
    };
    let (mut chunks, mut too_big) = (Vec::new(), Vec::new());
    let (mut start, mut bytes) = (0usize, (0u64, 0u64));
    for i in 0..n {
        let (v, x) = span(i);
        if v > limit || x > limit {
            if start < i {
                chunks.push(start..i);
            }
            too_big.push(i);
            (start, bytes) = (i + 1, (0, 0));
            continue;
        }
        if start < i && (bytes.0 + v > limit || bytes.1 + x > limit) {
            chunks.push(start..i);
            (start, bytes) = (i, (0, 0));
        }
        bytes = (bytes.0 + v, bytes.1 + x);
    }
    if start < n {
        chunks.push(start..n);
    }
    (chunks, too_big)
}

/// Uploads `buffers` in chunks of at most `limit` bytes ([`plan`]); a warning for each
/// mesh left out.
pub(crate) fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffers: &MeshBuffers,
    limit: u64,
    warnings: &mut Vec<String>,
) -> Geometry {
    let (runs, too_big) = plan(buffers, limit);
    for m in too_big {
        warnings.push(format!(
            "mesh {m} is larger than one GPU buffer holds ({limit} bytes): not drawn"
        ));
    }
    let mut out = Geometry {
        chunks: Vec::with_capacity(runs.len()),
        place: vec![None; buffers.first_index.len()],
    };
    let end = |list: &[u32], i: usize, total: usize| list.get(i).map_or(total, |&x| x as usize);
    for meshes in runs {
        let v0 = buffers.first_vertex[meshes.start] as usize;
        let v1 = end(&buffers.first_vertex, meshes.end, buffers.vertices.len());
        let i0 = buffers.first_index[meshes.start] as usize;
        let i1 = end(&buffers.first_index, meshes.end, buffers.indices.len());
        let indices: Vec<u32> = buffers.indices[i0..i1]
            .iter()
            .map(|&i| i - v0 as u32)
            .collect();
        let chunk = out.chunks.len() as u32;
        for m in meshes {
            out.place[m] = Some((chunk, buffers.first_index[m] - i0 as u32));
        }
        let label = format!("vitrine model vertices {chunk}");
        let vertices = bytemuck::cast_slice(&buffers.vertices[v0..v1]);
        let usage = wgpu::BufferUsages::VERTEX;
        let vertices = super::gpu::buffer_with(device, queue, &label, vertices, usage);
        let label = format!("vitrine model indices {chunk}");
        let usage = wgpu::BufferUsages::INDEX;
        let bytes = bytemuck::cast_slice(&indices);
        let indices = super::gpu::buffer_with(device, queue, &label, bytes, usage);
        out.chunks.push(GeometryChunk { vertices, indices });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buffers of meshes with these vertex and index counts.
    fn buffers(meshes: &[(u32, u32)]) -> MeshBuffers {
        let mut b = MeshBuffers::default();
        for &(v, i) in meshes {
            b.first_vertex.push(b.vertices.len() as u32);
            b.first_index.push(b.indices.len() as u32);
            let base = b.vertices.len() as u32;
            b.vertices
                .extend((0..v).map(|_| <Vertex as bytemuck::Zeroable>::zeroed()));
            b.indices.extend((0..i).map(|k| base + k % v.max(1)));
        }
        b
    }

    #[test]
    fn cuts_between_meshes_and_leaves_out_what_no_buffer_holds() {
        let vertex = std::mem::size_of::<Vertex>() as u64;
        let b = buffers(&[(10, 30), (10, 30), (10, 30), (100, 30), (5, 9)]);
        // All in one buffer.
        let (runs, big) = plan(&b, 1 << 20);
        assert_eq!((runs.len(), runs[0].clone(), big), (1, 0..5, vec![]));
        // Room for two small meshes a buffer; the big one too big.
        let (runs, big) = plan(&b, 25 * vertex);
        assert_eq!(runs, [0..2, 2..3, 4..5]);
        assert_eq!(big, [3]);
        // The index buffer's limit counts too (100 indices are 400 bytes).
        let few_points = buffers(&[(1, 100), (1, 100)]);
        assert_eq!(plan(&few_points, 500), (vec![0..1, 1..2], vec![]));
    }
}
