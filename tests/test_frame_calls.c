/* SPDX-License-Identifier: MIT */
/* The Vulkan calls a frame makes on the host (book_view_frame: the chain, the render, the
 * submission), counted by wrapping the entry points in the context's own table (gpu/vk.h): on a
 * fast GPU each costs about a microsecond of the CPU's frame, so their number is the
 * load-independent measure of that time.
 * The bench's frame (offscreen, timed, 64x90, 1280x720) at the high tier with 4x MSAA, whose
 * commands are recorded once (a slot's first frame) and submitted again, and at the low tier,
 * which records every frame, on lavapipe with the validation layer (any message fails). The
 * benchmark's --repeat R records each kernel R times.
 * usage: test_frame_calls [--no-validation] */
#include "../bench/chain_record.h"
#include "../book/book.h"
#include "../book/leaf.h"
#include "../book/view.h"
#include "gpu_check.h"

#include <string.h>

#define WIDTH   1280
#define HEIGHT  720
#define WARMUP  4
#define COUNTED 8
/* The most calls a frame may make (BENCHMARKS.md, Vulkan calls a frame, says what they are). The
 * frames counted are of a closed book's first turn, whose camera widens every frame: the low
 * tier draws the still pages in each itself, not into its cache and over it, and each flat page
 * in up to five pieces (with the shadow's code only where the leaf's shadow can fall), its
 * blended round those pieces cut to the strips along its edges (a scissor and a draw each, ~8
 * more, for a millisecond of rasterising on lavapipe). Both average the shadow map down its
 * levels: a barrier and a blit a level (5 high, 4 low). */
#define HIGH_MAX 57
#define LOW_MAX  96
/* A frame that submits its slot's commands again: the fence's wait and reset, the timer's read
 * and the submission. */
#define KEPT_MAX 4

/* The wrapped entry points: name, return type, parameters, arguments. */
#define FRAME_CALLS(X, V)                                                                          \
    V(vkCmdPipelineBarrier2, (VkCommandBuffer a, const VkDependencyInfo *b), (a, b))               \
    V(vkCmdBeginRendering, (VkCommandBuffer a, const VkRenderingInfo *b), (a, b))                  \
    V(vkCmdEndRendering, (VkCommandBuffer a), (a))                                                 \
    V(vkCmdSetViewport, (VkCommandBuffer a, uint32_t b, uint32_t c, const VkViewport *d),          \
      (a, b, c, d))                                                                                \
    V(vkCmdSetScissor, (VkCommandBuffer a, uint32_t b, uint32_t c, const VkRect2D *d),             \
      (a, b, c, d))                                                                                \
    V(vkCmdBindPipeline, (VkCommandBuffer a, VkPipelineBindPoint b, VkPipeline c), (a, b, c))      \
    V(vkCmdBindDescriptorSets,                                                                     \
      (VkCommandBuffer a, VkPipelineBindPoint b, VkPipelineLayout c, uint32_t d, uint32_t e,       \
       const VkDescriptorSet *f, uint32_t g, const uint32_t *h),                                   \
      (a, b, c, d, e, f, g, h))                                                                    \
    V(vkCmdPushConstants,                                                                          \
      (VkCommandBuffer a, VkPipelineLayout b, VkShaderStageFlags c, uint32_t d, uint32_t e,        \
       const void *f),                                                                             \
      (a, b, c, d, e, f))                                                                          \
    V(vkCmdBindVertexBuffers,                                                                      \
      (VkCommandBuffer a, uint32_t b, uint32_t c, const VkBuffer *d, const VkDeviceSize *e),       \
      (a, b, c, d, e))                                                                             \
    V(vkCmdBindIndexBuffer, (VkCommandBuffer a, VkBuffer b, VkDeviceSize c, VkIndexType d),        \
      (a, b, c, d))                                                                                \
    V(vkCmdDrawIndexed,                                                                            \
      (VkCommandBuffer a, uint32_t b, uint32_t c, uint32_t d, int32_t e, uint32_t f),              \
      (a, b, c, d, e, f))                                                                          \
    V(vkCmdDispatch, (VkCommandBuffer a, uint32_t b, uint32_t c, uint32_t d), (a, b, c, d))        \
    V(vkCmdWriteTimestamp2,                                                                        \
      (VkCommandBuffer a, VkPipelineStageFlags2 b, VkQueryPool c, uint32_t d), (a, b, c, d))       \
    V(vkCmdResetQueryPool, (VkCommandBuffer a, VkQueryPool b, uint32_t c, uint32_t d),             \
      (a, b, c, d))                                                                                \
    V(vkCmdCopyImage,                                                                              \
      (VkCommandBuffer a, VkImage b, VkImageLayout c, VkImage d, VkImageLayout e, uint32_t f,      \
       const VkImageCopy *g),                                                                      \
      (a, b, c, d, e, f, g))                                                                       \
    V(vkCmdBlitImage,                                                                              \
      (VkCommandBuffer a, VkImage b, VkImageLayout c, VkImage d, VkImageLayout e, uint32_t f,      \
       const VkImageBlit *g, VkFilter h),                                                          \
      (a, b, c, d, e, f, g, h))                                                                    \
    V(vkCmdCopyBuffer,                                                                             \
      (VkCommandBuffer a, VkBuffer b, VkBuffer c, uint32_t d, const VkBufferCopy *e),              \
      (a, b, c, d, e))                                                                             \
    V(vkCmdCopyBufferToImage,                                                                      \
      (VkCommandBuffer a, VkBuffer b, VkImage c, VkImageLayout d, uint32_t e,                      \
       const VkBufferImageCopy *f),                                                                \
      (a, b, c, d, e, f))                                                                          \
    V(vkCmdCopyImageToBuffer,                                                                      \
      (VkCommandBuffer a, VkImage b, VkImageLayout c, VkBuffer d, uint32_t e,                      \
       const VkBufferImageCopy *f),                                                                \
      (a, b, c, d, e, f))                                                                          \
    V(vkCmdBeginDebugUtilsLabelEXT, (VkCommandBuffer a, const VkDebugUtilsLabelEXT *b), (a, b))    \
    V(vkCmdEndDebugUtilsLabelEXT, (VkCommandBuffer a), (a))                                        \
    X(vkQueueSubmit, (VkQueue a, uint32_t b, const VkSubmitInfo *c, VkFence d), (a, b, c, d))      \
    X(vkBeginCommandBuffer, (VkCommandBuffer a, const VkCommandBufferBeginInfo *b), (a, b))        \
    X(vkEndCommandBuffer, (VkCommandBuffer a), (a))                                                \
    X(vkResetCommandBuffer, (VkCommandBuffer a, VkCommandBufferResetFlags b), (a, b))              \
    X(vkResetFences, (VkDevice a, uint32_t b, const VkFence *c), (a, b, c))                        \
    X(vkWaitForFences, (VkDevice a, uint32_t b, const VkFence *c, VkBool32 d, uint64_t e),         \
      (a, b, c, d, e))                                                                             \
    X(vkGetQueryPoolResults,                                                                       \
      (VkDevice a, VkQueryPool b, uint32_t c, uint32_t d, size_t e, void *f, VkDeviceSize g,       \
       VkQueryResultFlags h),                                                                      \
      (a, b, c, d, e, f, g, h))

