// expect: divergent_barrier
// launch: --grid 2 --block 64 --arg buf:512:zero --arg i32:48
// gn_barrier_param_n_equal launched with n = 48 < blockDim.x: threads 48-63 skip the barrier the
// others wait at (barrier divergence).
extern "C" __global__ void dv_barrier_param_n_less(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t + blockIdx.x;
    if (t < n) __syncthreads();
    out[blockIdx.x * 64 + t] = s[63 - t];
}
