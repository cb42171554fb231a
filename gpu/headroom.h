/* SPDX-License-Identifier: MIT */
/* Whether the process is out of memory, asked when the Vulkan driver fails or crashes. Under an
 * address-space limit (`ulimit -v`) the loader and the driver do not say so: the loader drops a
 * driver that failed to start and reports no device, lavapipe answers VK_ERROR_UNKNOWN or
 * dereferences a failed malloc. The one reliable sign is that no room is left: a reservation of
 * GPU_HEADROOM_BYTES of address space (no memory behind it) fails. */
#ifndef PAGECURL_GPU_HEADROOM_H
#define PAGECURL_GPU_HEADROOM_H

#include <stdbool.h>
#include <stddef.h>

/* What the driver needs to start and compile a pipeline, with a margin: lavapipe's device
 * creation and LLVM's compiles take tens of MiB of address space each. */
#define GPU_HEADROOM_BYTES ((size_t)192 << 20)

/* True when GPU_HEADROOM_BYTES of address space cannot be reserved. Only system calls:
 * async-signal-safe, so a crash handler may ask it. */
bool gpu_headroom_short(void);

/* The cause in words for a message: "out of memory (the address-space limit, ulimit -v, is 244
 * MiB)", or "out of memory" where no limit is set. */
void gpu_headroom_cause(char *out, size_t size);

#endif
