/* SPDX-License-Identifier: MIT */
#include "leaf.h"

#include "compute.h"

#include <string.h>

typedef struct UploadOnce {
    const GpuBuffer *src;
    const GpuBuffer *dst;
} UploadOnce;

static void record_copy(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    const UploadOnce *u = user;
    ctx->vk.vkCmdCopyBuffer(cmd, u->src->buffer, u->dst->buffer, 1,
                            &(VkBufferCopy){.size = u->src->size});
}

/* Set-up upload of constant data (UVs, indices) through a temporary staging buffer. */
static bool upload_once(const GpuContext *ctx, const GpuBuffer *dst, const void *const *parts,
                        const VkDeviceSize *part_sizes, int part_count, GpuError *err)
{
    GpuBuffer staging;
    if (!gpu_buffer_create(ctx,
                           &(GpuBufferDesc){.size = dst->size,
                                            .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                            .memory = GPU_MEMORY_UPLOAD,
                                            .label = "set-up staging"},
                           &staging, err))
        return false;
    char *at = staging.mapped;
    for (int i = 0; i < part_count; i++) {
        memcpy(at, parts[i], part_sizes[i]);
        at += part_sizes[i];
    }
    bool ok = gpu_context_submit_once(ctx, record_copy, &(UploadOnce){&staging, dst}, err);
    gpu_buffer_destroy(ctx, &staging);
    return ok;
}

bool gpu_leaf_fits(const GpuContext *ctx, uint32_t nx, uint32_t ny, GpuError *err)
{
    const VkPhysicalDeviceLimits *lim = &ctx->props.limits;
    GpuLeaf sizes = {
        .nx = nx,
        .ny = ny,
        .vertex_count = (uint64_t)nx * ny,
        .triangle_count = 2 * (uint64_t)(nx - 1) * (ny - 1),
    };
    const GpuLeaf *leaf = &sizes;
    /* The largest single binding: the AoS vertices or the cells' vec4 plane. */
    uint64_t vertex_bytes = leaf->vertex_count * PC_VERTEX_FLOATS * sizeof(float);
    uint64_t tri_bytes = leaf->triangle_count / 2 * PC_CELL_NORMAL_A_BYTES;
    uint64_t largest = vertex_bytes > tri_bytes ? vertex_bytes : tri_bytes;
    if (largest > lim->maxStorageBufferRange)
        return gpu_error_set(err,
                             "grid %ux%u needs a %llu-byte storage buffer; %s allows %u "
                             "(maxStorageBufferRange)",
                             leaf->nx, leaf->ny, (unsigned long long)largest, ctx->props.deviceName,
                             lim->maxStorageBufferRange);
    /* the largest extent, in the smallest workgroups any kernel uses, spilled over x and y */
    uint64_t groups = (leaf->triangle_count + 255) / 256;
    uint64_t most = (uint64_t)ctx->dispatch_max_x * lim->maxComputeWorkGroupCount[1];
    if (groups > most)
        return gpu_error_set(err, "grid %ux%u needs more compute workgroups than %s dispatches",
                             leaf->nx, leaf->ny, ctx->props.deviceName);
    /* Everything the leaf keeps in device memory, against the largest device-local heap: a
     * grid that cannot fit is refused before the first allocation fails half-way. */
    uint64_t v = leaf->vertex_count, t = leaf->triangle_count, f = sizeof(float);
    uint64_t resident = 3 * v * f + t / 2 * (PC_CELL_NORMAL_A_BYTES + PC_CELL_NORMAL_B_BYTES) +
                        3 * v * f + PC_VERTEX_FLOATS * v * f + 3 * t * sizeof(uint32_t);
    uint64_t heap = 0;
    for (uint32_t i = 0; i < ctx->memory.memoryHeapCount; i++)
        if (ctx->memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT &&
            ctx->memory.memoryHeaps[i].size > heap)
            heap = ctx->memory.memoryHeaps[i].size;
    if (resident > heap)
        return gpu_error_set(err,
                             "grid %ux%u needs %llu bytes of device memory; %s's largest "
                             "device-local heap has %llu",
                             leaf->nx, leaf->ny, (unsigned long long)resident,
                             ctx->props.deviceName, (unsigned long long)heap);
    if (leaf->vertex_count * 3 > UINT32_MAX || leaf->triangle_count * 3 > UINT32_MAX)
        return gpu_error_set(err, "grid %ux%u: more elements than 32-bit indices reach", leaf->nx,
                             leaf->ny);
    return true;
}

