// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// A two-step exchange loop whose only barriers are __syncthreads_count() and __syncthreads_and():
// each orders the writes before it against the reads after it, and the next iteration's writes
// against this iteration's reads (race-free).
extern "C" __global__ void gn_syncthreads_count_only_barrier(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x, v = in[t];
    for (int it = 0; it < 3; ++it) {
        s[t] = v;
        int c = __syncthreads_count(v > 0);
        v = s[(t + 1 + it) % 128] + c;
        if (!__syncthreads_and(v != 12345)) v = 0;
    }
    out[t] = v;
}
