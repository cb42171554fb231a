/* SPDX-License-Identifier: MIT */
/* The renderer's quality tiers, as plain data (no Vulkan): the command line picks one, the
 * renderer resolves `auto` by the device and draws by the tier it resolved. */
#ifndef PAGECURL_GPU_QUALITY_H
#define PAGECURL_GPU_QUALITY_H

typedef enum GpuQuality {
    GPU_QUALITY_AUTO, /* low on a CPU device (lavapipe), high on a GPU */
    GPU_QUALITY_LOW,  /* for a CPU rasteriser: no MSAA (edges anti-aliased in the shaders), a
                         smaller shadow map, a cheaper shadow filter, the still pages cached */
    GPU_QUALITY_HIGH, /* 4x MSAA, a 1024^2 shadow map, percentage-closer soft shadows */
    /* What the other two are measured against, slow: the most MSAA the device has (8x, else 4x),
     * a 4096^2 shadow map, the penumbra as the light's disc averaged over many jittered taps
     * (headless mode draws its pictures larger and scales them down: app/headless.c) */
    GPU_QUALITY_REFERENCE,
} GpuQuality;

/* "auto", "low", "high", "reference": the --quality values, in GpuQuality's order. */
static inline const char *gpu_quality_name(GpuQuality q)
{
    return q == GPU_QUALITY_LOW         ? "low"
           : q == GPU_QUALITY_HIGH      ? "high"
           : q == GPU_QUALITY_REFERENCE ? "reference"
                                        : "auto";
}

#endif
