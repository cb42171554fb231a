// Linear invocation index for kernels dispatched by gpu_kernel_dispatch, which spills extents past
// 65535 workgroups into the y dimension.
uint pc_global_index()
{
    return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
}
