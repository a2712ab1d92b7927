// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// The twin of sr_atomic_index: each ticket names its own shared slot.
extern "C" __global__ void gn_atomic_index_shared(int *out) {
    __shared__ int count;
    __shared__ int slot[64];
    int t = threadIdx.x;
    if (t == 0) count = 0;
    __syncthreads();
    int i = atomicAdd(&count, 1);
    slot[i] = t;
    __syncthreads();
    out[t] = slot[63 - t];
}
