// expect: none
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg buf:1024:zero
// Threads exchange within their block across a __syncthreads().
extern "C" __global__ void gn_block_barrier(int *a, int *out) {
    int base = blockIdx.x * blockDim.x;
    int t = threadIdx.x;
    a[base + t] = t * t;
    __syncthreads();
    out[base + t] = a[base + (t + 1) % blockDim.x];
}
