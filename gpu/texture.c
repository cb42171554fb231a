/* SPDX-License-Identifier: MIT */
#include "texture.h"

#include "buffer.h"
#include "sync.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

uint32_t gpu_texture_levels(uint32_t width, uint32_t height)
{
    uint32_t levels = 1;
    for (uint32_t size = width > height ? width : height; size > 1; size >>= 1)
        levels++;
    return levels;
}

/* An update of layers first .. end - 1: the texture's writes and those of the pairs they touch. */
static void dated(GpuTexture *tex, uint32_t first, uint32_t end)
{
    tex->writes++;
    for (uint32_t pair = first / 2; tex->pair_writes && pair < (end + 1) / 2; pair++)
        tex->pair_writes[pair] = tex->writes;
}

uint64_t gpu_texture_layer_writes(const GpuTexture *tex, uint32_t layer)
{
    return tex->pair_writes && layer < tex->layers ? tex->pair_writes[layer / 2] : tex->writes;
}

static uint32_t level_size(uint32_t size, uint32_t level)
{
    size >>= level;
    return size ? size : 1;
}

/* Bytes of `layers` layers at each level, all layers of a level together, levels in order. */
static VkDeviceSize chain_bytes(const GpuTexture *t, uint32_t levels, uint32_t layers)
{
    VkDeviceSize bytes = 0;
    for (uint32_t l = 0; l < levels; l++)
        bytes += (VkDeviceSize)level_size(t->width, l) * level_size(t->height, l) * 4 * layers;
    return bytes;
}

static float srgb_to_linear(uint8_t c)
{
    float x = c / 255.0f;
    return x <= 0.04045f ? x / 12.92f : powf((x + 0.055f) / 1.055f, 2.4f);
}

static uint8_t linear_to_srgb(float x)
{
    x = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    float s = x <= 0.0031308f ? 12.92f * x : 1.055f * powf(x, 1.0f / 2.4f) - 0.055f;
    return (uint8_t)(s * 255.0f + 0.5f);
}

/* The fallback's next level: a 2x2 box in linear light (what a linear blit of sRGB does). */
static void cpu_downsample(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw,
                           uint32_t dh, const float *to_linear)
{
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++) {
            uint32_t x0 = 2 * x < sw ? 2 * x : sw - 1, y0 = 2 * y < sh ? 2 * y : sh - 1;
            uint32_t x1 = x0 + 1 < sw ? x0 + 1 : x0, y1 = y0 + 1 < sh ? y0 + 1 : y0;
            const uint8_t *p[4] = {&src[4 * (y0 * sw + x0)], &src[4 * (y0 * sw + x1)],
                                   &src[4 * (y1 * sw + x0)], &src[4 * (y1 * sw + x1)]};
            uint8_t *d = &dst[4 * (y * dw + x)];
            for (int c = 0; c < 3; c++)
                d[c] = linear_to_srgb(0.25f * (to_linear[p[0][c]] + to_linear[p[1][c]] +
                                               to_linear[p[2][c]] + to_linear[p[3][c]]));
            d[3] = (uint8_t)((p[0][3] + p[1][3] + p[2][3] + p[3][3] + 2) / 4);
        }
}

/* Fills the staging buffer for `layers` layers: level 0 from the caller; with the CPU fallback
 * the rest too. `blank_backs`: every alpha says its back is its own mean, which shows nothing
 * through (shaders/show_through.frag): where show-through is asked for but not drawn
 * (GpuTextureDesc), or the backs are blank. */
static void fill_staging(const GpuTexture *t, const uint8_t *pixels, uint32_t layers, uint8_t *at,
                         uint32_t levels, bool blank_backs)
{
    size_t layer0 = (size_t)t->width * t->height * 4;
    memcpy(at, pixels, layer0 * layers);
    if (blank_backs)
        for (size_t i = 3; i < layer0 * layers; i += 4)
            at[i] = 128;
    if (levels == 1)
        return;
    float to_linear[256];
    for (int i = 0; i < 256; i++)
        to_linear[i] = srgb_to_linear((uint8_t)i);
    uint8_t *prev = at;
    at += layer0 * layers;
    for (uint32_t l = 1; l < levels; l++) {
        uint32_t pw = level_size(t->width, l - 1), ph = level_size(t->height, l - 1);
        uint32_t w = level_size(t->width, l), h = level_size(t->height, l);
        for (uint32_t layer = 0; layer < layers; layer++)
            cpu_downsample(prev + (size_t)pw * ph * 4 * layer, pw, ph,
                           at + (size_t)w * h * 4 * layer, w, h, to_linear);
        prev = at;
        at += (size_t)w * h * 4 * layers;
    }
}

/* Whether `n` RGBA8 pixels have one colour. */
static bool one_colour(const uint8_t *px, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (memcmp(px + 4 * i, px, 3) != 0)
            return false;
    return true;
}

