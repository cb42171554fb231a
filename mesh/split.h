/* The turning leaf's cells that a pose leaves flat, apart from the rest: the low tier draws them
 * by a shader without the code that only the paper's outline needs (its edges, the roll's
 * silhouette, the cut edge), and leaves them out of the round that blends the outline's pixels
 * (gpu/renderer_record.c). Pure geometry of the grid at rest and the pose. */
#ifndef PAGECURL_MESH_SPLIT_H
#define PAGECURL_MESH_SPLIT_H

#include "../shaders/shared.h"
#include "grid.h"

/* Cells along each edge of the page counted with the outline: the edge's coverage ramp, the cut
 * edge's band and the vertices the low tier pushes a pixel out lie within them wherever a cell is
 * a pixel or more on screen. */
#define MESH_SPLIT_RING 2u

/* Writes the grid's triangles (3 indices each, as grid->indices winds them) into `out`, first
 * those of the cells that lie wholly flat in the pose (before the fold, or past the roll's end
 * where the roll turns the page over) and at least MESH_SPLIT_RING cells from every edge, then
 * the others, each in the grid's order; returns how many indices the first part holds. A pose whose
 * roll stops short of a whole turn (a board hinged: its flat part may be seen edge on) has no flat
 * part here: 0. */
size_t mesh_split_flat(const PageGrid *grid, const CurlParams *pose, uint32_t *out);

#endif
