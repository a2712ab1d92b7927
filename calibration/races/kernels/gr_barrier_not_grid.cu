// expect: global_race
// launch: --grid 4 --block 64 --arg buf:1024:zero --arg buf:1024:zero
// __syncthreads() orders one block only: the element read belongs to the next block.
extern "C" __global__ void gr_barrier_not_grid(int *a, int *out) {
    int n = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i;
    __syncthreads();
    out[i] = a[(i + blockDim.x) % n];
}
