// expect: none
// launch: --grid 4 --block 64 --arg buf:16:zero --arg buf:4:zero --arg buf:4:zero
// Each block writes its partial sum, fences and takes a ticket; the last block sums the partials.
extern "C" __global__ void gn_last_block(float *partial, unsigned *ticket, float *total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = blockIdx.x + 1.0f;
        __threadfence();
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
