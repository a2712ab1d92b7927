// expect: global_race
// launch: --grid 4 --block 32 --arg buf:512:zero --arg buf:4:zero --arg buf:512:zero
// gn_multi_producer_counter without the producers' __threadfence(): the relaxed atomicAdd releases
// nothing, so the data writes are not ordered before block 0's reads.
extern "C" __global__ void gr_multi_producer_no_fence(int *data, unsigned *count, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x != 0) {
        data[blockIdx.x * 32 + t] = blockIdx.x * 100 + t; // <-
        __syncthreads();
        if (t == 0) atomicAdd(count, 1u);
    } else {
        if (t == 0)
            while (atomicAdd(count, 0u) < gridDim.x - 1) {
            }
        __threadfence();
        __syncthreads();
        for (int b = 1; b < gridDim.x; ++b) out[b * 32 + t] = data[b * 32 + t]; // <-
    }
}
