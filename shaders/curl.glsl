// The cylinder roll of mesh/curl.c (mesh_curl_point), in float: flat before the fold line,
// rolled around a cylinder of radius r over an arc of pi*r, then flat again, upside down, at 2r.
const float CURL_PI = 3.14159265358979;

vec3 curl_point(CurlParams c, vec2 p)
{
    vec2 n = c.fold.zw;
    float r = c.shape.x;
    float s = dot(p - c.fold.xy, n);
    if (s <= 0.0)
        return vec3(p, 0.0);
    if (s < CURL_PI * r) {
        float phi = s / r;
        return vec3(p - n * (s - r * sin(phi)), r * (1.0 - cos(phi)));
    }
    return vec3(p - n * (2.0 * s - CURL_PI * r), 2.0 * r);
}