/* Layers first .. first + count - 1 of the texture, from a staging buffer; with show-through,
 * the pass over the whole pairs they belong to. */
typedef struct Upload {
    const GpuContext *ctx;
    const GpuTexture *tex;
    VkBuffer staging;
    uint32_t first, count;
    const GpuShowThroughPass *show; /* or NULL */
} Upload;

static void barrier_levels(const GpuContext *ctx, VkCommandBuffer cmd, const GpuTexture *t,
                           uint32_t first, uint32_t count, uint32_t base, uint32_t levels,
                           VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 src_stage,
                           VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                           VkAccessFlags2 dst_access)
{
    gpu_image_barrier(ctx, cmd,
                      &(GpuImageBarrier){
                          .image = t->image.image,
                          .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                          .base_level = base,
                          .level_count = levels,
                          .base_layer = first,
                          .layer_count = count,
                          .old_layout = from,
                          .new_layout = to,
                          .src_stage = src_stage,
                          .src_access = src_access,
                          .dst_stage = dst_stage,
                          .dst_access = dst_access,
                      });
}

/* Levels 1 .. of layers first .. first + count - 1 blitted down from level 0, every level in
 * TRANSFER_DST_OPTIMAL before (level 0 holding the texels); every level left for fragment
 * shaders to sample. */
