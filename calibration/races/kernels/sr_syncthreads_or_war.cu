// expect: race
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// gn_syncthreads_count_only_barrier with the second barrier (__syncthreads_and) removed: the
// next iteration's writes race with the reads of this one.
extern "C" __global__ void sr_syncthreads_or_war(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x, v = in[t];
    for (int it = 0; it < 3; ++it) {
        s[t] = v;
        int c = __syncthreads_or(v > 0);
        v = s[(t + 1 + it) % 128] + c;
    }
    out[t] = v;
}
