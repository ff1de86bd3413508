// Shadows: casters are drawn depth-only from the light (an orthographic view along the
// light direction) into a shadow map; then a ground plane under the model darkens the
// pixels the map says are occluded ("shadow catcher": black with alpha, so it works on
// any background, transparent ones included).

struct Shadow {
    // Model space → light clip space (depth 0..1).
    light_view_proj: mat4x4<f32>,
    // Model space → camera clip space.
    view_proj: mat4x4<f32>,
    // xyz: centre of the ground quad; w: its half size.
    ground: vec4<f32>,
    // x: darkness (alpha of full shadow), y: one shadow-map texel in uv, z: depth bias.
    params: vec4<f32>,
};

@group(0) @binding(0) var<uniform> sh: Shadow;
@group(0) @binding(1) var shadow_map: texture_depth_2d;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;

@vertex
fn vs_caster(@location(0) p: vec3<f32>) -> @builtin(position) vec4<f32> {
    return sh.light_view_proj * vec4<f32>(p, 1.0);
}

struct GroundOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) world: vec3<f32>,
    // −1..1 across the quad.
    @location(1) local: vec2<f32>,
};

@vertex
fn vs_ground(@builtin(vertex_index) vi: u32) -> GroundOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0),
    );
    let c = corners[vi % 6u];
    let world = sh.ground.xyz + vec3<f32>(c.x, 0.0, c.y) * sh.ground.w;
    var out: GroundOut;
    out.pos = sh.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    out.local = c;
    return out;
}

@fragment
fn fs_ground(in: GroundOut) -> @location(0) vec4<f32> {
    let lp = sh.light_view_proj * vec4<f32>(in.world, 1.0);
    let ndc = lp.xyz / lp.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    let depth = min(ndc.z, 1.0) - sh.params.z;
    // 3 × 3 percentage-closer filtering.
    var lit = 0.0;
    for (var dy = -1; dy <= 1; dy = dy + 1) {
        for (var dx = -1; dx <= 1; dx = dx + 1) {
            let o = vec2<f32>(f32(dx), f32(dy)) * sh.params.y;
            lit = lit + textureSampleCompareLevel(shadow_map, shadow_sampler, uv + o, depth);
        }
    }
    lit = lit / 9.0;
    // Outside the map nothing casts.
    let inside = all(uv >= vec2<f32>(0.0)) && all(uv <= vec2<f32>(1.0));
    lit = select(1.0, lit, inside);
    // Fade out towards the quad's rim.
    let fade = 1.0 - smoothstep(0.7, 1.0, length(in.local));
    return vec4<f32>(0.0, 0.0, 0.0, sh.params.x * (1.0 - lit) * fade);
}
