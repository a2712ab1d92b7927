// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:4:zero
// A shared tree reduction with a barrier after every step (race-free; the twin
// sr_warp_tail_no_syncwarp drops it for the last warp's steps).
extern "C" __global__ void gn_tree_reduce(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int k = 64; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[0] = s[0];
}
