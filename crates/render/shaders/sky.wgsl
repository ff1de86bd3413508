// The sky box (a model's `Environment::sky`): drawn first, around the eye, without depth,
// so everything else covers it. Texture colours are sampled linear (an *Srgb texture),
// encoded to sRGB, then mixed with the fog band in that encoding (as the game mixes).

override ENCODE_SRGB: f32 = 1.0;

struct Sky {
    // Unit box → clip: projection · view rotation · lift · turn · scale.
    box_to_clip: mat4x4<f32>,
    // rgb: fog colour (sRGB 0..1); w: 1 with fog.
    fog: vec4<f32>,
    // x: unit height below which the fog colour covers the sky, y: below which black.
    bands: vec4<f32>,
};

@group(0) @binding(0) var<uniform> sky: Sky;
@group(0) @binding(1) var samp: sampler;
@group(0) @binding(2) var tex: texture_2d<f32>;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    // rgb: the band's colour, a: how much of it covers the texture.
    @location(1) band: vec4<f32>,
};

@vertex
fn vs_sky(@location(0) position: vec3<f32>, @location(1) uv: vec2<f32>) -> VertexOut {
    var out: VertexOut;
    out.clip = sky.box_to_clip * vec4<f32>(position, 1.0);
    out.uv = uv;
    out.band = vec4<f32>(0.0);
    if sky.fog.w > 0.5 {
        if position.y < sky.bands.y {
            out.band = vec4<f32>(0.0, 0.0, 0.0, 1.0);
        } else if position.y < sky.bands.x {
            out.band = vec4<f32>(sky.fog.rgb, 1.0);
        } else {
            out.band = vec4<f32>(sky.fog.rgb, 0.0);
        }
    }
    return out;
}

fn encode(c: vec3<f32>) -> vec3<f32> {
    let c1 = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    return select(1.055 * pow(c1, vec3<f32>(1.0 / 2.4)) - 0.055, c1 * 12.92, c1 <= vec3<f32>(0.0031308));
}

fn decode(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

@fragment
fn fs_sky(in: VertexOut) -> @location(0) vec4<f32> {
    let t = textureSample(tex, samp, in.uv);
    var rgb = mix(encode(t.rgb), in.band.rgb, in.band.a);
    if ENCODE_SRGB < 0.5 {
        rgb = decode(rgb);
    }
    return vec4<f32>(rgb, 1.0);
}
