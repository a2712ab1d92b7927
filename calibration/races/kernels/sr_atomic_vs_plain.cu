// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// Shared atomics by every thread and a plain read of the same word with no barrier between.
extern "C" __global__ void sr_atomic_vs_plain(int *out) {
    __shared__ int c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    atomicAdd(&c, 1);
    out[threadIdx.x] = c;
}
