// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// A barrier under a condition on each thread's input element: the threads disagree on it.
extern "C" __global__ void dv_data_dependent(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    if ((in[t] & 1) != 0) __syncthreads();
    out[t] = s[t];
}
