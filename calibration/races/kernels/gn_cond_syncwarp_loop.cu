// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A warp-level inclusive scan in shared memory by warp 1 only (a warp-uniform branch), each step
// between two __syncwarp() (race-free).
extern "C" __global__ void gn_cond_syncwarp_loop(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x, l = t % 32;
    int v = in[t];
    if (t >= 32) {
        for (int o = 1; o < 32; o *= 2) {
            s[t] = v;
            __syncwarp();
            if (l >= o) v += s[t - o];
            __syncwarp();
        }
    }
    out[t] = v;
}