/* Whether the CPU writes in place: `bytes` of resident buffers would have to be shared. */
static bool resolve_in_place(const GpuContext *ctx, GpuStaging staging, VkDeviceSize bytes,
                             bool *out, GpuError *err)
{
    VkDeviceSize heap = gpu_buffer_shared_heap(ctx);
    if (staging == GPU_STAGING_NEVER && heap < bytes)
        return gpu_error_set(err,
                             "--staging never: %s has no memory both device-local and "
                             "host-visible with room for %llu bytes (largest such heap: %llu)",
                             ctx->props.deviceName, (unsigned long long)bytes,
                             (unsigned long long)heap);
    /* auto leaves room: the heap also holds whatever else the driver places there */
    *out = staging == GPU_STAGING_NEVER || (staging == GPU_STAGING_AUTO && heap / 2 >= bytes);
    return true;
}

/* Slot `index`'s objects, once the leaf's own buffers (its curl tables among them) are made. */
static bool slot_create(const GpuContext *ctx, const GpuLeafDesc *desc, uint32_t index,
                        GpuLeaf *leaf, GpuError *err)
{
    GpuLeafSlot *out = &leaf->slots[index];
    out->curl_table = (CurlSegments *)leaf->curl_tables.mapped + index;
    if (leaf->in_place)
        return true;
    VkDeviceSize f = sizeof(float), nv = leaf->vertex_count;
    const VkBufferUsageFlags src = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    GpuBufferDesc positions = {3 * nv * f, src, GPU_MEMORY_UPLOAD, "positions staging"};
    GpuBufferDesc vertices = {PC_VERTEX_FLOATS * nv * f, src, GPU_MEMORY_UPLOAD,
                              "vertices staging"};
    return (!desc->path->cpu_deform ||
            gpu_buffer_create(ctx, &positions, &out->positions_staging, err)) &&
           (!desc->path->cpu_vertices ||
            gpu_buffer_create(ctx, &vertices, &out->vertex_staging, err));
}

static void slot_destroy(const GpuContext *ctx, GpuLeafSlot *slot)
{
    gpu_buffer_destroy(ctx, &slot->vertex_staging);
    gpu_buffer_destroy(ctx, &slot->positions_staging);
    memset(slot, 0, sizeof *slot);
}

