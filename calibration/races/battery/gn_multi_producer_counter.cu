// expect: none
// launch: --grid 4 --block 32 --arg buf:512:zero --arg buf:4:zero --arg buf:512:zero
// Blocks 1-3 write their data, fence, and count themselves in with atomicAdd; block 0 polls the
// counter with atomics until all three arrived, fences, and reads every block's data.
extern "C" __global__ void gn_multi_producer_counter(int *data, unsigned *count, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x != 0) {
        data[blockIdx.x * 32 + t] = blockIdx.x * 100 + t;
        __threadfence();
        __syncthreads();
        if (t == 0) atomicAdd(count, 1u);
    } else {
        if (t == 0)
            while (atomicAdd(count, 0u) < gridDim.x - 1) {
            }
        __threadfence();
        __syncthreads();
        for (int b = 1; b < gridDim.x; ++b) out[b * 32 + t] = data[b * 32 + t];
    }
}
