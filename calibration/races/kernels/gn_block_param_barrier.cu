// expect: none
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg i32:2
// Barriers under conditions every thread of a block agrees on: the block index and a kernel
// parameter (nested), then a loop whose trip count is a parameter: no divergence, no race.
extern "C" __global__ void gn_block_param_barrier(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, v = 0;
    if (blockIdx.x % 2 == 0) {
        if (n > 1) {
            s[t] = t;
            __syncthreads();
            v = s[63 - t];
            __syncthreads();
        }
    }
    for (int k = 0; k < n; k++) {
        s[t] = v + k;
        __syncthreads();
        v += s[(t + 1) % 64];
        __syncthreads();
    }
    out[blockIdx.x * 64 + t] = v;
}
