/* SPDX-License-Identifier: MIT */
/* The page textures' mip chains (gpu/texture.c): made on the GPU by vkCmdBlitImage and, the
 * fallback for formats without linear blits, on the CPU; each level read back and checked. A
 * 1-pixel black-and-white checkerboard must average to 50 % grey in linear light (sRGB 188) at
 * every level past the first, on both paths; a noise layer must give the same levels both ways
 * within rounding; level 0 is the input, byte for byte. Zero validation messages. */
#include "../gpu/buffer.h"
#include "../gpu/texture.h"
#include "check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEX_W      64
#define TEX_H      32
#define TEX_LAYERS 2
/* Linear-light 0.5 in sRGB: 255 * (1.055 * 0.5^(1/2.4) - 0.055) = 187.5. */
#define GREY_SRGB 188
/* A blit's filter and the CPU's box may round differently; one or two steps, never a feature. */
#define MIP_SLACK 2

typedef struct Readback {
    const GpuTexture *tex;
    VkBuffer buffer;
} Readback;

static uint32_t side(uint32_t size, uint32_t level)
{
    return size >> level ? size >> level : 1;
}

static void record_readback(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    const Readback *r = user;
    const GpuTexture *t = r->tex;
    /* The upload left it for fragment shaders -> this copy reads it. */
    gpu_image_barrier(ctx, cmd,
                      &(GpuImageBarrier){
                          .image = t->image.image,
                          .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                          .level_count = t->levels,
                          .layer_count = t->layers,
                          .old_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          .new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                          .src_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                          .src_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                          .dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                          .dst_access = VK_ACCESS_2_TRANSFER_READ_BIT,
                      });
    VkBufferImageCopy regions[16];
    VkDeviceSize offset = 0;
    for (uint32_t l = 0; l < t->levels; l++) {
        regions[l] = (VkBufferImageCopy){
            .bufferOffset = offset,
            .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, t->layers},
            .imageExtent = {side(t->width, l), side(t->height, l), 1},
        };
        offset += (VkDeviceSize)side(t->width, l) * side(t->height, l) * 4 * t->layers;
    }
    ctx->vk.vkCmdCopyImageToBuffer(cmd, t->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                   r->buffer, t->levels, regions);
    gpu_barrier_host_read(ctx, cmd);
}

static VkDeviceSize chain_bytes(void)
{
    VkDeviceSize bytes = 0;
    for (uint32_t l = 0; l < gpu_texture_levels(TEX_W, TEX_H); l++)
        bytes += (VkDeviceSize)side(TEX_W, l) * side(TEX_H, l) * 4 * TEX_LAYERS;
    return bytes;
}

/* Makes the texture one way and reads every level back into `out` (chain_bytes()). */
static bool make_and_read(CheckState *s, const GpuContext *ctx, const uint8_t *pixels,
                          bool cpu_mips, uint8_t *out, bool *blitted)
{
    GpuError err = {0};
    GpuTexture tex;
    GpuBuffer buf = {0};
    GpuTextureDesc desc = {.width = TEX_W,
                           .height = TEX_H,
                           .layers = TEX_LAYERS,
                           .pixels = pixels,
                           .cpu_mips = cpu_mips,
                           .label = "test texture"};
    bool ok = gpu_texture_create(ctx, &desc, &tex, &err) &&
              gpu_buffer_create(ctx,
                                &(GpuBufferDesc){.size = chain_bytes(),
                                                 .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                 .memory = GPU_MEMORY_READBACK,
                                                 .label = "test texture readback"},
                                &buf, &err) &&
              gpu_context_submit_once(ctx, record_readback, &(Readback){&tex, buf.buffer}, &err);
    CHECK(s, ok, "texture (%s mips): %s", cpu_mips ? "CPU" : "GPU", err.message);
    if (ok) {
        gpu_buffer_invalidate(ctx, &buf);
        memcpy(out, buf.mapped, chain_bytes());
        *blitted = tex.blit_mips;
    }
    gpu_buffer_destroy(ctx, &buf);
    gpu_texture_destroy(ctx, &tex);
    return ok;
}

/* Reads every level of `tex` (TEX_W x TEX_H, `layers`) back into a new buffer, or NULL. */
static uint8_t *read_levels(CheckState *s, const GpuContext *ctx, const GpuTexture *tex,
                            size_t *bytes)
{
    *bytes = 0;
    for (uint32_t l = 0; l < tex->levels; l++)
        *bytes += (size_t)side(tex->width, l) * side(tex->height, l) * 4 * tex->layers;
    GpuError err = {0};
    GpuBuffer buf = {0};
    uint8_t *out = malloc(*bytes);
    bool ok = out &&
              gpu_buffer_create(ctx,
                                &(GpuBufferDesc){.size = *bytes,
                                                 .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                 .memory = GPU_MEMORY_READBACK,
                                                 .label = "test texture readback"},
                                &buf, &err) &&
              gpu_context_submit_once(ctx, record_readback, &(Readback){tex, buf.buffer}, &err);
    CHECK(s, ok, "reading a texture back: %s", err.message);
    if (ok) {
        gpu_buffer_invalidate(ctx, &buf);
        memcpy(out, buf.mapped, *bytes);
    }
    gpu_buffer_destroy(ctx, &buf);
    if (!ok)
        free(out);
    return ok ? out : NULL;
}

