// expect: global_race
// launch: --grid 4 --block 32 --arg buf:4:zero --arg buf:4:zero --arg buf:16:zero
// A spin lock done right (atomicCAS, fence, update, fence, atomicExch) around a plain counter, but
// each block's thread 0 reads the counter again after releasing the lock: that read is not
// ordered with the other blocks' writes under the lock.
extern "C" __global__ void gr_lock_protected_plain_read(int *lock, int *count, int *out) {
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) {
        }
        __threadfence();
        *count = *count + 1; // <-
        __threadfence();
        atomicExch(lock, 0);
        out[blockIdx.x] = *count; // <-
    }
}
