// Model shading as Warzone 2100 draws it, for every format:
//   lit = texture × (ambient + diffuse · max(n·l, 0)) + specular
//   out = encode_srgb(lit) + (team − 0.5) × tcmask.a        (the game's "grain merge",
//                                                             done in gamma space as the game does)
// A mesh or node with baked light (a map's terrain: the game's lightmap; a map's objects:
// the brightness the game gives them) takes no light of the scene:
//   out = (encode_srgb(texture) + (team − 0.5) × tcmask.a) × light,
// the product in the encoding as the game's terrain and tcmask shaders take it.
// Lighting happens in linear space (colour textures are *Srgb formats, so sampling decodes);
// the fragment shader encodes to sRGB itself because the target is Rgba8Unorm holding sRGB
// bytes (what egui-wgpu shows and PNGs hold; an *Srgb view of it would need VIEW_FORMATS,
// which the GL backend lacks). With an *Srgb target set ENCODE_SRGB = 0.

// 1.0: write sRGB-encoded values (Unorm target); 0.0: write linear values (Srgb target).
override ENCODE_SRGB: f32 = 1.0;
// Which optional maps the material has (pipeline constants, so a plain textured model
// samples one texture, not five: software rasterizers pay for every sample).
override HAS_TCMASK: bool = true;
override HAS_NORMAL_MAP: bool = true;
override HAS_SPECULAR_MAP: bool = true;
override HAS_OPACITY_MAP: bool = true;
override HAS_SHADE_MAP: bool = true;
// Whether the draws of this pipeline deform their points by a skin's joints: the static
// ones leave the joint blend out (on a CPU rasteriser the vertex work is much of a frame).
override SKINNED: bool = true;

// Group 0: per frame.
struct Frame {
    view_proj: mat4x4<f32>,
    // xyz: eye position (world).
    eye: vec4<f32>,
    // xyz: unit vector towards the light (world).
    light_dir: vec4<f32>,
    // x: ambient, y: diffuse, z: specular strength.
    light: vec4<f32>,
    // rgb: team colour, sRGB-encoded 0..1.
    team: vec4<f32>,
    // x: colour mode (0 textured, 1 per node, 2 by joint).
    mode: vec4<u32>,
    // rgb: fog colour (sRGB-encoded 0..1), w: 1 with fog.
    fog: vec4<f32>,
    // x: fog begin, y: fog end (depth in front of the eye), z: scene time in seconds.
    fog_range: vec4<f32>,
    // xyz: unit view direction.
    view_dir: vec4<f32>,
};

// Group 1: per material (written once in set_model).
struct Material {
    // Linear RGBA multiplied with the base texture.
    base_color: vec4<f32>,
    // x: has tcmask, y: has normal map, z: has specular map,
    // w: opacity source (0 none, 1 alpha, 2 red, 3 luminance).
    flags: vec4<u32>,
    // x: blend mode (0 opaque, 1 alpha test, 2 additive, 3 premultiplied, 4 alpha blend,
    // 5 multiply).
    mode: vec4<u32>,
    // xy: UV set 0's scroll in UV units per second; z: 1 with a shade map.
    scroll: vec4<f32>,
};

// Group 2: per draw (dynamic offset) and per skin (dynamic offset). A call draws up to
// INSTANCES instances of one mesh and material (the copies of one model on a map), each
// instance its own Draw of the array (draw_runs.rs); a single draw is instance 0.
struct Draw {
    model: mat4x4<f32>,
    // xy: texture-frame UV offset for animated corners; z: 1 = skinned, -1 = hidden (its
    // node is, among instances that are shown); w: the node's baked light (0 = none),
    // used where the vertex has none.
    extra: vec4<f32>,
    // Linear colour of the draw's node (colour mode 1).
    node_colour: vec4<f32>,
    // rgb: the node's own team colour (sRGB-encoded 0..1) when w is 1, else the frame's.
    team: vec4<f32>,
};

// Draws per instanced call (draw_runs::INSTANCES): 64 × 112 bytes, within the 16 KiB
// uniform binding every device takes.
const INSTANCES: u32 = 64u;

