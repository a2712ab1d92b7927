// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A barrier inside a function the compiler keeps as a call (__noinline__), called by the first 16
// threads only: the barrier is divergent though no __syncthreads() is under the condition.
__device__ __noinline__ void publish(int *s, int t, int v) {
    s[t] = v;
    __syncthreads(); // <-
}
extern "C" __global__ void dv_noinline_barrier_helper(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 0;
    if (t < 16) publish(s, t, in[t]);
    out[t] = s[t];
}
