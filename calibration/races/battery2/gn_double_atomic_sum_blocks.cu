// expect: none
// launch: --grid 4 --block 32 --arg buf:512 --arg buf:8:zero --arg buf:512:zero
// Twin of gr_double_atomic_vs_plain_read: the lane that wants the running sum gets it from its
// own atomicAdd's return value, so every access to the double is atomic.
extern "C" __global__ void gn_double_atomic_sum_blocks(const float *in, double *sum, double *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double old = atomicAdd(sum, (double)in[i]);
    if (threadIdx.x == 0) out[blockIdx.x] = old;
}
