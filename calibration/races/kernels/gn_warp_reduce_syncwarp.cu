// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:4:zero
// The last warp's steps of a reduction ordered by __syncwarp(): each step reads into a register,
// synchronises, then writes (race-free).
extern "C" __global__ void gn_warp_reduce_syncwarp(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        __syncwarp();
        for (int k = 16; k > 0; k /= 2) {
            int v = 0;
            if (t < k) v = s[t + k];
            __syncwarp();
            if (t < k) s[t] += v;
            __syncwarp();
        }
    }
    if (t == 0) out[0] = s[0];
}
