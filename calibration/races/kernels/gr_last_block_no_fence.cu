// expect: global_race
// launch: --grid 4 --block 64 --arg buf:16:zero --arg buf:4:zero --arg buf:4:zero
// The last-block reduction without __threadfence() before the ticket: atomicInc is relaxed, so a
// block's partial sum is not ordered before the last block's read of it.
extern "C" __global__ void gr_last_block_no_fence(float *partial, unsigned *ticket, float *total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = blockIdx.x + 1.0f;
        unsigned t = atomicInc(ticket, gridDim.x);
        last = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        float s = 0;
        for (int b = 0; b < gridDim.x; b++) s += partial[b];
        *total = s;
    }
}
