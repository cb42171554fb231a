#version 450
#extension GL_GOOGLE_include_directive : require
// fused_deform for pages of at most PC_SMALL_PAGE_VERTICES: shared.h's small tile.
#include "shared.h"
#undef PC_TILE_W
#undef PC_TILE_H
#undef PC_TILE_ROWS
#define PC_TILE_W PC_SMALL_TILE_W
#define PC_TILE_H PC_SMALL_TILE_H
#define PC_TILE_ROWS PC_SMALL_TILE_ROWS
#include "fused_deform.glsl"
