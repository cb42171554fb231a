/* SPDX-License-Identifier: MIT */
/* Stage render: draws pages (the turning leaf's AoS vertex buffer, lit by its GPU normals, the
 * flat pages of the spread and the edges of the blocks of leaves under them) into a colour target
 * with a depth buffer (dynamic rendering), each side printed from the page-content texture with
 * its ink over it. Owns the graphics pipelines, their layouts, the descriptor set and pool, the
 * content and ink textures, the flat page quad and the block; the targets belong to the offscreen
 * or swapchain module that made them. The same code serves both. */
#ifndef PAGECURL_GPU_RENDERER_H
#define PAGECURL_GPU_RENDERER_H

#include "../shaders/shared.h"
#include "draw.h"
#include "ink.h"
#include "leaf.h"
#include "quality.h"
#include "shadow.h"
#include "texture.h"

/* Reads along a footprint's long side at most where the device filters anisotropically (and
 * allows as many): a page 16 times longer on screen one way than the other stays sharp across. */
#define GPU_MAX_ANISOTROPY 16.0f

/* Draws the still pages' cache holds at most: the two flat pages and their blocks. */
#define GPU_STILL_MAX_DRAWS 4

/* One draw the cache was made from: the draw's buffers and the push it was drawn with. */
typedef struct GpuStillDraw {
    VkBuffer vertices, indices;
    uint32_t first_index, index_count;
    PcDrawPush push;
} GpuStillDraw;

/* The low tier's cache of the still pages: the flat pages and the blocks, drawn without the
 * leaf's shadow, kept while only the leaf moves. A frame copies it into its target, then draws
 * the leaf and multiplies the leaf's shadow into the flat pages. Used from the second frame whose
 * still pages are the same as the frame's before: while they change every frame (a closed book's
 * first turn widens the camera, ink is being drawn) a frame draws them itself, once, instead of
 * into the cache and then over it. Between frames the image is in TRANSFER_SRC_OPTIMAL. */
typedef struct GpuStillCache {
    GpuImage color;
    /* a pan's frame: `color` moved into it and the uncovered strips drawn, then the two swapped
     * (null: pans draw everything) */
    GpuImage other;
    bool valid;  /* `color` holds the draws below, with the texels of these writes */
    bool failed; /* the image could not be made: frames draw everything */
    VkClearColorValue background; /* what `color` was cleared to around the pages */
    /* `color` holds them moved from an earlier view's by whole pixels, not drawn: within
     * GPU_STILL_SHIFT_MOST of them, so a frame of the same draws (the view at rest) draws them */
    bool moved;
    /* the last frame's still draws (its view, spread and size) and texels */
    GpuStillDraw draws[GPU_STILL_MAX_DRAWS];
    uint32_t count;
    uint64_t content_writes, detail_writes, ink_writes;
    uint64_t redraws, overs; /* times drawn, frames drawn over it: the tests count them */
    /* frames that moved it (a pan: gpu_renderer_record), the pixels they shaded (the strips the
     * move uncovered) and the pixels their targets held: the tests count them */
    uint64_t shifts, shifted_shaded, shifted_pixels;
    /* A zoom's moving frame: `color` (the frame it is scaled from, kept as it is) put at a pixel
     * (x, y) of it at (scale x + at[0], scale y + at[1]) of the frame by a linear blit into
     * `other`, what that leaves uncovered drawn, and copied in. Whether the format blits with a
     * linear filter; frames scaled so, and the pixels they shaded. */
    bool blits;
    double scale, at[2];
    uint64_t scales, scaled_shaded;
} GpuStillCache;

/* A frame whose still pages are the last frame's moved on the screen by whole pixels and
 * nothing else (a zoomed view's pan, no leaf in the air: book/camera.c moves the picture after
 * the projection) moves the cache's picture and draws only the strips the move uncovers, which
 * becomes the cache copied into the frame. Its pixels differ from the same frame drawn by at most
 * this, out of 255 (the still pages' own rounding and the move's: test_still). */
