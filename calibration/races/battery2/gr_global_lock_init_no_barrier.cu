// expect: global_race
// launch: --grid 1 --block 128 --arg buf:4 --arg buf:4:zero --arg buf:4:zero
// gn_global_lock_init_cas without the barrier after the lock's initialisation: another warp's
// atomicCAS may come before thread 0's plain store of 0 to the lock word, and nothing orders
// them (a data race on the lock word itself, whichever order a run happens to take).
extern "C" __global__ void gr_global_lock_init_no_barrier(int *lock, int *count, int *out) {
    int t = threadIdx.x;
    if (t == 0) *lock = 0; // <-
    if ((t & 31) == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { // <-
        }
        __threadfence();
        *count = *count + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
    __syncthreads();
    if (t == 0) *out = *count;
}
