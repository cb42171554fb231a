/* SPDX-License-Identifier: MIT */
/* How gpu/ says a failed Vulkan call (gpu/error.c): one line in the user's terms, what happened
 * and the Vulkan function, never the call's expression or the source file it is in (a line read
 * "vkBindImageMemory(ctx->device, out->image, out->memory, 0) failed: ... (.../gpu/image.c:31)");
 * those go to stderr with PAGECURL_DEBUG only. Plain strings, no device. */
#include "../gpu/error.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* as GPU_TRY stringifies a call through the context's table: the table is no part of the name */
static const char CALL[] = "ctx->vk.vkBindImageMemory(ctx->device, out->image, out->memory, 0)";
static const char FILE_NAME[] = "/home/someone/pagecurl/gpu/image.c";

/* The line for `result`, and what went to stderr meanwhile (into `debug`). */
static void say(VkResult result, char *line, size_t size, char *debug, size_t debug_size)
{
    FILE *caught = tmpfile();
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    if (caught)
        dup2(fileno(caught), STDERR_FILENO);
    GpuError err = {0};
    gpu_error_vk(&err, result, CALL, FILE_NAME, 31);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    snprintf(line, size, "%s", err.message);
    debug[0] = '\0';
    if (caught) {
        rewind(caught);
        size_t n = fread(debug, 1, debug_size - 1, caught);
        debug[n] = '\0';
        fclose(caught);
    }
}

int main(void)
{
    CheckState s = {0};
    static const struct {
        VkResult result;
        const char *want;
    } cases[] = {
        {VK_ERROR_DEVICE_LOST, "the GPU was lost (vkBindImageMemory: VK_ERROR_DEVICE_LOST)"},
        {VK_ERROR_OUT_OF_DEVICE_MEMORY,
         "out of GPU memory (vkBindImageMemory: VK_ERROR_OUT_OF_DEVICE_MEMORY)"},
        {VK_ERROR_OUT_OF_HOST_MEMORY,
         "out of memory (vkBindImageMemory: VK_ERROR_OUT_OF_HOST_MEMORY)"},
        {VK_ERROR_INITIALIZATION_FAILED,
         "the Vulkan driver failed (vkBindImageMemory: VK_ERROR_INITIALIZATION_FAILED)"},
    };
    char line[512], debug[1024];
    unsetenv(GPU_DEBUG_ENV);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        say(cases[i].result, line, sizeof line, debug, sizeof debug);
        CHECK(&s, !strcmp(line, cases[i].want), "got \"%s\", want \"%s\"", line, cases[i].want);
        CHECK(&s, !strstr(line, "ctx->") && !strstr(line, "image.c"),
              "the expression or the path in the user's line: %s", line);
        CHECK(&s, debug[0] == '\0', "said on stderr without %s: %s", GPU_DEBUG_ENV, debug);
    }
    /* a developer's: the whole expression and where */
    setenv(GPU_DEBUG_ENV, "1", 1);
    say(VK_ERROR_DEVICE_LOST, line, sizeof line, debug, sizeof debug);
    CHECK(&s, strstr(debug, CALL) && strstr(debug, "gpu/image.c:31"),
          "%s=1: the expression and the source line not said: %s", GPU_DEBUG_ENV, debug);
    CHECK(&s, !strcmp(line, cases[0].want), "%s=1 changed the line: %s", GPU_DEBUG_ENV, line);
    setenv(GPU_DEBUG_ENV, "0", 1);
    say(VK_ERROR_DEVICE_LOST, line, sizeof line, debug, sizeof debug);
    CHECK(&s, debug[0] == '\0', "%s=0 said: %s", GPU_DEBUG_ENV, debug);
    return check_finish(&s, "test_gpu_error");
}