const MAX_JOINTS: u32 = 256u;

struct Joints {
    m: array<mat4x4<f32>, MAX_JOINTS>,
};

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var samp: sampler;

@group(1) @binding(0) var<uniform> material: Material;
@group(1) @binding(1) var base_tex: texture_2d<f32>;
@group(1) @binding(2) var tcmask_tex: texture_2d<f32>;
@group(1) @binding(3) var normal_tex: texture_2d<f32>;
@group(1) @binding(4) var specular_tex: texture_2d<f32>;
@group(1) @binding(5) var opacity_tex: texture_2d<f32>;
// Its red multiplies the colour, read with UV set 1.
@group(1) @binding(6) var shade_tex: texture_2d<f32>;

@group(2) @binding(0) var<uniform> draws: array<Draw, INSTANCES>;
@group(2) @binding(1) var<uniform> joints: Joints;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    // 1.0 when the texture-frame animation offsets this corner's UV.
    @location(3) animated: f32,
    @location(4) joint_ids: vec4<u32>,
    @location(5) weights: vec4<f32>,
    // Linear colour of the dominant joint (colour mode 2).
    @location(6) joint_colour: vec4<f32>,
    // Opacity of the point (1 unless the mesh sets one), multiplied into the alpha: an
    // additive layer adds colour × α, so splatted layers whose opacities sum to 1 blend.
    @location(7) alpha: f32,
    @location(8) uv2: vec2<f32>,
    // Baked light (0–1, sRGB-encoded) multiplying the encoded colour instead of the
    // scene's lighting; negative: none.
    @location(9) light: f32,
};

struct VertexOut {
    // Invariant: the terrain's additive layers are drawn over a depth pre-pass of the same
    // points with depth test "less or equal", so every pipeline must compute the same depth.
    @builtin(position) @invariant clip: vec4<f32>,
    @location(0) world_pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) joint_colour: vec3<f32>,
    @location(4) alpha: f32,
    @location(5) uv2: vec2<f32>,
    @location(6) light: f32,
    // The instance's node: rgb its colour in colour mode 1, a its baked light (0 = none).
    @location(7) @interpolate(flat) node: vec4<f32>,
    // The instance's team colour (rgb) when a is 1, else the frame's.
    @location(8) @interpolate(flat) team: vec4<f32>,
};

// The matrix that carries normals with `m`'s upper 3×3: its inverse transpose, from the
// cofactors (each column the cross product of the other two) over the determinant; the
// identity where `m` has none (a scale of 0).
fn normal_matrix(m: mat4x4<f32>) -> mat3x3<f32> {
    let a = m[0].xyz;
    let b = m[1].xyz;
    let c = m[2].xyz;
    let cofactors = mat3x3<f32>(cross(b, c), cross(c, a), cross(a, b));
    let det = dot(a, cross(b, c));
    if abs(det) < 1e-30 {
        return mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
    }
    return cofactors * (1.0 / det);
}

fn joint(i: u32) -> mat4x4<f32> {
    return joints.m[min(i, MAX_JOINTS - 1u)];
}

@vertex
fn vs_main(v: VertexIn, @builtin(instance_index) instance: u32) -> VertexOut {
    let draw = draws[min(instance, INSTANCES - 1u)];
    var out: VertexOut;
    if draw.extra.z < -0.5 {
        // Hidden: outside the view, so its triangles are clipped.
        out.clip = vec4<f32>(2.0, 2.0, 2.0, 1.0);
        return out;
    }
    let p = vec4<f32>(v.position, 1.0);
    var world: vec4<f32>;
    var n: vec3<f32>;
    let total = v.weights.x + v.weights.y + v.weights.z + v.weights.w;
    if SKINNED && draw.extra.z > 0.5 && total > 1e-4 {
        // Linear blend skinning: joint matrices map model space to posed model space.
        let skin = joint(v.joint_ids.x) * v.weights.x + joint(v.joint_ids.y) * v.weights.y
            + joint(v.joint_ids.z) * v.weights.z + joint(v.joint_ids.w) * v.weights.w;
        world = skin * p;
        n = (skin * vec4<f32>(v.normal, 0.0)).xyz;
    } else {
        world = draw.model * p;
        n = normal_matrix(draw.model) * v.normal;
    }
    out.clip = frame.view_proj * world;
    out.world_pos = world.xyz / world.w;
    out.normal = n;
    out.uv = v.uv + draw.extra.xy * v.animated + material.scroll.xy * frame.fog_range.z;
    out.uv2 = v.uv2;
    out.joint_colour = v.joint_colour.rgb;
    out.alpha = v.alpha;
    out.light = v.light;
    out.node = vec4<f32>(draw.node_colour.rgb, draw.extra.w);
    out.team = draw.team;
    return out;
}

