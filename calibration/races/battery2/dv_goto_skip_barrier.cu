// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A `goto` out of a loop of barrier phases when a thread's value reaches zero: threads with
// small values leave before the barrier the others wait at.
extern "C" __global__ void dv_goto_skip_barrier(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int v = t;
    for (int k = 0; k < 4; ++k) {
        if (v < 16) goto done;
        s[t] = v;
        __syncthreads(); // <-
        v = s[t ^ 1] - 16;
    }
done:
    out[t] = v + (in[t] & 1);
}