#define GPU_STILL_SHIFT_MOST 4
/* A frame scaled so from the cache lies within GPU_STILL_SCALE_MISPLACED pixels of where it is
 * drawn: the blit's corners are whole pixels of both images. It is scaled by at most
 * GPU_STILL_SCALE_MOST (or its inverse): past that, the frame is drawn into the cache anew and
 * the ease's next frames scaled from it, so that a zoom's ease never shows a picture magnified
 * more (an ease from fit to 3x redraws three times in its ~20 frames). */
#define GPU_STILL_SCALE_MISPLACED 0.5
#define GPU_STILL_SCALE_MOST      1.5

typedef struct GpuRenderer {
    GpuQuality quality; /* the tier it draws by: low or high, never auto */
    /* GpuRendererDesc's, kept to make the tier's parts anew when it changes */
    uint32_t max_samples, shadow_size;
    VkSampleCountFlagBits fixed_samples; /* GpuRendererDesc.samples: every tier's (0: the tier's) */
    float show_through;                  /* 0 off .. 1 (page.frag) */
    VkPipeline pipeline;
    VkPipelineLayout layout;
    /* the blocks' side faces (edge.frag): page.vert, the same vertex format, set and push
     * constants, so its layout is compatible with the page pipeline's and the set stays bound */
    VkPipeline edge_pipeline;
    VkPipelineLayout edge_layout;
    /* the low tier without MSAA: the page shader drawing only the pixels the turning leaf covers
     * whole, before the flat pages; its edge pixels are blended over them by `pipeline` after */
    VkPipeline inside_pipeline;
    VkPipelineLayout inside_layout;
    /* ...both without the shadow's code, for what receives none (the leaf, the cached pages) */
    VkPipeline lit_pipeline, lit_inside_pipeline;
    VkPipelineLayout lit_layout, lit_inside_layout;
    /* ...and without the ink's code, for a draw with no ink on either side */
    VkPipeline bare_pipeline, bare_inside_pipeline;
    VkPipelineLayout bare_layout, bare_inside_layout;
    /* ...and with the still pages cached: only the leaf's shadow, multiplied into them */
    VkPipeline shadow_only_pipeline;
    VkPipelineLayout shadow_only_layout;
    /* ...and a hard cover's board (PC_FRAME_BOARD: its cloth or print, its own shading, the
     * code PC_TIER_BOARD keeps out of the others), which receives no shadow: nothing lies over
     * it but itself */
    VkPipeline board_pipeline, board_inside_pipeline;
    VkPipelineLayout board_layout, board_inside_layout;
    /* ...and the turning leaf, with its cut edge (PC_TIER_CUT, code the flat pages need not
     * run), with and without the ink's */
    VkPipeline leaf_pipeline, leaf_inside_pipeline, leaf_bare_pipeline, leaf_bare_inside_pipeline;
    VkPipelineLayout leaf_layout, leaf_inside_layout, leaf_bare_layout, leaf_bare_inside_layout;
    /* ...and the leaf's flat cells (GpuDraw.split), whose pixels it covers whole (PC_TIER_PLAIN),
     * in the inside round */
    /* ...and a flat page with a zoomed view's detail, the only ones with its code
     * (PC_TIER_DETAIL) */
    VkPipeline detail_pipeline, detail_inside_pipeline;
    VkPipelineLayout detail_layout, detail_inside_layout;
    VkPipeline leaf_plain_pipeline, leaf_bare_plain_pipeline;
    VkPipelineLayout leaf_plain_layout, leaf_bare_plain_layout;
    /* a faded flat page (GpuDraw.faded, reduced motion), lit at rest with its ink and a board's
     * code and no shadow (no leaf is in the air), blended by a constant: without the low tier's
     * own edge coverage, which the constant's blend would not take */
    VkPipeline fade_pipeline;
    VkPipelineLayout fade_layout;
    GpuStillCache still;
    bool ignore_bounds; /* tests: draw as if no GpuDraw were bounded */
    /* The device rasterises on the CPU (lavapipe): the low tier saves it pixels its shaders
     * would pay for one by one (the still pages' cache, the shadow's bound, the flat pages' edge
     * strips, the leaf's split), at the cost of recording its commands every frame. A GPU shades
     * those pixels for less than the host's time to find them: its low tier records once, as the
     * high tier does, and submits again. Set from the device when made; tests may change it. */
    bool software;
    GpuShadow shadow; /* the leaf from the light, made with the tier */
    VkFormat color_format, depth_format;
    /* 4x MSAA where the device renders colour and depth with it, else 1: the targets follow */
    VkSampleCountFlagBits samples;
    /* A flat unit page (scaled to W x H by its draw) and a unit block's outer side faces (the
     * stack edge), one after the other in one pair of buffers: draws of either bind them once. */
    GpuBuffer fixed_vertices, fixed_indices;
    /* the frames' PcDrawTables, one per frame in flight (set 0, binding 4) */
    GpuBuffer draw_tables;
    /* counts the changes that leave commands recorded before invalid (the set written, objects
     * made anew): a GpuRenderRecipe holds it */
    uint64_t epoch;
    GpuTexture content; /* one layer per page side (PcDrawPush.page.z picks a leaf's pair) */
    GpuInk ink;         /* the strokes' coverage: the same layers, drawn over the content */
    /* the ink's texels a layer once the book has ink (GpuRendererDesc's): until then a texel a
     * layer, none drawn (gpu_renderer_ink_full) */
    uint32_t ink_width, ink_height;
    /* Where the context has samplerAnisotropy: the high tier's sampler of the content and the
     * ink where a footprint is stretched (set 0's bindings 5 and 6), trilinear with anisotropic
     * filtering (up to 16 reads along a long footprint: a page seen at a grazing angle stays
     * sharp across its short side). The other tiers read through the textures' own trilinear
     * samplers: the low one a whole level a draw (PC_TIER_DRAW_LOD), the reference one along a
     * long footprint itself (page.frag's content_read), whatever the device has. */
    VkSampler anisotropic;
    /* Part of up to GPU_DETAIL_SLOTS page sides drawn at the density a zoomed view shows them
     * (gpu_renderer_set_detail), read where a flat page's draw names a slot; 1 x 1 until then.
     * Level 0 alone: it is read about a texel a pixel, and its upload is then a copy. */
    GpuTexture detail;
    uint64_t detail_writes; /* updates so far, of any texture it has had */
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
} GpuRenderer;

