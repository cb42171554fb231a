// Linear invocation index for kernels dispatched by gpu_kernel_dispatch, which spills extents past
// the per-dimension workgroup limit into the y dimension. The workgroup size comes in as the
// shader's PC_WG_* constant, the one number C and GLSL share.
uint pc_global_index(uint workgroup_size)
{
    return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * workgroup_size;
}
