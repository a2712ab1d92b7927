// expect: none
// launch: --grid 2 --block 64 --arg buf:512:zero --arg buf:4:zero --arg buf:512:zero
// gr_soft_grid_barrier_nofence with __threadfence() before the atomicAdd and after the spin: the
// arriving block's fence and the waiting block's fence synchronise through the count.
extern "C" __global__ void gn_soft_grid_barrier_fence(int *data, int *count, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = i * 2 + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(count, 1);
        while (*(volatile int *)count < gridDim.x) {
        }
        __threadfence();
    }
    __syncthreads();
    out[i] = data[(i + blockDim.x) % (gridDim.x * blockDim.x)];
}