typedef struct GpuRendererDesc {
    VkFormat color_format;
    GpuTextureDesc content; /* the pages' pixels, uploaded into the renderer's texture */
    GpuQuality quality;     /* auto: low on a CPU device, high on a GPU */
    uint32_t max_samples;   /* MSAA samples at most: 1 or 4; 0: the tier's (high 4, low 1) */
    /* the samples a pixel at every tier (a host's target's: 1, 2, 4, 8, which the device draws
     * colour and depth with), over max_samples; 0: the tier's */
    uint32_t samples;
    uint32_t ink_width; /* texels of an ink layer (0: no ink), one per content layer */
    uint32_t ink_height;
    uint32_t shadow_size; /* texels on a side of the shadow map; 0: GPU_SHADOW_MAP_SIZE (the low
                             tier's at most GPU_SHADOW_MAP_LOW_SIZE) */
    /* how much of each side's back shows through it, 0 off .. 1 (GPU_SHOW_THROUGH_PAPER: 80 g/m2
     * office paper, the program's default) */
    float show_through;
    /* the depth buffer's format (a host's rendering's depth attachment, drawn into in its pass:
     * gpu_renderer_record_pass); 0: the device's (gpu_image_depth_format) */
    VkFormat depth_format;
} GpuRendererDesc;

#define GPU_SHOW_THROUGH_PAPER 0.5f

/* What one frame draws into. The colour image's last use was in `color_src_stage` with
 * `color_src_access`; the renderer leaves it in COLOR_ATTACHMENT_OPTIMAL. Its old contents and
 * the depth buffer's are discarded. */