/* A texture whose first texels are one colour (a book's layers as paper) is cleared to it in one
 * submission, not uploaded a group of layers at a time, and holds at every level what an upload
 * of that colour leaves, byte for byte: the alpha a blank back's (128) with show-through drawn
 * in, as the upload writes it. */
static void check_one_colour(CheckState *s, const GpuContext *ctx)
{
    enum { LAYERS = 4 };
    static uint8_t paper[LAYERS * TEX_W * TEX_H * 4];
    for (size_t i = 0; i < sizeof paper; i += 4)
        paper[i] = 238, paper[i + 1] = 232, paper[i + 2] = 219, paper[i + 3] = 255;
    for (int through = 0; through < 2; through++) {
        GpuError err = {0};
        GpuTexture tex;
        uint64_t waits = ctx->counters->submit_waits;
        bool ok = gpu_texture_create(ctx,
                                     &(GpuTextureDesc){.width = TEX_W,
                                                       .height = TEX_H,
                                                       .layers = LAYERS,
                                                       .pixels = paper,
                                                       .pixel_layers = 2,
                                                       .show_through = through,
                                                       .label = "test paper"},
                                     &tex, &err);
        CHECK(s, ok, "a texture of paper: %s", err.message);
        if (!ok)
            continue;
        uint64_t made = ctx->counters->submit_waits - waits;
        size_t bytes = 0, again = 0;
        uint8_t *cleared = read_levels(s, ctx, &tex, &bytes);
        ok = gpu_texture_update(ctx, &tex, 0, LAYERS, paper, &err);
        CHECK(s, ok, "paper uploaded: %s", err.message);
        uint8_t *uploaded = ok ? read_levels(s, ctx, &tex, &again) : NULL;
        if (cleared && uploaded) {
            size_t off = 0;
            while (off < bytes && cleared[off] == uploaded[off])
                off++;
            printf("paper (show-through %s): made in %" PRIu64 " submission(s), its %u levels %s "
                   "the upload's\n",
                   through ? "on" : "off", made, tex.levels, off == bytes ? "equal to" : "unlike");
            CHECK(s, made == 1, "a texture of one colour took %" PRIu64 " submissions (1 wanted)",
                  made);
            CHECK(s, off == bytes,
                  "show-through %d: the cleared texture differs from the uploaded at byte %zu of "
                  "%zu (%u against %u)",
                  through, off, bytes, off < bytes ? cleared[off] : 0,
                  off < bytes ? uploaded[off] : 0);
        }
        free(cleared);
        free(uploaded);
        gpu_texture_destroy(ctx, &tex);
    }
}

/* A ring of large staging buffers keeps GPU_UPLOADS_BYTES at most (GPU_UPLOADS_MIN of them):
 * six 2048 x 2048 layers updated at once, each through a 16 MB staging buffer, keep three and
 * wait for the oldest; the last one's texels are what the texture holds. Small updates may have
 * eight in flight. */
static void check_ring(CheckState *s, const GpuContext *ctx)
{
    enum { BIG = 2048, UPDATES = 6 };
    GpuError err = {0};
    GpuTexture tex;
    size_t layer = (size_t)BIG * BIG * 4;
    uint8_t *pixels = calloc(1, layer);
    GpuTextureDesc desc = {.width = BIG,
                           .height = BIG,
                           .layers = 1,
                           .pixels = pixels,
                           .one_level = true,
                           .ring_layers = 1,
                           .label = "test ring"};
    bool ok = pixels && gpu_texture_create(ctx, &desc, &tex, &err);
    CHECK(s, ok, "a 2048 x 2048 texture: %s", err.message);
    if (!ok) {
        free(pixels);
        return;
    }
    for (int u = 0; ok && u < UPDATES; u++) {
        memset(pixels, 40 * (u + 1), layer);
        ok = gpu_texture_update(ctx, &tex, 0, 1, pixels, &err);
    }
    CHECK(s, ok, "updates: %s", err.message);
    CHECK(s, tex.uploads.max == GPU_UPLOADS_MIN && tex.uploads.count <= GPU_UPLOADS_MIN,
          "a ring of %llu-byte staging buffers made %u (at most %u expected, %u allowed)",
          (unsigned long long)tex.uploads.size, tex.uploads.count, GPU_UPLOADS_MIN,
          tex.uploads.max);
    GpuBuffer buf = {0};
    ok = ok &&
         gpu_buffer_create(ctx,
                           &(GpuBufferDesc){.size = layer,
                                            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                            .memory = GPU_MEMORY_READBACK,
                                            .label = "test ring readback"},
                           &buf, &err) &&
         gpu_context_submit_once(ctx, record_readback, &(Readback){&tex, buf.buffer}, &err);
    if (ok) {
        gpu_buffer_invalidate(ctx, &buf);
        const uint8_t *got = buf.mapped;
        size_t off = 0;
        for (size_t i = 0; i < layer; i++)
            off += got[i] != 40 * UPDATES;
        CHECK(s, off == 0, "after %d updates %zu bytes are not the last one's", UPDATES, off);
    }
    GpuUploads small;
    gpu_uploads_init(&small, 64 << 10, "test");
    CHECK(s, small.max == GPU_UPLOADS_MAX, "a ring of 64 KiB buffers may make %u (%u expected)",
          small.max, GPU_UPLOADS_MAX);
    gpu_buffer_destroy(ctx, &buf);
    gpu_texture_destroy(ctx, &tex);
    free(pixels);
}