static void blit_mips(const GpuContext *ctx, VkCommandBuffer cmd, const Upload *u, uint32_t first,
                      uint32_t count)
{
    const GpuTexture *t = u->tex;
    gpu_label_begin(u->ctx, cmd, "mips");
    for (uint32_t l = 1; l < t->levels; l++) {
        /* The copy or last blit wrote level l-1 -> this blit reads it. */
        barrier_levels(ctx, cmd, t, first, count, l - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                       VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_BLIT_BIT,
                       VK_ACCESS_2_TRANSFER_READ_BIT);
        VkImageBlit blit = {
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l - 1, first, count},
            .srcOffsets = {{0, 0, 0},
                           {(int32_t)level_size(t->width, l - 1),
                            (int32_t)level_size(t->height, l - 1), 1}},
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, first, count},
            .dstOffsets = {{0, 0, 0},
                           {(int32_t)level_size(t->width, l), (int32_t)level_size(t->height, l),
                            1}},
        };
        ctx->vk.vkCmdBlitImage(cmd, t->image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               t->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit,
                               VK_FILTER_LINEAR);
    }
    gpu_label_end(u->ctx, cmd);
    /* The blits read levels 0 .. n-2 -> fragment shaders sample them. */
    if (t->levels > 1)
        barrier_levels(
            ctx, cmd, t, first, count, 0, t->levels - 1, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT, 0,
            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    /* The last blit (or the copy, for one level) wrote the last level -> fragment shaders. */
    barrier_levels(ctx, cmd, t, first, count, t->levels - 1, 1,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                   VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                   VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

static void record_upload(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    const Upload *u = user;
    const GpuTexture *t = u->tex;
    gpu_label_begin(u->ctx, cmd, "texture upload");
    /* The layers' old texels are dropped: every level becomes a copy (or blit) destination once
     * the fragment shaders of frames submitted before have read them, and once an update
     * submitted before this one (not waited for: gpu/upload.h) has written them. */
    barrier_levels(ctx, cmd, t, u->first, u->count, 0, t->levels, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT |
                       VK_PIPELINE_STAGE_2_BLIT_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT);
    /* The staging buffer holds level 0 (and, without blits, every level) layer after layer. */
    uint32_t copied = t->blit_mips ? 1 : t->levels;
    VkBufferImageCopy regions[32];
    VkDeviceSize offset = 0;
    for (uint32_t l = 0; l < copied; l++) {
        uint32_t w = level_size(t->width, l), h = level_size(t->height, l);
        regions[l] = (VkBufferImageCopy){
            .bufferOffset = offset,
            .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, u->first, u->count},
            .imageExtent = {w, h, 1},
        };
        offset += (VkDeviceSize)w * h * 4 * u->count;
    }
    ctx->vk.vkCmdCopyBufferToImage(cmd, u->staging, t->image.image,
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, copied, regions);
    if (t->blit_mips) {
        blit_mips(ctx, cmd, u, u->first, u->count);
    } else {
        /* The copy wrote every level -> fragment shaders sample them. */
        barrier_levels(ctx, cmd, t, u->first, u->count, 0, t->levels,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    }
    if (u->show) {
        /* Every layer of the pairs has its print at every level now (those not updated since
         * their own upload): each one's level 0 gets its alpha from its partner, then its mips
         * are made again from it (the pass wrote level 0, its draws read every level). */
        const GpuShowThroughPass *p = u->show;
        gpu_show_through_pass_record(u->ctx, cmd, &t->pass, p);
        barrier_levels(ctx, cmd, t, p->first, p->count, 0, t->levels,
                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                           VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
                       VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
        blit_mips(ctx, cmd, u, p->first, p->count);
    }
    gpu_label_end(u->ctx, cmd);
}

/* The update, through the ring (`ring`: submitted, not waited for) or through a staging buffer of
 * its own, submitted and waited for. */
static bool update(const GpuContext *ctx, GpuTexture *tex, uint32_t first, uint32_t count,
                   const uint8_t *pixels, bool ring, GpuError *err)
{
    assert(count && first + count <= tex->layers && pixels);
    uint32_t levels = tex->blit_mips ? 1 : tex->levels;
    GpuBuffer own = {0};
    GpuUpload *up = NULL;
    if (ring ? !gpu_uploads_take(ctx, &tex->uploads, &up, err)
             : !gpu_buffer_create(ctx,
                                  &(GpuBufferDesc){.size = chain_bytes(tex, levels, count),
                                                   .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                   .memory = GPU_MEMORY_UPLOAD,
                                                   .label = "texture staging"},
                                  &own, err))
        return false;
    const GpuBuffer *staging = up ? &up->staging : &own;
    /* The whole pairs the layers belong to have their alpha made anew, unless the update holds
     * them whole and each of their layers is one colour (paper: a slot made blank), whose alpha
     * says the back is blank whatever lies behind it, as the pass would. */
    uint32_t pair_first = first & ~1u, pair_end = (first + count + 1) & ~1u;
    bool blank = pair_first == first && pair_end == first + count;
    for (uint32_t i = 0; blank && i < count; i++)
        blank = one_colour(pixels + (size_t)tex->width * tex->height * 4 * i,
                           (size_t)tex->width * tex->height);
    fill_staging(tex, pixels, count, staging->mapped, levels,
                 tex->show_through && (!tex->pass.pipeline || blank));
    /* the pass's views and sets live as long as its commands may run: with the ring's upload,
     * destroyed once its fence has signalled */
    GpuShowThroughPass own_pass = {0}, *pass = up ? &up->pass : &own_pass;
    bool ok =
        !tex->pass.pipeline || blank ||
        gpu_show_through_pass_create(ctx, &tex->pass, tex->image.image, GPU_TEXTURE_FORMAT,
                                     tex->sampler, (VkExtent2D){tex->width, tex->height},
                                     tex->levels, pair_first, pair_end - pair_first, pass, err);
    Upload u = {ctx, tex, staging->buffer, first, count, pass->pool ? pass : NULL};
    if (up) {
        if (ok)
            ok = gpu_uploads_submit(ctx, &tex->uploads, up, record_upload, &u, err);
        else
            gpu_show_through_pass_destroy(ctx, pass);
    } else {
        ok = ok && gpu_context_submit_once(ctx, record_upload, &u, err);
        gpu_show_through_pass_destroy(ctx, pass);
        gpu_buffer_destroy(ctx, &own);
    }
    dated(tex, pair_first, pair_end);
    return ok;
}

/* Every level and layer of a new texture cleared to one texel, then left for fragment shaders. */
typedef struct Clear {
    const GpuTexture *tex;
    VkClearColorValue colour;
} Clear;

static void record_clear(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    const Clear *c = user;
    const GpuTexture *t = c->tex;
    barrier_levels(ctx, cmd, t, 0, t->layers, 0, t->levels, VK_IMAGE_LAYOUT_UNDEFINED,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                   VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, t->levels, 0, t->layers};
    ctx->vk.vkCmdClearColorImage(cmd, t->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                 &c->colour, 1, &all);
    barrier_levels(ctx, cmd, t, 0, t->layers, 0, t->levels, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                   VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

/* A texture whose first texels are one colour (a book's layers as plain paper) is cleared to
 * it, every level and layer in one command, the alpha as an upload would leave it (a blank back's
 * where show-through is drawn in): its mips and show-through are that colour already, and the
 * uploads a pair at a time (a staging buffer, a wait, the mip blits each) took 0.3 s of a window's
 * opening on lavapipe at 1920x1080. */
static bool clear(const GpuContext *ctx, GpuTexture *tex, const uint8_t texel[4], GpuError *err)
{
    Clear c = {.tex = tex,
               .colour = {.float32 = {srgb_to_linear(texel[0]), srgb_to_linear(texel[1]),
                                      srgb_to_linear(texel[2]),
                                      tex->show_through ? 128 / 255.0f : texel[3] / 255.0f}}};
    dated(tex, 0, tex->layers);
    return gpu_context_submit_once(ctx, record_clear, &c, err);
}

bool gpu_texture_update(const GpuContext *ctx, GpuTexture *tex, uint32_t first, uint32_t count,
                        const uint8_t *pixels, GpuError *err)
{
    return update(ctx, tex, first, count, pixels, count <= tex->ring_layers, err);
}

static bool texture_create(const GpuContext *ctx, const GpuTextureDesc *desc, GpuTexture *out,
                           GpuError *err)
{
    VkFormatProperties props;
    ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, GPU_TEXTURE_FORMAT, &props);
    VkFormatFeatureFlags have = props.optimalTilingFeatures;
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    if ((have & need) != need)
        return gpu_error_set(err, "the device cannot sample filtered RGBA8 sRGB textures");
    /* A linear blit from the image into itself needs both blit features and linear filtering. */
    VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
    out->blit_mips = !desc->cpu_mips && (have & blit) == blit;
    /* Show-through is drawn into the texture (its alpha): it takes blits for the mips made
     * again after it, rendering to the format, and layers in pairs. */
    out->show_through = desc->show_through;
    bool bakes = desc->show_through && out->blit_mips && out->layers % 2 == 0 &&
                 (have & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT);
    GpuImageDesc image = {
        .extent = {desc->width, desc->height},
        .format = GPU_TEXTURE_FORMAT,
        /* a copy source too where it can be: blits read it, tests read every level back */
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                 (have & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0) |
                 (bakes ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT : 0),
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .levels = out->levels,
        .layers = out->layers,
        .array_view = true,
        .label = desc->label,
    };
    if (!gpu_image_create(ctx, &image, &out->image, err))
        return false;
    if (!gpu_sampler_create(ctx, 1.0f, desc->label, &out->sampler, err))
        return false;
    if (out->show_through && bakes &&
        !gpu_show_through_create(ctx, GPU_TEXTURE_FORMAT, &out->pass, err))
        return false;
    out->ring_layers = desc->ring_layers < out->layers ? desc->ring_layers : out->layers;
    gpu_uploads_init(&out->uploads,
                     chain_bytes(out, out->blit_mips ? 1 : out->levels, out->ring_layers),
                     desc->label);
    if (out->ring_layers && !gpu_uploads_reserve(ctx, &out->uploads, desc->ring_reserve, err))
        return false;
    /* the first texels wait: a ring as large as all of them would be kept for nothing */
    uint32_t group = desc->pixel_layers ? desc->pixel_layers : out->layers;
    assert(out->layers % group == 0);
    size_t texels = (size_t)desc->width * desc->height * group;
    bool one_alpha = true;
    for (size_t i = 1; i < texels && one_alpha; i++)
        one_alpha = desc->pixels[4 * i + 3] == desc->pixels[3];
    if (one_alpha && one_colour(desc->pixels, texels))
        return clear(ctx, out, desc->pixels, err);
    for (uint32_t first = 0; first < out->layers; first += group)
        if (!update(ctx, out, first, group, desc->pixels, false, err))
            return false;
    return true;
}

bool gpu_texture_create(const GpuContext *ctx, const GpuTextureDesc *desc, GpuTexture *out,
                        GpuError *err)
{
    assert(desc->width && desc->height && desc->layers && desc->pixels);
    memset(out, 0, sizeof *out);
    out->width = desc->width;
    out->height = desc->height;
    out->layers = desc->layers;
    out->levels = desc->one_level ? 1 : gpu_texture_levels(desc->width, desc->height);
    assert(out->levels <= 32);
    out->pair_writes = calloc((out->layers + 1) / 2, sizeof *out->pair_writes);
    if (texture_create(ctx, desc, out, err))
        return true;
    gpu_texture_destroy(ctx, out);
    return false;
}

void gpu_texture_destroy(const GpuContext *ctx, GpuTexture *tex)
{
    gpu_uploads_destroy(ctx, &tex->uploads); /* waits for its updates in flight */
    gpu_show_through_destroy(ctx, &tex->pass);
    if (tex->sampler)
        ctx->vk.vkDestroySampler(ctx->device, tex->sampler, ctx->allocator);
    gpu_image_destroy(ctx, &tex->image);
    free(tex->pair_writes);
    memset(tex, 0, sizeof *tex);
}

bool gpu_sampler_create(const GpuContext *ctx, float anisotropy, const char *label, VkSampler *out,
                        GpuError *err)
{
    VkSamplerCreateInfo sampler = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_LINEAR,
        .minFilter = VK_FILTER_LINEAR,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .anisotropyEnable = anisotropy > 1.0f ? VK_TRUE : VK_FALSE,
        .maxAnisotropy = anisotropy > 1.0f ? anisotropy : 1.0f,
        .maxLod = VK_LOD_CLAMP_NONE,
    };
    GPU_TRY(err, ctx->vk.vkCreateSampler(ctx->device, &sampler, ctx->allocator, out));
    GPU_NAME(ctx, VK_OBJECT_TYPE_SAMPLER, *out, label);
    return true;
}
