// A scene's shadow volumes (`crate::stencil_shadows`): `vs_volume` draws the volumes'
// quads into the stencil only (front faces count up, back faces down, where they pass
// the depth test); `vs_darken` then covers the screen with one triangle, drawn where the
// stencil is not 0, black at alpha `darkness` over what is there.

struct Shadow {
    view_proj: mat4x4<f32>,
    // x: how much a shadow takes from the colour (0..1).
    darkness: vec4<f32>,
}

@group(0) @binding(0) var<uniform> shadow: Shadow;

// A volume's corner in its mesh's space, drawn at its caster's matrix (columns 1-4).
@vertex
fn vs_volume(
    @location(0) position: vec3<f32>,
    @location(1) c0: vec4<f32>,
    @location(2) c1: vec4<f32>,
    @location(3) c2: vec4<f32>,
    @location(4) c3: vec4<f32>,
) -> @builtin(position) vec4<f32> {
    let world = mat4x4<f32>(c0, c1, c2, c3) * vec4<f32>(position, 1.0);
    return shadow.view_proj * world;
}

@fragment
fn fs_volume() -> @location(0) vec4<f32> {
    // Nothing is written: the pipeline's colour write mask is empty.
    return vec4<f32>(0.0);
}

@vertex
fn vs_darken(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // One triangle over the whole screen: (-1,-1), (3,-1), (-1,3).
    let x = f32(i32(i & 1u) * 4 - 1);
    let y = f32(i32(i >> 1u) * 4 - 1);
    return vec4<f32>(x, y, 0.0, 1.0);
}

@fragment
fn fs_darken() -> @location(0) vec4<f32> {
    return vec4<f32>(0.0, 0.0, 0.0, shadow.darkness.x);
}
