// expect: none
// launch: --grid 4 --block 64 --arg buf:1024 --arg buf:64:zero
// Twin of gr_histogram_plain_merge merging with atomicAdd.
extern "C" __global__ void gn_histogram_atomic_merge(const int *in, int *bins) {
    __shared__ int h[16];
    int t = threadIdx.x;
    if (t < 16) h[t] = 0;
    __syncthreads();
    atomicAdd(&h[in[blockIdx.x * blockDim.x + t] & 15], 1);
    __syncthreads();
    if (t < 16) atomicAdd(&bins[t], h[t]);
}
