/* SPDX-License-Identifier: MIT */
#include "vk.h"

#include <dlfcn.h>
#include <string.h>

bool gpu_vk_open_loader(void **handle, PFN_vkGetInstanceProcAddr *out)
{
    /* one reference a context: the loader stays while any context (or the host) holds one */
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
    *handle = lib;
    *out = NULL;
    if (!lib)
        return false;
    /* POSIX's dlsym gives a function as a void *: copied, not cast, into its own type */
    void *entry = dlsym(lib, "vkGetInstanceProcAddr");
    if (entry)
        memcpy(out, &entry, sizeof *out);
    return *out != NULL;
}

void gpu_vk_close_loader(void *handle)
{
    if (handle)
        dlclose(handle);
}

#define LOAD_REQUIRED(name)                                                                        \
    vk->name = (PFN_##name)resolve(source, #name);                                                 \
    if (!vk->name && !*missing)                                                                    \
        *missing = #name;
#define LOAD_OPTIONAL(name) vk->name = (PFN_##name)resolve(source, #name);

bool gpu_vk_load_loader(GpuVk *vk, const char **missing)
{
    *missing = NULL;
    PFN_vkGetInstanceProcAddr resolve = vk->vkGetInstanceProcAddr;
    VkInstance source = VK_NULL_HANDLE;
    GPU_VK_LOADER(LOAD_REQUIRED)
    return !*missing;
}

bool gpu_vk_load_instance(GpuVk *vk, VkInstance instance, const char **missing)
{
    *missing = NULL;
    PFN_vkGetInstanceProcAddr resolve = vk->vkGetInstanceProcAddr;
    VkInstance source = instance;
    GPU_VK_INSTANCE(LOAD_REQUIRED)
    GPU_VK_INSTANCE_OPTIONAL(LOAD_OPTIONAL)
    return !*missing;
}

bool gpu_vk_load_device(GpuVk *vk, VkDevice device, const char **missing)
{
    *missing = NULL;
    /* the device's own entry points, past the loader's dispatch */
    PFN_vkGetDeviceProcAddr resolve = vk->vkGetDeviceProcAddr;
    VkDevice source = device;
    GPU_VK_DEVICE(LOAD_REQUIRED)
    GPU_VK_DEVICE_OPTIONAL(LOAD_OPTIONAL)
    return !*missing;
}
