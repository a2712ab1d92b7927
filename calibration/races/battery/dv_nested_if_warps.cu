// expect: divergent_barrier
// launch: --grid 1 --block 128 --arg buf:512:zero
// A barrier inside two nested conditions on the thread index: warps 0 and 2 reach it, warps 1 and 3
// do not (they go on to the second barrier), so the two barriers are matched with each other.
extern "C" __global__ void dv_nested_if_warps(int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 96) {
        if ((t & 63) < 32) __syncthreads(); // <-
    }
    __syncthreads(); // <-
    out[t] = s[127 - t];
}
