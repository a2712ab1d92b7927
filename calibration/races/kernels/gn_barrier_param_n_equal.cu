// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero --arg i32:64
// `if (threadIdx.x < n) __syncthreads();` with n a kernel argument equal to blockDim.x: every
// thread of the block takes the branch, so the barrier is not divergent in this launch.
extern "C" __global__ void gn_barrier_param_n_equal(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t + blockIdx.x;
    if (t < n) __syncthreads();
    out[blockIdx.x * 64 + t] = s[63 - t];
}
