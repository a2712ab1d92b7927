// expect: global_race
// launch: --grid 2 --block 64 --arg buf:4:zero --arg buf:512:zero
// Atomic increments and a plain read of the same counter by every thread.
extern "C" __global__ void gr_atomic_vs_read(int *count, int *seen) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(count, 1);
    seen[i] = *count;
}
