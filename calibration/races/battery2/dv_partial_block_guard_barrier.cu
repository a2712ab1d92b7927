// expect: divergent_barrier
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:512:zero --arg i32:100
// A bounds guard around a barrier: with n = 100 the last block's threads 36..63 skip the
// __syncthreads() the others wait at (block 0 is whole and takes it uniformly).
extern "C" __global__ void dv_partial_block_guard_barrier(const int *in, int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        s[t] = in[i];
        __syncthreads(); // <-
        out[i] = s[t ^ 1];
    }
}
