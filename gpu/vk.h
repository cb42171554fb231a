/* SPDX-License-Identifier: MIT */
/* A context's own Vulkan functions: every Vulkan call the library makes goes through the table of
 * the context that owns the object (ctx->vk.vkCmdDraw(...)), loaded through that context's
 * vkGetInstanceProcAddr: the loader's, opened by the context itself, or the host's. Nothing here
 * is process-wide, so contexts on other instances, devices, drivers or layers live side by side,
 * on as many threads. (volk's volkLoadDeviceTable would load a device's table, but through volk's
 * process-wide vkGetDeviceProcAddr, which only volkLoadInstance* sets: a global write per
 * context. The library therefore has no volk in it; its table lists the functions it calls, so a
 * call to one not loaded does not compile.) */
#ifndef PAGECURL_GPU_VK_H
#define PAGECURL_GPU_VK_H

#include <vulkan/vulkan.h>

#include <stdbool.h>

#ifndef VK_NO_PROTOTYPES
#error "the library calls Vulkan only through its contexts' tables: build with VK_NO_PROTOTYPES"
#endif

/* The loader's own, asked with no instance (vkEnumerateInstanceVersion is 1.1's: required). */
#define GPU_VK_LOADER(X)                                                                           \
    X(vkCreateInstance)                                                                            \
    X(vkEnumerateInstanceExtensionProperties)                                                      \
    X(vkEnumerateInstanceLayerProperties)                                                          \
    X(vkEnumerateInstanceVersion)

/* The instance's, each required. */
#define GPU_VK_INSTANCE(X)                                                                         \
    X(vkDestroyInstance)                                                                           \
    X(vkEnumeratePhysicalDevices)                                                                  \
    X(vkEnumerateDeviceExtensionProperties)                                                        \
    X(vkGetPhysicalDeviceProperties)                                                               \
    X(vkGetPhysicalDeviceProperties2)                                                              \
    X(vkGetPhysicalDeviceFeatures)                                                                 \
    X(vkGetPhysicalDeviceFeatures2)                                                                \
    X(vkGetPhysicalDeviceMemoryProperties)                                                         \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                                                    \
    X(vkGetPhysicalDeviceFormatProperties)                                                         \
    X(vkCreateDevice)                                                                              \
    X(vkGetDeviceProcAddr)

/* The instance's extensions' (VK_KHR_surface, VK_EXT_debug_utils), NULL where not enabled. The
 * debug functions are the instance's even where they take a device or command buffer: asked of
 * the instance as volk and the loader's trampolines have them. */
#define GPU_VK_INSTANCE_OPTIONAL(X)                                                                \
    X(vkGetPhysicalDeviceSurfaceSupportKHR)                                                        \
    X(vkDestroySurfaceKHR)                                                                         \
    X(vkCreateDebugUtilsMessengerEXT)                                                              \
    X(vkDestroyDebugUtilsMessengerEXT)                                                             \
    X(vkSetDebugUtilsObjectNameEXT)                                                                \
    X(vkCmdBeginDebugUtilsLabelEXT)                                                                \
    X(vkCmdEndDebugUtilsLabelEXT)

