#include "ink_raster.h"

#include <math.h>
#include <string.h>

static void rect_grow(MeshInkRect *r, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
    if (r->x0 >= r->x1 || r->y0 >= r->y1) {
        *r = (MeshInkRect){x0, y0, x1, y1};
        return;
    }
    r->x0 = x0 < r->x0 ? x0 : r->x0, r->y0 = y0 < r->y0 ? y0 : r->y0;
    r->x1 = x1 > r->x1 ? x1 : r->x1, r->y1 = y1 > r->y1 ? y1 : r->y1;
}

void mesh_ink_raster_segment(MeshInkPoint a, MeshInkPoint b, uint32_t size, uint8_t *image,
                             MeshInkRect *dirty)
{
    if (size == 0)
        return;
    /* in texels, y down */
    double s = size;
    double ax = a.u * s, ay = (1.0 - a.v) * s, bx = b.u * s, by = (1.0 - b.v) * s;
    double ra = 0.5 * a.width * s, rb = 0.5 * b.width * s;
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double reach = fmax(ra, rb) + 1.0; /* the AA ramp reaches half a texel past the edge */
    double lo_x = fmax(fmin(ax, bx) - reach, 0.0), hi_x = fmin(fmax(ax, bx) + reach, s);
    double lo_y = fmax(fmin(ay, by) - reach, 0.0), hi_y = fmin(fmax(ay, by) + reach, s);
    if (!(lo_x < hi_x && lo_y < hi_y))
        return;
    uint32_t x0 = (uint32_t)lo_x, x1 = (uint32_t)ceil(hi_x);
    uint32_t y0 = (uint32_t)lo_y, y1 = (uint32_t)ceil(hi_y);
    for (uint32_t y = y0; y < y1; y++)
        for (uint32_t x = x0; x < x1; x++) {
            double px = x + 0.5, py = y + 0.5;
            double t = len2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
            t = fmin(fmax(t, 0.0), 1.0);
            double ex = px - (ax + t * dx), ey = py - (ay + t * dy);
            double edge = ra + t * (rb - ra) - sqrt(ex * ex + ey * ey);
            double cover = fmin(fmax(edge + 0.5, 0.0), 1.0);
            uint8_t v = (uint8_t)lrint(cover * 255.0);
            uint8_t *texel = &image[(size_t)y * size + x];
            if (v > *texel)
                *texel = v;
        }
    if (dirty)
        rect_grow(dirty, x0, y0, x1, y1);
}

void mesh_ink_raster_page(const MeshInkPage *page, uint32_t size, uint8_t *image)
{
    memset(image, 0, (size_t)size * size);
    for (size_t k = 0; k < page->count; k++) {
        const MeshInkStroke *st = &page->strokes[k];
        if (st->count == 1)
            mesh_ink_raster_segment(st->points[0], st->points[0], size, image, NULL);
        for (size_t i = 0; i + 1 < st->count; i++)
            mesh_ink_raster_segment(st->points[i], st->points[i + 1], size, image, NULL);
    }
}