static bool leaf_create(const GpuContext *ctx, const GpuLeafDesc *desc, GpuLeaf *out, GpuError *err)
{
    if (!gpu_leaf_fits(ctx, out->nx, out->ny, err))
        return false;
    VkDeviceSize f = sizeof(float), nv = out->vertex_count, nc = out->triangle_count / 2;
    VkDeviceSize vertex_bytes = PC_VERTEX_FLOATS * nv * f;
    bool cpu_positions = desc->path->cpu_deform, cpu_vertices = desc->path->cpu_vertices;
    VkDeviceSize cpu_written = (cpu_positions ? 3 * nv * f : 0) + (cpu_vertices ? vertex_bytes : 0);
    VkDeviceSize adjacency = desc->shadow_adjacency ? 2 * desc->shadow_index_count : 0;
    if (cpu_written && !resolve_in_place(ctx, desc->staging, cpu_written, &out->in_place, err))
        return false;
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    const VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    const VkBufferUsageFlags src = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    GpuMemory positions_memory =
        cpu_positions && out->in_place ? GPU_MEMORY_SHARED : GPU_MEMORY_DEVICE;
    GpuMemory vertices_memory =
        cpu_vertices && out->in_place ? GPU_MEMORY_SHARED : GPU_MEMORY_DEVICE;
    struct {
        bool wanted;
        GpuBuffer *buf;
        GpuBufferDesc desc;
    } all[] = {
        {true,
         &out->positions,
         {3 * nv * f, storage | dst | src, positions_memory, "positions SoA"}},
        {true,
         &out->cell_normals_a,
         {nc * PC_CELL_NORMAL_A_BYTES, storage, GPU_MEMORY_DEVICE, "cell normals (vec4)"}},
        {true,
         &out->cell_normals_b,
         {nc * PC_CELL_NORMAL_B_BYTES, storage, GPU_MEMORY_DEVICE, "cell normals (vec2)"}},
        {desc->path->soa_normals,
         &out->vertex_normals,
         {3 * nv * f, storage | src, GPU_MEMORY_DEVICE, "vertex normals SoA"}},
        {true,
         &out->vertices,
         {vertex_bytes, storage | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | src | dst, vertices_memory,
          "vertices AoS"}},
        {true,
         &out->indices,
         {(3 * nc * 2 + adjacency + desc->shadow_index_count) * sizeof(uint32_t),
          VK_BUFFER_USAGE_INDEX_BUFFER_BIT | dst, GPU_MEMORY_DEVICE, "indices"}},
        {desc->readback,
         &out->readback,
         {vertex_bytes, dst, GPU_MEMORY_READBACK, "vertices readback"}},
        {desc->path->soa_normals,
         &out->soa_readback,
         {6 * nv * f, dst, GPU_MEMORY_READBACK, "positions + normals readback"}},
        /* every thread reads the table: a uniform buffer in device memory where the CPU can
         * write that, since a storage buffer in host memory makes every read cross the bus */
        {true,
         &out->curl_tables,
         {GPU_FRAMES_IN_FLIGHT * sizeof(CurlSegments), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
          gpu_buffer_shared_heap(ctx) ? GPU_MEMORY_SHARED : GPU_MEMORY_UPLOAD, "curl segments"}},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i].wanted && !gpu_buffer_create(ctx, &all[i].desc, all[i].buf, err))
            return false;
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        if (!slot_create(ctx, desc, slot, out, err))
            return false;
    out->shadow_first_index = (uint32_t)(3 * nc * 2);
    out->shadow_index_count = (uint32_t)desc->shadow_index_count;
    out->shadow_adjacency_first = adjacency ? (uint32_t)(3 * nc * 2 + desc->shadow_index_count) : 0;
    const void *index_parts[] = {desc->indices, desc->shadow_indices, desc->shadow_adjacency};
    const VkDeviceSize index_sizes[] = {3 * nc * 2 * sizeof(uint32_t),
                                        desc->shadow_index_count * sizeof(uint32_t),
                                        adjacency * sizeof(uint32_t)};
    return upload_once(ctx, &out->indices, index_parts, index_sizes,
                       desc->shadow_index_count ? (adjacency ? 3 : 2) : 1, err);
}

bool gpu_leaf_create(const GpuContext *ctx, const GpuLeafDesc *desc, GpuLeaf *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->nx = desc->nx;
    out->ny = desc->ny;
    out->width = desc->width;
    out->height = desc->height;
    out->vertex_count = (uint64_t)desc->nx * desc->ny;
    out->triangle_count = 2 * (uint64_t)(desc->nx - 1) * (desc->ny - 1);
    if (leaf_create(ctx, desc, out, err))
        return true;
    gpu_leaf_destroy(ctx, out);
    return false;
}

