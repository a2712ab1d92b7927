// expect: global_race
// launch: --grid 1 --block 128 --arg buf:4:zero --arg buf:4:zero
// Every thread counts itself with atomicAdd; thread 0 then reads the counter with a plain load and
// no barrier: the other warps' atomics are not ordered before that read.
extern "C" __global__ void gr_atomic_count_read_early(int *count, int *out) {
    atomicAdd(count, 1); // <-
    if (threadIdx.x == 0) *out = *count; // <-
}
