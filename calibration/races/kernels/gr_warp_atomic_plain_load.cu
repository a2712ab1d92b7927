// expect: global_race
// launch: --grid 1 --block 32 --arg buf:4:zero --arg buf:128:zero
// One warp: lanes 0-15 count into a global word with atomicAdd while lanes 16-31 read the same
// word with a plain load. An atomic and a plain access of different threads race (not morally
// strong), even within a warp.
extern "C" __global__ void gr_warp_atomic_plain_load(int *count, int *out) {
    int t = threadIdx.x;
    if (t < 16)
        atomicAdd(count, t + 1);
    else
        out[t] = *count;
}