typedef struct GpuRenderTarget {
    VkImage color, depth;
    VkImageView color_view, depth_view;
    VkImage msaa;          /* the multisampled colour drawn into and resolved to `color`; */
    VkImageView msaa_view; /* null without MSAA */
    VkExtent2D extent;
    VkPipelineStageFlags2 color_src_stage;
    VkAccessFlags2 color_src_access;
    bool copy_in; /* the colour image takes copies (the low tier's still pages, copied in) */
    /* A host's image drawn straight into: where the frame's top left lies in it (its viewport;
     * the depth and samples cover that far), its layout before the frame (UNDEFINED: discarded),
     * and whether the frame draws over its pixels rather than clearing them to the backdrop. */
    VkOffset2D offset;
    VkImageLayout color_layout;
    bool keep;
    /* What the colour is cleared to around the pages (linear, with alpha) where `background_set`;
     * else the backdrop (60, 63, 72, opaque). */
    bool background_set;
    VkClearColorValue background;
    /* The host's own dynamic rendering, begun by the host around the frame's draws: the frame's
     * passes record only what must come before it (the shadow map, the ink), and
     * gpu_renderer_record_pass the draws into it, at `offset` over `extent`. No colour, depth or
     * MSAA image of the target's is touched outside that pass. */
    bool in_pass;
} GpuRenderTarget;

bool gpu_renderer_create(const GpuContext *ctx, const GpuRendererDesc *desc, GpuRenderer *out,
                         GpuError *err);
void gpu_renderer_destroy(const GpuContext *ctx, GpuRenderer *renderer);

/* Makes what depends on the tier anew for `quality` (auto: by the device, as at creation): the
 * samples a pixel, the shadow map and its samplers, the pipelines, the still pages' cache. The
 * content, the ink and the meshes stay as they are. No frame that uses the renderer may be in
 * flight; the caller makes its targets anew after it (their samples follow `samples`). On failure
 * the renderer can only be destroyed. */
bool gpu_renderer_set_quality(const GpuContext *ctx, GpuRenderer *renderer, GpuQuality quality,
                              GpuError *err);

/* The pages' detail: a zoomed view's flat pages read the part of their side that it holds from
 * their slot (shared.h's PcDrawPush.frame for PC_DRAW_FLAT), the rest from their content layer.
 * Layer `slot` gets `pixels` (width x height RGBA8 sRGB, one level), as gpu_texture_update
 * does: frames submitted before read the old texels. Where the texture is of another size it is
 * made anew at this one once the queue is idle (the set then points at it; *remade: the other
 * slot holds paper). */
#define GPU_DETAIL_SLOTS 2
bool gpu_renderer_set_detail(const GpuContext *ctx, GpuRenderer *renderer, uint32_t slot,
                             uint32_t width, uint32_t height, const uint8_t *pixels, bool *remade,
                             GpuError *err);

/* The ink at its full size, made once a stroke is to be drawn: until then each layer is a texel
 * with no ink, for a book read without a pen keeps no coverage it never shows (the R8 layers and
 * their mips: 30 MB at 1920x1080, resident memory on a CPU device). Waits for the queue once
 * (the set then points at it); true at once when it is full already. Its layers are clear. */
bool gpu_renderer_ink_full(const GpuContext *ctx, GpuRenderer *renderer, GpuError *err);

/* The flat page quad with these push constants (its view_proj must scale x, y to W, H). */
GpuDraw gpu_renderer_quad(const GpuRenderer *renderer, const PcDrawPush *push);
/* The outer side faces of a unit block of leaves, x, y in [0, 1] (the spine at x = 0, the tail
 * at y = 0) and z in [-1, 0] (its top at 0), with these push constants (PC_DRAW_EDGE; its
 * view_proj scales the block to W x H x thickness and lifts it under a flat page). Each face's uv:
 * x along the face, y down from the top (0) to the bottom (1). */
GpuDraw gpu_renderer_block(const GpuRenderer *renderer, const PcDrawPush *push);
/* The leaf mesh's current vertex buffer with these push constants. */
GpuDraw gpu_renderer_leaf(const GpuLeaf *leaf, const PcDrawPush *push);

