/* SPDX-License-Identifier: MIT */
// A draw's constants: its row of the frame in flight's draw table (shared.h's PcDrawTable), picked
// by the draw's push constants. The includer includes shared.h first.
layout(push_constant) uniform Push { PcDrawIndex pick; };
layout(std140, set = 0, binding = 4) uniform Draws { PcDrawTable tables[PC_FRAMES_IN_FLIGHT]; };
#define draw tables[pick.table].draw[pick.index]
