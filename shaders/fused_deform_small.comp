/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// fused_deform for pages of at most PC_SMALL_PAGE_VERTICES: a PC_SMALL_TILE_W x PC_SMALL_TILE_H
// workgroup, one thread a tile entry, the halo included (shared.h).
#include "shared.h"
#undef PC_TILE_W
#undef PC_TILE_H
#undef PC_TILE_ROWS
#define PC_TILE_W PC_SMALL_TILE_INNER_W
#define PC_TILE_H PC_SMALL_TILE_INNER_H
#define PC_TILE_ROWS 1u
#define PC_FUSED_HALO_THREADS
#include "fused_deform.glsl"