/* The low tier's shader variant (shared.h's PC_TIER_* bits): a cheaper shadow filter, the ink
 * texture read only on sides with ink and, where no MSAA smooths the edges, the shaders' own edge
 * coverage, blended over what lies behind. */
uint32_t gpu_renderer_tier_bits(const GpuRenderer *renderer);
/* Whether a frame draws faster when the turning leaf's draw is bounded (GpuDraw.bounded). */
bool gpu_renderer_wants_bounds(const GpuRenderer *renderer);

/* What frames into an extent-sized target need that recording must not make: the low tier's
 * still pages' image. Called when a target is made (and after gpu_renderer_set_quality, with the
 * targets); at a new size the old image is destroyed, so no frame that uses the renderer may be
 * in flight then. Failing to make it is no error: frames then draw all their pages. */
void gpu_renderer_prepare(const GpuContext *ctx, GpuRenderer *renderer, VkExtent2D extent);

/* Records the frame's passes for frame in flight `slot`, after the caller's barrier `before`
 * (optional: recorded in one call with the passes' first barriers), and writes the draws' values
 * into the slot's draw table (gpu_renderer_write_draws), which the commands read when they run:
 * no frame of the slot may be in flight. Never waits, allocates or submits. Not const: the low
 * tier keeps its still pages between frames, in the image gpu_renderer_prepare made for the
 * target's size (a target of another size draws without them). */
void gpu_renderer_record(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *renderer,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count,
                         uint32_t slot, const VkMemoryBarrier2 *before);

/* The draws of a frame whose target is `in_pass`, recorded after gpu_renderer_record (its
 * passes, in this command buffer or one submitted before) into the host's rendering begun in
 * `cmd`: its colour attachment in the renderer's format and samples, its depth attachment in the
 * renderer's depth format. Sets the viewport and scissor to the target's rectangle, clears the
 * depth within it (vkCmdClearAttachments) and draws over the colour there: nothing outside the
 * rectangle is written. Leaves the renderer's pipeline, set, push constants, vertex and index
 * buffers bound, the viewport, scissor and blend constants set. */
void gpu_renderer_record_pass(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *renderer,
                              const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count,
                              uint32_t slot);

/* What a frame's recorded passes depend on besides its draw table's values: frames with equal
 * recipes (byte for byte) record the same commands, so the later may submit the earlier's again
 * after gpu_renderer_write_draws. */
typedef struct GpuRenderRecipe {
    uint64_t epoch, inked;
    GpuRenderTarget target;
    uint32_t count, slot;
    struct {
        VkBuffer vertices, indices;
        uint32_t first_index, index_count, shadow_first_index, shadow_index_count;
        uint32_t flags, layer; /* frame.w's flags (a board's pipeline), page.z (its ink) */
        uint32_t kind;         /* page.w: what it draws (PC_DRAW_*) */
        bool detail;           /* frame.x set: a flat page's detail (its pipeline) */
        float alpha;           /* a faded draw's blend constant */
        bool casts_shadow, edge, faded;
    } draws[PC_MAX_DRAWS];
} GpuRenderRecipe;

/* The recipe of gpu_renderer_record's commands for these draws, zero-filled first; false where
 * the commands themselves change from frame to frame: the low tier's on a software rasteriser
 * (its still pages' cache, the pieces it cuts; GpuRenderer.software), a bounded draw's (the
 * shadow's pieces of the target) and a frame that uploads ink. */
bool gpu_renderer_recipe(const GpuRenderer *renderer, const GpuRenderTarget *target,
                         const GpuDraw *draws, uint32_t count, uint32_t slot, GpuRenderRecipe *out);

/* The draws' values for slot's table alone: what a frame whose commands are those recorded for
 * the same draws before writes instead of recording them again (at most PC_MAX_DRAWS). */
void gpu_renderer_write_draws(const GpuRenderer *renderer, uint32_t slot, const GpuDraw *draws,
                              uint32_t count, VkExtent2D extent);

#endif
