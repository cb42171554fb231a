// The curl map of mesh/curl.c (mesh_curl_point, where the maths is explained), in float: a
// generalised cone S = P0 + w T(sigma) + P(sigma) whose frame (t, T, N) turns piece by piece
// (ramp steps, the hold at 1/r, flat after) about a fixed axis per piece. Same pieces, same closed
// forms and the same order of operations as the CPU, so the two agree to float rounding.
const float CURL_PI = 3.14159265358979;
const int CURL_SEGMENTS = 2 * PC_CURL_RAMP_STEPS + 2;

struct CurlFrame {
    vec3 T, t, N, P;
};

void curl_segment(float r, float ramp, int j, out float theta, out float len)
{
    const int n = PC_CURL_RAMP_STEPS;
    if (j == 2 * n + 1) {
        theta = 0.0;
        len = 3.0e38;
    } else if (j == n) {
        len = max(0.0, CURL_PI * r - ramp);
        theta = CURL_PI - (ramp > 0.0 ? ramp / r : 0.0);
    } else {
        int i = j < n ? j : 2 * n - j;
        len = ramp > 0.0 ? ramp / float(n) : 0.0;
        theta = ramp > 0.0 ? (float(i) + 0.5) * ramp / (float(n * n) * r) : 0.0;
    }
}

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

vec3 curl_point(CurlParams c, vec2 p)
{
    vec2 n = c.fold.zw;
    vec2 d = vec2(-n.y, n.x);
    vec2 e = p - c.fold.xy;
    float u = dot(e, d), v = dot(e, n);
    if (!(v > 0.0))
        return vec3(p, 0.0);
    float r = max(c.shape.x, 0.0), k = c.shape.y;
    float ramp = c.shape.z > 0.0 ? min(c.shape.z, CURL_PI * r) : 0.0;
    float x = 1.0 + k * u, y = k * v;
    float sigma = x > 0.0 ? v / x * curl_atanc(y / x) : atan(y, x) / k;
    float w = (2.0 * u + k * (u * u + v * v)) / (sqrt(x * x + y * y) + 1.0);
    CurlFrame f = CurlFrame(vec3(d, 0.0), vec3(n, 0.0), vec3(0.0, 0.0, 1.0), vec3(0.0));
    float start = 0.0;
    for (int j = 0; j < CURL_SEGMENTS; j++) {
        float theta, len;
        curl_segment(r, ramp, j, theta, len);
        if (j + 1 == CURL_SEGMENTS || sigma < start + len) {
            float h = sigma - start;
            float th = len > 0.0 && j + 1 < CURL_SEGMENTS ? theta * h / len : 0.0;
            f = curl_frame_step(f, th, h, k);
            break;
        }
        f = curl_frame_step(f, theta, len, k);
        start += len;
    }
    return vec3(c.fold.xy, 0.0) + w * f.T + f.P;
}