#define ENUM(name, params, args) CALL_##name,
enum { FRAME_CALLS(ENUM, ENUM) CALL_COUNT };
#define NAME(name, params, args) #name,
static const char *const CALL_NAMES[CALL_COUNT] = {FRAME_CALLS(NAME, NAME)};

/* Vulkan's entry points carry no user data, so what the wrappers count and the context's own
 * functions they call through live at file scope (the test's; the library has none). */
static unsigned long calls[CALL_COUNT];
#define REAL(name, params, args) static PFN_##name real_##name;
FRAME_CALLS(REAL, REAL)
#define WRAP_RESULT(name, params, args)                                                            \
    static VKAPI_ATTR VkResult VKAPI_CALL counted_##name params                                    \
    {                                                                                              \
        calls[CALL_##name]++;                                                                      \
        return real_##name args;                                                                   \
    }
#define WRAP_VOID(name, params, args)                                                              \
    static VKAPI_ATTR void VKAPI_CALL counted_##name params                                        \
    {                                                                                              \
        calls[CALL_##name]++;                                                                      \
        real_##name args;                                                                          \
    }
FRAME_CALLS(WRAP_RESULT, WRAP_VOID)

/* The context's table, its entries wrapped: every call the frame makes goes through it. */
static void count_calls(GpuVk *vk)
{
#define SWAP(name, params, args)                                                                   \
    if (vk->name && vk->name != counted_##name) {                                                  \
        real_##name = vk->name;                                                                    \
        vk->name = counted_##name;                                                                 \
    }
    FRAME_CALLS(SWAP, SWAP)
#undef SWAP
}

static unsigned long total(const unsigned long *c)
{
    unsigned long n = 0;
    for (int i = 0; i < CALL_COUNT; i++)
        n += c[i];
    return n;
}

/* The bench's frame at turn progress t. */
static bool frame(const GpuContext *ctx, BookView *view, float t, GpuError *err)
{
    BookLeaf *leaf = view->leaf;
    BookViewFrame f = {.pose = mesh_curl_pose(t, 0.25f, leaf->grid.width, leaf->grid.height),
                       .spread = BOOK_SPREAD_FIRST_TURN};
    f.spread.progress = t;
    return book_view_frame(ctx, view, &f, NULL, err);
}

/* Counts a tier's calls per frame over COUNTED frames after WARMUP; returns the most any frame
 * made (0 on failure), and in `first` the first frame's (which records). */
static unsigned long count_tier(CheckState *s, const GpuContext *ctx, BookLeaf *leaf,
                                GpuQuality quality, const char *name, unsigned long *first)
{
    GpuError err = {0};
    BookView view;
    BookViewDesc desc = {.kind = BOOK_VIEW_OFFSCREEN,
                         .width = WIDTH,
                         .height = HEIGHT,
                         .renderer = {.quality = quality},
                         .timed = true,
                         .leaves = 2};
    if (!book_view_create(ctx, &desc, leaf, &view, &err)) {
        CHECK(s, false, "%s view: %s", name, err.message);
        return 0;
    }
    bool ok = true;
    for (int f = 0; ok && f < WARMUP; f++) {
        memset(calls, 0, sizeof calls);
        ok = frame(ctx, &view, 0.1f + 0.02f * (float)f, &err);
        if (f == 0)
            *first = total(calls);
    }
    unsigned long sum[CALL_COUNT] = {0}, most = 0;
    for (int f = 0; ok && f < COUNTED; f++) {
        memset(calls, 0, sizeof calls);
        ok = frame(ctx, &view, 0.2f + 0.05f * (float)f, &err);
        unsigned long n = total(calls);
        most = n > most ? n : most;
        for (int i = 0; i < CALL_COUNT; i++)
            sum[i] += calls[i];
    }
    ok = ok && book_view_wait(ctx, &view, &err);
    CHECK(s, ok, "%s frames: %s", name, err.message);
    printf("%s tier (%d samples), Vulkan calls per frame (mean of %d frames, most %lu; the "
           "first frame %lu):\n",
           name, (int)view.renderer.samples, COUNTED, most, *first);
    for (int i = 0; i < CALL_COUNT; i++)
        if (sum[i])
            printf("  %-30s %5.1f\n", CALL_NAMES[i], (double)sum[i] / COUNTED);
    book_view_destroy(ctx, &view);
    return ok ? most : 0;
}

/* The kernels' dispatches in the first frame (which records) of a view whose kernels run `repeat`
 * times each (the benchmark's --repeat); 0 on failure. */
static unsigned long dispatches(CheckState *s, const GpuContext *ctx, BookLeaf *leaf,
                                uint32_t repeat)
{
    GpuError err = {0};
    BookView view;
    BookViewDesc desc = {.kind = BOOK_VIEW_OFFSCREEN,
                         .width = 64,
                         .height = 64,
                         .timed = true,
                         .record = bench_chain_record,
                         .record_user = &(BenchChainRecord){.repeat = repeat, .stage_times = true},
                         .leaves = 2};
    bool ok = book_view_create(ctx, &desc, leaf, &view, &err);
    memset(calls, 0, sizeof calls);
    ok = ok && frame(ctx, &view, 0.3f, &err);
    unsigned long n = calls[CALL_vkCmdDispatch];
    ok = ok && book_view_wait(ctx, &view, &err);
    CHECK(s, ok, "repeat %u: %s", repeat, err.message);
    book_view_destroy(ctx, &view);
    return ok ? n : 0;
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    GpuMessages messages = {0};
    GpuContext ctx;
    if (!gpu_check_context(argc, argv, "test_frame_calls", &messages, &ctx))
        return 1;
    count_calls(&ctx.vk);
    BookLeaf leaf;
    GpuError err = {0};
    if (book_leaf_create(&ctx, &(BookLeafDesc){.nx = 64, .ny = 90}, &leaf, &err)) {
        unsigned long first = 0,
                      high = count_tier(&s, &ctx, &leaf, GPU_QUALITY_HIGH, "high", &first);
        CHECK(&s, first > KEPT_MAX && first <= HIGH_MAX,
              "the high tier's first frame made %lu Vulkan calls (%d to %d expected)", first,
              KEPT_MAX + 1, HIGH_MAX);
        CHECK(&s, high > 0 && high <= KEPT_MAX,
              "the high tier's frames submitted again made %lu Vulkan calls (at most %d expected)",
              high, KEPT_MAX);
        unsigned long low = count_tier(&s, &ctx, &leaf, GPU_QUALITY_LOW, "low", &first);
        CHECK(&s, low > 0 && low <= LOW_MAX,
              "the low tier's frame made %lu Vulkan calls (at most %d expected)", low, LOW_MAX);
        unsigned long once = dispatches(&s, &ctx, &leaf, 1), five = dispatches(&s, &ctx, &leaf, 5);
        printf("kernel dispatches in a frame: %lu, with --repeat 5 %lu\n", once, five);
        CHECK(&s, once > 0 && five == 5 * once,
              "a frame's kernels repeated 5 times made %lu dispatches (5 x %lu expected)", five,
              once);
        book_leaf_destroy(&ctx, &leaf);
    } else {
        CHECK(&s, false, "page: %s", err.message);
    }
    gpu_check_finish(&s, &ctx, &messages);
    return check_finish(&s, "test_frame_calls");
}
