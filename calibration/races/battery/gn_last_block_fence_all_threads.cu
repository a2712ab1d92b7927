// expect: none
// launch: --grid 4 --block 64 --arg buf:1024 --arg buf:1024:zero --arg buf:4:zero --arg buf:256:zero
// A last-block reduction where every thread writes its partial, fences, and the block barrier
// precedes thread 0's ticket (atomicAdd): the block that draws the last ticket fences and sums
// every block's partials.
extern "C" __global__ void gn_last_block_fence_all_threads(const float *in, float *partial,
                                                           unsigned *ticket, float *out) {
    __shared__ bool last;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[i] = in[i] * in[i];
    __threadfence();
    __syncthreads();
    if (t == 0) last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    __syncthreads();
    if (last) {
        __threadfence();
        float s = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) s += partial[b * blockDim.x + t];
        out[t] = s;
    }
}
