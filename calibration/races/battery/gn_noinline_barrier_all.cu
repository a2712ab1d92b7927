// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// dv_noinline_barrier_helper called by every thread: the barrier in the callee orders the writes
// before the reads of other threads' elements.
__device__ __noinline__ void publish(int *s, int t, int v) {
    s[t] = v;
    __syncthreads();
}
extern "C" __global__ void gn_noinline_barrier_all(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    publish(s, t, in[t]);
    out[t] = s[63 - t];
}
