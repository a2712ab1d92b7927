// expect: global_race
// launch: --grid 2 --block 64 --arg buf:512:zero --arg i32:100
// Index i % n with n = 100 and 128 threads: threads 100..127 (block 1) wrap onto elements 0..27,
// which block 0's threads 0..27 write too. A grid of 100 threads or fewer would be race-free.
extern "C" __global__ void gr_wrap_index_grid(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i % n] = i;
}
