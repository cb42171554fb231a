/* SPDX-License-Identifier: MIT */
// The curl map of mesh/curl.c (mesh_curl_point, where the maths is explained), in float: a
// generalised cone S = P0 + w T(sigma) + P(sigma) whose frame (t, T, N) turns piece by piece
// (ramp steps, the hold at 1/r, flat after) about a fixed axis per piece. The frame at the start
// of every piece comes precomputed per pose (CurlSegments, from mesh_curl_segments): a vertex
// takes one closed-form step from the start of its piece, as the CPU does. The includer declares
// the buffer `curl_tables` of CurlSegments.
struct CurlFrame {
    vec3 T, t, N, P;
};

CurlFrame curl_frame_step(CurlFrame f, float theta, float h, float kappa)
{
    float kh = kappa * h;
    float phi2 = theta * theta + kh * kh, a, b;
    if (phi2 < 1e-3) { // the series is exact to float rounding here; sin/cos would cancel
        a = 1.0 - phi2 / 6.0 + phi2 * phi2 / 120.0;
        b = 0.5 - phi2 / 24.0 + phi2 * phi2 / 720.0;
    } else {
        float phi = sqrt(phi2);
        a = sin(phi) / phi;
        b = (1.0 - cos(phi)) / phi2;
    }
    CurlFrame o;
    o.P = f.P + h * a * f.t + h * b * (theta * f.N - kh * f.T);
    o.T = (1.0 - kh * kh * b) * f.T + kh * a * f.t + theta * kh * b * f.N;
    o.t = (1.0 - phi2 * b) * f.t + a * (theta * f.N - kh * f.T);
    o.N = (1.0 - theta * theta * b) * f.N - theta * a * f.t + theta * kh * b * f.T;
    return o;
}

float curl_atanc(float z)
{
    return abs(z) < 1e-3 ? 1.0 - z * z / 3.0 : atan(z) / z;
}

vec3 curl_point(CurlParams c, uint table, vec2 p)
{
    vec2 n = c.fold.zw;
    vec2 d = vec2(-n.y, n.x);
    vec2 e = p - c.fold.xy;
    float u = dot(e, d), v = dot(e, n);
    if (!(v > 0.0))
        return vec3(p, 0.0);
    float k = c.shape.y;
    float x = 1.0 + k * u, y = k * v;
    float sigma = x > 0.0 ? v / x * curl_atanc(y / x) : atan(y, x) / k;
    float w = (2.0 * u + k * (u * u + v * v)) / (sqrt(x * x + y * y) + 1.0);
    // The piece holding sigma: the starts never decrease, so it is the last one at or below sigma.
    // Where the includer defines PC_CURL_BISECT (kernels for large pages, where throughput
    // counts), a binary search: 5 loads and compares instead of 17. Otherwise the number of later
    // starts at or below sigma, whose 17 loads are independent: a small page waits for one
    // dispatch's latency, which 5 dependent loads would lengthen. BENCHMARKS.md has both
    // measurements.
    int j = 0;
#ifdef PC_CURL_BISECT
    for (int step = 16; step > 0; step >>= 1)
        if (j + step < PC_CURL_SEGMENTS && sigma >= curl_tables[table].seg[j + step].T.w)
            j += step;
#else
    for (int q = 1; q < PC_CURL_SEGMENTS; q++)
        j += sigma >= curl_tables[table].seg[q].T.w ? 1 : 0;
#endif
    CurlSegment s = curl_tables[table].seg[j];
    float h = sigma - s.T.w, len = s.N.w;
    float theta = len > 0.0 && j + 1 < PC_CURL_SEGMENTS ? s.t.w * h / len : 0.0;
    CurlFrame f = curl_frame_step(CurlFrame(s.T.xyz, s.t.xyz, s.N.xyz, s.P.xyz), theta, h, k);
    return vec3(c.fold.xy, 0.0) + w * f.T + f.P;
}
