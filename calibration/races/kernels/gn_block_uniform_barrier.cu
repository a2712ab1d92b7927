// expect: none
// launch: --grid 4 --block 64 --arg buf:1024:zero
// A barrier inside a branch on blockIdx: every thread of a block takes the same side.
extern "C" __global__ void gn_block_uniform_barrier(int *a) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t + blockIdx.x;
    if (blockIdx.x % 2 == 0) {
        __syncthreads();
        a[blockIdx.x * 64 + t] = s[63 - t];
    } else {
        a[blockIdx.x * 64 + t] = s[t];
    }
}
