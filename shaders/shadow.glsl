/* SPDX-License-Identifier: MIT */
// The light's view for the turning leaf's shadow: an orthographic box along light_dir around the
// spread, derived from the push constants alone so that the shadow pass and the page shader agree
// without a matrix crossing from the CPU. Every point of the book lies within sqrt(W^2 + (H/2)^2)
// of the spine's midpoint (the paper never stretches and the spine stays put), so a cube of that
// half-size holds the leaf in any pose.

// Half the box's side, in world units (2% spare for the leaf's thickness and rounding).
float shadow_half_size(vec2 page)
{
    return PC_SHADOW_SPARE * length(vec2(page.x, 0.5 * page.y));
}

// Light-space position of a world point: xy in [-1, 1] across the map, z in [0, 1] depth from
// the light (0 nearest).
vec3 shadow_light_space(vec3 world, vec3 light, vec2 page)
{
    vec3 x_axis = normalize(cross(vec3(0.0, 1.0, 0.0), light));
    vec3 y_axis = cross(light, x_axis);
    float half_size = shadow_half_size(page);
    vec3 p = world - vec3(0.0, 0.5 * page.y, 0.0);
    return vec3(dot(p, x_axis) / half_size, dot(p, y_axis) / half_size,
                0.5 - 0.5 * dot(p, light) / half_size);
}
