// expect: race
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:4:zero
// A tree reduction that drops the barrier once 32 or fewer threads remain (the pre-Volta
// warp-synchronous tail) without __syncwarp(): lanes of one warp read what other lanes write in
// the same step, unordered under independent thread scheduling (race; gn_tree_reduce keeps the
// barrier).
extern "C" __global__ void sr_warp_tail_no_syncwarp(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int k = 64; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        if (k > 32) __syncthreads();
    }
    if (t == 0) out[0] = s[0];
}