fn srgb_encode(c: vec3<f32>) -> vec3<f32> {
    let c1 = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    let lo = c1 * 12.92;
    let hi = 1.055 * pow(c1, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(hi, lo, c1 <= vec3<f32>(0.0031308));
}

fn srgb_decode(c: vec3<f32>) -> vec3<f32> {
    let lo = c / 12.92;
    let hi = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(hi, lo, c <= vec3<f32>(0.04045));
}

// Tangent frame from screen-space derivatives (no per-vertex tangents needed).
// UV v runs down the image; normal maps are green-up (OpenGL), hence the minus on b.
fn perturb(n: vec3<f32>, dp1: vec3<f32>, dp2: vec3<f32>, duv1: vec2<f32>, duv2: vec2<f32>, m: vec3<f32>) -> vec3<f32> {
    let dp2perp = cross(dp2, n);
    let dp1perp = cross(n, dp1);
    let t = dp2perp * duv1.x + dp1perp * duv2.x;
    let b = -(dp2perp * duv1.y + dp1perp * duv2.y);
    let len2 = max(dot(t, t), dot(b, b));
    if len2 < 1e-20 {
        return n;
    }
    let inv = inverseSqrt(len2);
    let tn = t * inv * m.x + b * inv * m.y + n * m.z;
    return normalize(tn);
}

// Linear fog by depth in front of the eye, mixed in the sRGB encoding (as the game mixes).
// What a fragment fades to depends on how it blends, so that what the pixel ends up as
// fades to the fog colour: an additive layer fades to black (adds nothing; the opaque
// pre-pass under it carries the fog), a premultiplied one to the fog times its alpha, a
// multiplying one to white (changes nothing), the others to the fog colour.
fn fogged(rgb: vec3<f32>, alpha: f32, mode: u32, world_pos: vec3<f32>) -> vec3<f32> {
    let depth = dot(world_pos - frame.eye.xyz, frame.view_dir.xyz);
    let span = max(frame.fog_range.y - frame.fog_range.x, 1e-3);
    let f = clamp((depth - frame.fog_range.x) / span, 0.0, 1.0);
    var toward = frame.fog.rgb;
    if mode == 2u {
        toward = vec3<f32>(0.0);
    } else if mode == 3u {
        toward = frame.fog.rgb * alpha;
    } else if mode == 5u {
        toward = vec3<f32>(1.0);
    }
    return mix(rgb, toward, f);
}

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    // Every sample and derivative first, in uniform control flow (the HAS_* constants are
    // pipeline constants, hence uniform).
    let base_s = textureSample(base_tex, samp, in.uv);
    var mask = 0.0;
    if HAS_TCMASK {
        mask = textureSample(tcmask_tex, samp, in.uv).a;
    }
    var nmap = vec3<f32>(0.5, 0.5, 1.0);
    var dp1 = vec3<f32>(0.0);
    var dp2 = vec3<f32>(0.0);
    var duv1 = vec2<f32>(0.0);
    var duv2 = vec2<f32>(0.0);
    if HAS_NORMAL_MAP {
        nmap = textureSample(normal_tex, samp, in.uv).rgb;
        dp1 = dpdx(in.world_pos);
        dp2 = dpdy(in.world_pos);
        duv1 = dpdx(in.uv);
        duv2 = dpdy(in.uv);
    }
    var spec_map = vec3<f32>(0.0);
    if HAS_SPECULAR_MAP {
        spec_map = textureSample(specular_tex, samp, in.uv).rgb;
    }
    var opac = vec4<f32>(1.0);
    if HAS_OPACITY_MAP {
        opac = textureSample(opacity_tex, samp, in.uv);
    }
    var shade = 1.0;
    if HAS_SHADE_MAP {
        shade = textureSample(shade_tex, samp, in.uv2).r;
    }

    var base = base_s * material.base_color;
    base = vec4<f32>(base.rgb * shade, base.a);
    base.a = base.a * in.alpha;
    // Colour modes replace the colour, keep the alpha (cut-outs still cut).
    let colour_mode = frame.mode.x;
    if colour_mode == 1u {
        base = vec4<f32>(in.node.rgb, base.a);
    } else if colour_mode == 2u {
        base = vec4<f32>(in.joint_colour, base.a);
    }
    switch material.flags.w {
        case 1u: { base.a = base.a * opac.a; }
        case 2u: { base.a = base.a * opac.r; }
        case 3u: { base.a = base.a * dot(opac.rgb, vec3<f32>(0.2126, 0.7152, 0.0722)); }
        default: {}
    }
    let mode = material.mode.x;
    if mode == 1u && base.a < 0.5 {
        discard;
    }
    // Alpha blending writes depth (as Warzone 2100 draws ordinary models): fully
    // transparent texels must not hide what is behind them.
    if mode == 4u && base.a < 1.0 / 255.0 {
        discard;
    }

    var n = normalize(in.normal);
    if length(in.normal) < 1e-6 {
        // Degenerate triangle or unset normal: shade as facing the viewer.
        n = normalize(frame.eye.xyz - in.world_pos);
    }
    if !front {
        n = -n;
    }
    if HAS_NORMAL_MAP && material.flags.y != 0u {
        n = perturb(n, dp1, dp2, duv1, duv2, nmap * 2.0 - 1.0);
    }
    let l = frame.light_dir.xyz;
    let diffuse = max(dot(n, l), 0.0);
    var lit = base.rgb * (frame.light.x + frame.light.y * diffuse);
    if mode == 5u {
        // Multiplying (water over its bed): unlit, as the game draws it.
        lit = base.rgb;
    }
    if HAS_SPECULAR_MAP && material.flags.z != 0u && colour_mode == 0u {
        // Gaussian specular lobe around the half vector (the game's specular-map path).
        let v = normalize(frame.eye.xyz - in.world_pos);
        let h = normalize(l + v);
        let angle = acos(clamp(dot(n, h), -1.0, 1.0));
        let g = exp(-(angle * angle) / (0.3 * 0.3));
        lit = lit + spec_map * (frame.light.z * g);
    }

    // Baked light: the vertex's, else the node's; negative or 0: none.
    var baked = in.light;
    if baked < 0.0 && in.node.a > 0.0 {
        baked = in.node.a;
    }
    let is_baked = baked >= 0.0 && mode != 5u;
    // Baked: nothing of the scene's light, the texture's colour as it is encoded.
    var rgb = srgb_encode(select(lit, base.rgb, is_baked));
    if HAS_TCMASK && material.flags.x != 0u && colour_mode == 0u {
        let team = select(frame.team.rgb, in.team.rgb, in.team.w > 0.5);
        rgb = clamp(rgb + (team - 0.5) * mask, vec3<f32>(0.0), vec3<f32>(1.0));
    }
    if is_baked {
        rgb = rgb * baked;
    }
    if frame.fog.w > 0.5 {
        rgb = fogged(rgb, base.a, mode, in.world_pos);
    }
    if ENCODE_SRGB < 0.5 {
        rgb = srgb_decode(rgb);
    }
    var alpha = base.a;
    if mode <= 1u {
        alpha = 1.0;
    }
    return vec4<f32>(rgb, alpha);
}
