// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero --arg i32:128
// The kernel of dv_partial_block_guard_barrier with n = 128, the launch's thread count: no
// partial block, every thread takes the guarded barrier.
extern "C" __global__ void gn_partial_block_guard_full(const int *in, int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        s[t] = in[i];
        __syncthreads();
        out[i] = s[t ^ 1];
    }
}
