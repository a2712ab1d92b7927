// expect: none
// launch: --grid 3 --block 64 --arg buf:768:zero
// A `switch` on blockIdx.x whose cases each hold their own __syncthreads(): every thread of a block
// takes the same case, so each block's threads reach the same barrier (race-free, no divergence).
extern "C" __global__ void gn_switch_block_uniform_barrier(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x, b = blockIdx.x;
    s[t] = t + b;
    switch (b) {
    case 0:
        __syncthreads();
        out[b * 64 + t] = s[63 - t];
        break;
    case 1:
        __syncthreads();
        out[b * 64 + t] = s[(t + 1) % 64] * 2;
        break;
    default:
        __syncthreads();
        out[b * 64 + t] = -s[(t + 2) % 64];
        break;
    }
}