void gpu_leaf_destroy(const GpuContext *ctx, GpuLeaf *leaf)
{
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        slot_destroy(ctx, &leaf->slots[slot]);
    GpuBuffer *all[] = {&leaf->curl_tables,    &leaf->soa_readback,   &leaf->readback,
                        &leaf->indices,        &leaf->vertices,       &leaf->vertex_normals,
                        &leaf->cell_normals_b, &leaf->cell_normals_a, &leaf->positions};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        gpu_buffer_destroy(ctx, all[i]);
    memset(leaf, 0, sizeof *leaf);
}

PcDeformPush gpu_leaf_deform_push(const GpuLeaf *leaf, uint32_t slot)
{
    return (PcDeformPush){
        .grid = gpu_leaf_push(leaf),
        .page = {{leaf->width, leaf->height, 0.0f, 0.0f}},
        .table = slot,
    };
}

CurlSegments *gpu_leaf_curl_table(const GpuLeaf *leaf, uint32_t slot)
{
    return leaf->slots[slot].curl_table;
}

PcComputePush gpu_leaf_push(const GpuLeaf *leaf)
{
    /* check_limits keeps both counts inside 32 bits */
    return (PcComputePush){
        .nx = leaf->nx,
        .ny = leaf->ny,
        .vertex_count = (pc_uint)leaf->vertex_count,
        .triangle_count = (pc_uint)leaf->triangle_count,
        .du = pc_grid_step(leaf->nx),
        .dv = pc_grid_step(leaf->ny),
    };
}

void gpu_leaf_position_planes(const GpuLeaf *leaf, uint32_t slot, float **x, float **y, float **z)
{
    float *base =
        leaf->in_place ? leaf->positions.mapped : leaf->slots[slot].positions_staging.mapped;
    *x = base;
    *y = base + leaf->vertex_count;
    *z = base + 2 * leaf->vertex_count;
}

float *gpu_leaf_vertex_target(const GpuLeaf *leaf, uint32_t slot)
{
    return leaf->in_place ? leaf->vertices.mapped : leaf->slots[slot].vertex_staging.mapped;
}

void gpu_leaf_record_upload(const GpuContext *ctx, VkCommandBuffer cmd, const GpuLeaf *leaf,
                            uint32_t slot)
{
    const GpuBuffer *staging = &leaf->slots[slot].positions_staging;
    if (!leaf->in_place)
        ctx->vk.vkCmdCopyBuffer(cmd, staging->buffer, leaf->positions.buffer, 1,
                                &(VkBufferCopy){.size = staging->size});
}

void gpu_leaf_record_soa_readback(const GpuContext *ctx, VkCommandBuffer cmd, const GpuLeaf *leaf)
{
    VkDeviceSize planes = leaf->positions.size;
    ctx->vk.vkCmdCopyBuffer(cmd, leaf->positions.buffer, leaf->soa_readback.buffer, 1,
                            &(VkBufferCopy){.size = planes});
    ctx->vk.vkCmdCopyBuffer(cmd, leaf->vertex_normals.buffer, leaf->soa_readback.buffer, 1,
                            &(VkBufferCopy){.dstOffset = planes, .size = planes});
}

void gpu_leaf_record_vertex_upload(const GpuContext *ctx, VkCommandBuffer cmd, const GpuLeaf *leaf,
                                   uint32_t slot)
{
    if (!leaf->in_place)
        ctx->vk.vkCmdCopyBuffer(cmd, leaf->slots[slot].vertex_staging.buffer, leaf->vertices.buffer,
                                1, &(VkBufferCopy){.size = leaf->vertices.size});
}

void gpu_leaf_record_readback(const GpuContext *ctx, VkCommandBuffer cmd, const GpuLeaf *leaf)
{
    /* vertex_normals, a fused kernel or the vertex upload wrote the vertices -> this copy. */
    gpu_barrier(ctx, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    ctx->vk.vkCmdCopyBuffer(cmd, leaf->vertices.buffer, leaf->readback.buffer, 1,
                            &(VkBufferCopy){.size = leaf->vertices.size});
}