/* The device's, Vulkan 1.3 core: each required. */
#define GPU_VK_DEVICE(X)                                                                           \
    X(vkDestroyDevice)                                                                             \
    X(vkGetDeviceQueue)                                                                            \
    X(vkDeviceWaitIdle)                                                                            \
    X(vkQueueSubmit)                                                                               \
    X(vkQueueSubmit2)                                                                              \
    X(vkQueueWaitIdle)                                                                             \
    X(vkAllocateMemory)                                                                            \
    X(vkFreeMemory)                                                                                \
    X(vkMapMemory)                                                                                 \
    X(vkInvalidateMappedMemoryRanges)                                                              \
    X(vkCreateBuffer)                                                                              \
    X(vkDestroyBuffer)                                                                             \
    X(vkGetBufferMemoryRequirements)                                                               \
    X(vkBindBufferMemory)                                                                          \
    X(vkCreateImage)                                                                               \
    X(vkDestroyImage)                                                                              \
    X(vkGetImageMemoryRequirements)                                                                \
    X(vkBindImageMemory)                                                                           \
    X(vkCreateImageView)                                                                           \
    X(vkDestroyImageView)                                                                          \
    X(vkCreateSampler)                                                                             \
    X(vkDestroySampler)                                                                            \
    X(vkCreateShaderModule)                                                                        \
    X(vkDestroyShaderModule)                                                                       \
    X(vkCreateDescriptorSetLayout)                                                                 \
    X(vkDestroyDescriptorSetLayout)                                                                \
    X(vkCreateDescriptorPool)                                                                      \
    X(vkDestroyDescriptorPool)                                                                     \
    X(vkAllocateDescriptorSets)                                                                    \
    X(vkUpdateDescriptorSets)                                                                      \
    X(vkCreatePipelineLayout)                                                                      \
    X(vkDestroyPipelineLayout)                                                                     \
    X(vkCreateComputePipelines)                                                                    \
    X(vkCreateGraphicsPipelines)                                                                   \
    X(vkDestroyPipeline)                                                                           \
    X(vkCreateQueryPool)                                                                           \
    X(vkDestroyQueryPool)                                                                          \
    X(vkGetQueryPoolResults)                                                                       \
    X(vkCreateFence)                                                                               \
    X(vkDestroyFence)                                                                              \
    X(vkResetFences)                                                                               \
    X(vkWaitForFences)                                                                             \
    X(vkGetFenceStatus)                                                                            \
    X(vkCreateCommandPool)                                                                         \
    X(vkDestroyCommandPool)                                                                        \
    X(vkAllocateCommandBuffers)                                                                    \
    X(vkFreeCommandBuffers)                                                                        \
    X(vkBeginCommandBuffer)                                                                        \
    X(vkEndCommandBuffer)                                                                          \
    X(vkResetCommandBuffer)                                                                        \
    X(vkCmdPipelineBarrier2)                                                                       \
    X(vkCmdBeginRendering)                                                                         \
    X(vkCmdEndRendering)                                                                           \
    X(vkCmdSetViewport)                                                                            \
    X(vkCmdSetScissor)                                                                             \
    X(vkCmdSetBlendConstants)                                                                      \
    X(vkCmdBindPipeline)                                                                           \
    X(vkCmdBindDescriptorSets)                                                                     \
    X(vkCmdPushConstants)                                                                          \
    X(vkCmdBindVertexBuffers)                                                                      \
    X(vkCmdBindIndexBuffer)                                                                        \
    X(vkCmdDraw)                                                                                   \
    X(vkCmdDrawIndexed)                                                                            \
    X(vkCmdDispatch)                                                                               \
    X(vkCmdExecuteCommands)                                                                        \
    X(vkCmdWriteTimestamp2)                                                                        \
    X(vkCmdResetQueryPool)                                                                         \
    X(vkCmdCopyBuffer)                                                                             \
    X(vkCmdCopyImage)                                                                              \
    X(vkCmdBlitImage)                                                                              \
    X(vkCmdCopyBufferToImage)                                                                      \
    X(vkCmdCopyImageToBuffer)                                                                      \
    X(vkCmdClearColorImage)                                                                        \
    X(vkCmdClearAttachments)

/* The device's extensions' (VK_KHR_pipeline_executable_properties), NULL where not enabled. */
#define GPU_VK_DEVICE_OPTIONAL(X) X(vkGetPipelineExecutableStatisticsKHR)

typedef struct GpuVk {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
#define GPU_VK_MEMBER(name) PFN_##name name;
    GPU_VK_LOADER(GPU_VK_MEMBER)
    GPU_VK_INSTANCE(GPU_VK_MEMBER)
    GPU_VK_INSTANCE_OPTIONAL(GPU_VK_MEMBER)
    GPU_VK_DEVICE(GPU_VK_MEMBER)
    GPU_VK_DEVICE_OPTIONAL(GPU_VK_MEMBER)
#undef GPU_VK_MEMBER
} GpuVk;

/* Opens the Vulkan loader (libvulkan.so.1) for one context: *handle is its reference, closed by
 * gpu_vk_close. False where there is none. */
bool gpu_vk_open_loader(void **handle, PFN_vkGetInstanceProcAddr *out);
void gpu_vk_close_loader(void *handle);

/* Each stage fills its part of the table through the one before it; the first needs
 * vk->vkGetInstanceProcAddr set. False where a required function is missing, *missing its name. */
bool gpu_vk_load_loader(GpuVk *vk, const char **missing);
bool gpu_vk_load_instance(GpuVk *vk, VkInstance instance, const char **missing);
bool gpu_vk_load_device(GpuVk *vk, VkDevice device, const char **missing);

#endif
