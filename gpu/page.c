#include "page.h"

#include "compute.h"

#include <string.h>

typedef struct UploadOnce {
    const GpuBuffer *src;
    const GpuBuffer *dst;
} UploadOnce;

static void record_copy(void *user, VkCommandBuffer cmd)
{
    const UploadOnce *u = user;
    vkCmdCopyBuffer(cmd, u->src->buffer, u->dst->buffer, 1,
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

bool gpu_page_fits(const GpuContext *ctx, uint32_t nx, uint32_t ny, GpuError *err)
{
    const VkPhysicalDeviceLimits *lim = &ctx->props.limits;
    GpuPage sizes = {
        .nx = nx,
        .ny = ny,
        .vertex_count = (uint64_t)nx * ny,
        .triangle_count = 2 * (uint64_t)(nx - 1) * (ny - 1),
    };
    const GpuPage *page = &sizes;
    /* The largest single binding: the AoS vertices or the three triangle-normal planes. */
    uint64_t vertex_bytes = page->vertex_count * PC_VERTEX_FLOATS * sizeof(float);
    uint64_t tri_bytes = page->triangle_count * 3 * sizeof(float);
    uint64_t largest = vertex_bytes > tri_bytes ? vertex_bytes : tri_bytes;
    if (largest > lim->maxStorageBufferRange)
        return gpu_error_set(err,
                             "grid %ux%u needs a %llu-byte storage buffer; %s allows %u "
                             "(maxStorageBufferRange)",
                             page->nx, page->ny, (unsigned long long)largest,
                             ctx->props.deviceName, lim->maxStorageBufferRange);
    /* the largest extent, in the smallest workgroups any kernel uses, spilled over x and y */
    uint64_t groups = (page->triangle_count + 255) / 256;
    uint64_t most = (uint64_t)ctx->dispatch_max_x * lim->maxComputeWorkGroupCount[1];
    if (groups > most)
        return gpu_error_set(err, "grid %ux%u needs more compute workgroups than %s dispatches",
                             page->nx, page->ny, ctx->props.deviceName);
    /* Everything the page keeps in device memory, against the largest device-local heap: a
     * grid that cannot fit is refused before the first allocation fails half-way. */
    uint64_t v = page->vertex_count, t = page->triangle_count, f = sizeof(float);
    uint64_t resident = 3 * v * f + 3 * t * f + 3 * v * f + 2 * v * f + PC_VERTEX_FLOATS * v * f +
                        3 * t * sizeof(uint32_t);
    uint64_t heap = 0;
    for (uint32_t i = 0; i < ctx->memory.memoryHeapCount; i++)
        if (ctx->memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT &&
            ctx->memory.memoryHeaps[i].size > heap)
            heap = ctx->memory.memoryHeaps[i].size;
    if (resident > heap)
        return gpu_error_set(err,
                             "grid %ux%u needs %llu bytes of device memory; %s's largest "
                             "device-local heap has %llu",
                             page->nx, page->ny, (unsigned long long)resident,
                             ctx->props.deviceName, (unsigned long long)heap);
    if (page->vertex_count * 3 > UINT32_MAX || page->triangle_count * 3 > UINT32_MAX)
        return gpu_error_set(err, "grid %ux%u: more elements than 32-bit indices reach", page->nx,
                             page->ny);
    return true;
}

static bool page_create(const GpuContext *ctx, const GpuPageDesc *desc, GpuPage *out,
                        GpuError *err)
{
    if (!gpu_page_fits(ctx, out->nx, out->ny, err))
        return false;
    VkDeviceSize f = sizeof(float), nv = out->vertex_count, nt = out->triangle_count;
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    const VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    struct {
        GpuBuffer *buf;
        GpuBufferDesc desc;
    } all[] = {
        {&out->positions, {3 * nv * f, storage | dst, GPU_MEMORY_DEVICE, "positions SoA"}},
        {&out->tri_normals, {3 * nt * f, storage, GPU_MEMORY_DEVICE, "triangle normals SoA"}},
        {&out->vertex_normals, {3 * nv * f, storage, GPU_MEMORY_DEVICE, "vertex normals SoA"}},
        {&out->uvs, {2 * nv * f, storage | dst, GPU_MEMORY_DEVICE, "uvs SoA"}},
        {&out->vertices,
         {PC_VERTEX_FLOATS * nv * f,
          storage | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
          GPU_MEMORY_DEVICE, "vertices AoS"}},
        {&out->indices, {3 * nt * sizeof(uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT | dst,
                         GPU_MEMORY_DEVICE, "indices"}},
        {&out->readback, {PC_VERTEX_FLOATS * nv * f, dst, GPU_MEMORY_READBACK,
                          "vertices readback"}},
    };
    size_t count = sizeof all / sizeof all[0] - (desc->readback ? 0 : 1);
    for (size_t i = 0; i < count; i++)
        if (!gpu_buffer_create(ctx, &all[i].desc, all[i].buf, err))
            return false;
    GpuBufferDesc tables = {GPU_FRAMES_IN_FLIGHT * sizeof(CurlSegments), storage,
                            GPU_MEMORY_UPLOAD, "curl segments"};
    if (!gpu_buffer_create(ctx, &tables, &out->curl_tables, err))
        return false;
    GpuBufferDesc staging = {3 * nv * f, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, GPU_MEMORY_UPLOAD,
                             "positions staging"};
    for (uint32_t slot = 0; desc->upload && slot < GPU_FRAMES_IN_FLIGHT; slot++)
        if (!gpu_buffer_create(ctx, &staging, &out->staging[slot], err))
            return false;
    const void *uv_parts[] = {desc->u, desc->v};
    const VkDeviceSize uv_sizes[] = {nv * f, nv * f};
    const void *index_parts[] = {desc->indices};
    const VkDeviceSize index_sizes[] = {3 * nt * sizeof(uint32_t)};
    return upload_once(ctx, &out->uvs, uv_parts, uv_sizes, 2, err) &&
           upload_once(ctx, &out->indices, index_parts, index_sizes, 1, err);
}

bool gpu_page_create(const GpuContext *ctx, const GpuPageDesc *desc, GpuPage *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->nx = desc->nx;
    out->ny = desc->ny;
    out->width = desc->width;
    out->height = desc->height;
    out->vertex_count = (uint64_t)desc->nx * desc->ny;
    out->triangle_count = 2 * (uint64_t)(desc->nx - 1) * (desc->ny - 1);
    if (page_create(ctx, desc, out, err))
        return true;
    gpu_page_destroy(ctx, out);
    return false;
}

void gpu_page_destroy(const GpuContext *ctx, GpuPage *page)
{
    GpuBuffer *all[] = {&page->curl_tables, &page->readback, &page->indices, &page->vertices, &page->uvs,
                        &page->vertex_normals, &page->tri_normals, &page->positions};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        gpu_buffer_destroy(ctx, all[i]);
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        gpu_buffer_destroy(ctx, &page->staging[slot]);
    memset(page, 0, sizeof *page);
}

PcDeformPush gpu_page_deform_push(const GpuPage *page, const CurlParams *pose, uint32_t slot)
{
    return (PcDeformPush){
        .grid = gpu_page_push(page),
        .curl = *pose,
        .page = {{page->width, page->height, 0.0f, 0.0f}},
        .table = slot,
    };
}

CurlSegments *gpu_page_curl_table(const GpuPage *page, uint32_t slot)
{
    return (CurlSegments *)page->curl_tables.mapped + slot;
}

PcComputePush gpu_page_push(const GpuPage *page)
{
    /* check_limits keeps both counts inside 32 bits */
    return (PcComputePush){
        .nx = page->nx,
        .ny = page->ny,
        .vertex_count = (pc_uint)page->vertex_count,
        .triangle_count = (pc_uint)page->triangle_count,
    };
}

void gpu_page_staging_planes(const GpuPage *page, uint32_t slot, float **x, float **y, float **z)
{
    float *base = page->staging[slot].mapped;
    *x = base;
    *y = base + page->vertex_count;
    *z = base + 2 * page->vertex_count;
}

void gpu_page_record_frame_start(VkCommandBuffer cmd)
{
    /* Previous frame (kernels, vertex fetch, readback copy, as readers and writers) -> this
     * frame's copy and kernels, which rewrite the same resident buffers. */
    gpu_barrier(cmd,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                    VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void gpu_page_record_upload(const GpuContext *ctx, VkCommandBuffer cmd, const GpuPage *page,
                            uint32_t slot)
{
    gpu_label_begin(ctx, cmd, "upload");
    gpu_page_record_frame_start(cmd);
    vkCmdCopyBuffer(cmd, page->staging[slot].buffer, page->positions.buffer, 1,
                    &(VkBufferCopy){.size = page->staging[slot].size});
    /* upload -> tri_normals and pack read the positions. */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    gpu_label_end(ctx, cmd);
}

void gpu_page_record_readback(const GpuContext *ctx, VkCommandBuffer cmd, const GpuPage *page)
{
    gpu_label_begin(ctx, cmd, "readback");
    /* pack wrote the vertices -> this copy reads them. */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyBuffer(cmd, page->vertices.buffer, page->readback.buffer, 1,
                    &(VkBufferCopy){.size = page->vertices.size});
    /* copy -> host reads after the fence. */
    gpu_barrier_host_read(cmd);
    gpu_label_end(ctx, cmd);
}
