// expect: global_race
// launch: --grid 2 --block 64 --arg buf:512:zero --arg buf:4:zero --arg buf:512:zero
// A hand-made grid barrier (both blocks resident): thread 0 of each block counts itself in with
// atomicAdd and spins on a volatile read of the count, with no fence on either side; after it
// each thread reads the element the other block wrote. The relaxed counter orders nothing.
extern "C" __global__ void gr_soft_grid_barrier_nofence(int *data, int *count, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = i * 2 + 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(count, 1);
        while (*(volatile int *)count < gridDim.x) {
        }
    }
    __syncthreads();
    out[i] = data[(i + blockDim.x) % (gridDim.x * blockDim.x)];
}
