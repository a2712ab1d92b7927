// expect: global_race
// launch: --grid 4 --block 64 --arg buf:1024 --arg buf:64:zero
// A per-block shared histogram built right (atomics, barriers), merged into the global bins with
// a plain `+=`: the four blocks read-modify-write the same bins.
extern "C" __global__ void gr_histogram_plain_merge(const int *in, int *bins) {
    __shared__ int h[16];
    int t = threadIdx.x;
    if (t < 16) h[t] = 0;
    __syncthreads();
    atomicAdd(&h[in[blockIdx.x * blockDim.x + t] & 15], 1);
    __syncthreads();
    if (t < 16) bins[t] += h[t]; // <-
}
