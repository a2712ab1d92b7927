// expect: none
// launch: --grid 4 --block 32 --arg buf:4:zero --arg buf:4:zero --arg buf:16:zero
// Twin of gr_lock_protected_plain_read: the value each block reports is read while it holds the
// lock.
extern "C" __global__ void gn_lock_protected_read_in_lock(int *lock, int *count, int *out) {
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) {
        }
        __threadfence();
        int c = *count + 1;
        *count = c;
        out[blockIdx.x] = c;
        __threadfence();
        atomicExch(lock, 0);
    }
}
