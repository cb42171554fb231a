/* SPDX-License-Identifier: MIT */
// Linear invocation index for kernels dispatched by gpu_kernel_dispatch, which spills extents past
// the per-dimension workgroup limit into the y dimension. The workgroup size comes in as the
// shader's PC_WG_* constant: reading gl_WorkGroupSize instead (LocalSizeId in glslc's Vulkan 1.3
// output) gives wrong y rows with NVIDIA's driver 580.159 (4096^2 pages lose half their
// vertices).
uint pc_global_index(uint workgroup_size)
{
    return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * workgroup_size;
}
