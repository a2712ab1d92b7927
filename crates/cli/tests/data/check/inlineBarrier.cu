// A named barrier (__barrier_sync, an intrinsic of sm_30_intrinsics.hpp) in a device function the
// compiler inlines, called in a branch only part of the block takes: the finding names line 6 (the
// user's call), with the header's line as context.
__device__ __forceinline__ void arrive(int id)
{
    __barrier_sync(id);
}

__global__ void divergentNamedBarrier(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 16) {
        arrive(0);
    }
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
