// expect: race
// launch: --grid 1 --block 64 --arg buf:4:zero
// Shared atomics by warp 0 and a plain store of warp 1 to the same counter, with no barrier.
extern "C" __global__ void sr_shared_atomic_plain_write(int *out) {
    __shared__ int c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    if (threadIdx.x < 32)
        atomicAdd(&c, 1);
    else if (threadIdx.x == 32)
        c = 100;
    __syncthreads();
    if (threadIdx.x == 0) *out = c;
}