int main(void)
{
    CheckState s = {0};
    GpuMessages messages = {0};
    GpuContext ctx;
    GpuError err = {0};
    GpuContextDesc cdesc = {.validation = true, .device_index = -1, .messages = &messages};
    if (!gpu_context_create(&cdesc, &ctx, &err)) {
        fprintf(stderr, "test_texture: %s\n", err.message);
        return 1;
    }
    /* layer 0: a 1-pixel checkerboard; layer 1: noise from a fixed LCG */
    static uint8_t pixels[TEX_LAYERS * TEX_W * TEX_H * 4];
    uint32_t seed = 12345u;
    for (int y = 0; y < TEX_H; y++)
        for (int x = 0; x < TEX_W; x++) {
            uint8_t *p = &pixels[4 * (y * TEX_W + x)], *q = p + 4 * TEX_W * TEX_H;
            uint8_t v = (uint8_t)((x + y) % 2 ? 255 : 0);
            p[0] = p[1] = p[2] = v, p[3] = 255;
            for (int c = 0; c < 4; c++) {
                seed = seed * 1664525u + 1013904223u;
                q[c] = (uint8_t)(seed >> 24);
            }
        }
    size_t bytes = (size_t)chain_bytes();
    uint8_t *gpu = malloc(bytes), *cpu = malloc(bytes);
    bool gpu_blitted = false, cpu_blitted = true;
    if (gpu && cpu && make_and_read(&s, &ctx, pixels, false, gpu, &gpu_blitted) &&
        make_and_read(&s, &ctx, pixels, true, cpu, &cpu_blitted)) {
        CHECK(&s, gpu_blitted, "lavapipe can blit RGBA8 sRGB linearly: the GPU path must be used");
        CHECK(&s, !cpu_blitted, "cpu_mips asked for the CPU path");
        CHECK(&s, !memcmp(gpu, pixels, sizeof pixels) && !memcmp(cpu, pixels, sizeof pixels),
              "level 0 is not the input");
        size_t at = 0;
        for (uint32_t l = 0; l < gpu_texture_levels(TEX_W, TEX_H); l++) {
            size_t texels = (size_t)side(TEX_W, l) * side(TEX_H, l);
            int worst = 0, grey_off = 0;
            for (size_t i = 0; i < texels * TEX_LAYERS; i++)
                for (int c = 0; c < 4; c++) {
                    int d = abs(gpu[at + 4 * i + c] - cpu[at + 4 * i + c]);
                    worst = d > worst ? d : worst;
                }
            for (size_t i = 0; l > 0 && i < texels; i++)
                for (int c = 0; c < 3; c++) {
                    int dg = abs(gpu[at + 4 * i + c] - GREY_SRGB);
                    int dc = abs(cpu[at + 4 * i + c] - GREY_SRGB);
                    grey_off = dg > grey_off ? dg : grey_off;
                    grey_off = dc > grey_off ? dc : grey_off;
                }
            CHECK(&s, worst <= MIP_SLACK, "level %u: GPU and CPU mips differ by %d", l, worst);
            CHECK(&s, grey_off <= MIP_SLACK,
                  "level %u: the checkerboard is %d off 50 %% grey (linear light)", l, grey_off);
            at += texels * 4 * TEX_LAYERS;
        }
    }
    free(gpu);
    free(cpu);
    check_ring(&s, &ctx);
    check_one_colour(&s, &ctx);
    gpu_context_destroy(&ctx);
    CHECK(&s, messages.errors + messages.warnings == 0, "%u validation errors, %u warnings",
          messages.errors, messages.warnings);
    return check_finish(&s, "test_texture");
}
