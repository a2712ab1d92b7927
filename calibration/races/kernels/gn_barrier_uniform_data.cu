// expect: none
// launch: --grid 2 --block 128 --arg buf:4:zero --arg buf:1024:zero
// A barrier under a condition on data every thread reads the same value of (n[0] is 0): all
// threads of the block take the same side and reach it.
extern "C" __global__ void gn_barrier_uniform_data(const int *n, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t * 3;
    if (n[0] == 0) {
        __syncthreads();
        out[blockIdx.x * 128 + t] = s[127 - t];
    } else {
        out[blockIdx.x * 128 + t] = t;
    }
}
