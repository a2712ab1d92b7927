// expect: global_race
// launch: --grid 2 --block 64 --arg buf:4:zero
// Block 0's threads count with atomicAdd; block 1's thread 0 resets the counter with a plain store:
// an atomic and a plain write of another thread race.
extern "C" __global__ void gr_atomic_count_plain_reset(int *count) {
    if (blockIdx.x == 0)
        atomicAdd(count, 1);
    else if (threadIdx.x == 0)
        *count = 0;
}
