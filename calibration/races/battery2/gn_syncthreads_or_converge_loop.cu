// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A relaxation loop done right: the neighbours are read into registers, a barrier, the own slot
// written, and __syncthreads_or() (itself a barrier) both orders the writes before the next reads
// and decides, the same for every thread, whether to go on.
extern "C" __global__ void gn_syncthreads_or_converge_loop(const int *in, int *out) {
    __shared__ int s[66];
    int t = threadIdx.x + 1;
    s[t] = in[t - 1] & 255;
    if (t == 1) s[0] = s[65] = 0;
    __syncthreads();
    int changed, it = 0;
    do {
        int v = (s[t - 1] + s[t] + s[t + 1]) / 3;
        __syncthreads();
        changed = v != s[t];
        s[t] = v;
    } while (__syncthreads_or(changed) && ++it < 16);
    out[t - 1] = s[t];
}
