// expect: global_race
// launch: --grid 2 --block 64 --arg buf:4:zero --arg buf:4:zero --arg buf:4:zero
// Message passing where the fence is another thread's: thread 0 of block 0 writes the data,
// thread 32 of the same block (no barrier between) fences and sets the flag. A fence orders only
// its own thread's accesses, so block 1's consumer, which acquires the flag, is not ordered after
// the data write.
extern "C" __global__ void gr_fence_by_other_thread(int *data, int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        if (t == 0) *data = 42; // <-
        if (t == 32) {
            __threadfence();
            atomicExch(flag, 1);
        }
    } else if (t == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        *out = *data; // <-
    }
}
