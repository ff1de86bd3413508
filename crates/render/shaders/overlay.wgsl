// Overlays: screen-width line segments (one instance = one segment, expanded to a quad
// of 6 vertices here) and the translucent selection tint (plain triangles).
// Colours arrive sRGB-encoded with straight alpha; the target holds sRGB bytes
// (Rgba8Unorm), so they are written as they are unless ENCODE_SRGB = 0 (an *Srgb target).

override ENCODE_SRGB: f32 = 1.0;

struct Frame {
    view_proj: mat4x4<f32>,
    // xyz: eye position (model space).
    eye: vec4<f32>,
    // xy: viewport size in pixels.
    viewport: vec4<f32>,
};

@group(0) @binding(0) var<uniform> frame: Frame;

struct SegmentIn {
    // xyz model space, w = 1; w = 0: xy is a pixel position.
    @location(0) a: vec4<f32>,
    @location(1) b: vec4<f32>,
    // Pixel offsets (y down): xy for a, zw for b.
    @location(2) offset: vec4<f32>,
    @location(3) color: vec4<f32>,
    // x: width px, y: pull towards the eye, z: 1 = on top of everything.
    @location(4) style: vec4<f32>,
};

struct Out {
    @builtin(position) pos: vec4<f32>,
    @location(0) color: vec4<f32>,
};

fn to_clip(p: vec4<f32>, bias: f32) -> vec4<f32> {
    if p.w < 0.5 {
        let ndc = vec2<f32>(p.x / frame.viewport.x * 2.0 - 1.0, 1.0 - p.y / frame.viewport.y * 2.0);
        return vec4<f32>(ndc, 0.0, 1.0);
    }
    let q = p.xyz + (frame.eye.xyz - p.xyz) * bias;
    return frame.view_proj * vec4<f32>(q, 1.0);
}

fn out_colour(c: vec4<f32>) -> vec4<f32> {
    var rgb = c.rgb;
    if ENCODE_SRGB < 0.5 {
        let lo = rgb / 12.92;
        let hi = pow((rgb + 0.055) / 1.055, vec3<f32>(2.4));
        rgb = select(hi, lo, rgb <= vec3<f32>(0.04045));
    }
    return vec4<f32>(rgb, c.a);
}

@vertex
fn vs_segment(@builtin(vertex_index) vi: u32, s: SegmentIn) -> Out {
    // x: 0 = end a, 1 = end b; y: side of the line.
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(0.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(0.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(0.0, 1.0),
    );
    let c = corners[vi % 6u];
    var out: Out;
    out.color = out_colour(s.color);
    var ca = to_clip(s.a, s.style.y);
    var cb = to_clip(s.b, s.style.y);
    let eps = 1e-5;
    if ca.w < eps && cb.w < eps {
        // Wholly behind the eye: a degenerate point outside the view.
        out.pos = vec4<f32>(2.0, 2.0, 2.0, 1.0);
        return out;
    }
    // Clip to the plane just in front of the eye.
    if ca.w < eps {
        ca = mix(ca, cb, (eps - ca.w) / (cb.w - ca.w));
    }
    if cb.w < eps {
        cb = mix(cb, ca, (eps - cb.w) / (ca.w - cb.w));
    }
    let px = 2.0 / frame.viewport.xy;
    let flip = vec2<f32>(px.x, -px.y);
    let na = ca.xy / ca.w + s.offset.xy * flip;
    let nb = cb.xy / cb.w + s.offset.zw * flip;
    let d = (nb - na) / px;
    var dir = vec2<f32>(1.0, 0.0);
    if length(d) > 1e-6 {
        dir = normalize(d);
    }
    let normal = vec2<f32>(-dir.y, dir.x);
    let half_width = s.style.x * 0.5;
    // Square caps: each end reaches half a width past its point (a zero-length segment
    // becomes a width × width square: a dot).
    let along = dir * (c.x * 2.0 - 1.0) * half_width;
    let side = normal * c.y * half_width;
    let ndc = mix(na, nb, c.x) + (along + side) * px;
    var depth = mix(ca.z / ca.w, cb.z / cb.w, c.x);
    if s.style.z > 0.5 {
        depth = 0.0;
    }
    out.pos = vec4<f32>(ndc, clamp(depth, 0.0, 1.0), 1.0);
    return out;
}

// The selection tint: posed triangles in model space, pulled slightly towards the eye.
struct FillIn {
    @location(0) position: vec3<f32>,
};

struct Fill {
    color: vec4<f32>,
};

@group(0) @binding(1) var<uniform> fill: Fill;

@vertex
fn vs_fill(v: FillIn) -> Out {
    var out: Out;
    out.pos = to_clip(vec4<f32>(v.position, 1.0), 0.001);
    out.color = out_colour(fill.color);
    return out;
}

@fragment
fn fs_main(in: Out) -> @location(0) vec4<f32> {
    return in.color;
}
