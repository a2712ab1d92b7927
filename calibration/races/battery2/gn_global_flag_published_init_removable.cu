// expect: none
// launch: --grid 1 --block 128 --arg buf:4 --arg buf:4:zero --arg buf:16:zero
// Look-alike of gn_global_lock_init_cas whose barrier is truly removable: thread 0 initialises a
// global counter, adds to it after the barrier and publishes it by a fence and an atomicExch of a
// flag the host zeroed; lane 0 of each other warp waits for the flag (atomicAdd of 0: it
// acquires) before it reads the counter. Each reader waits for a value written after both of
// thread 0's stores, so it is ordered after them with or without the barrier (no thread but
// thread 0 touches the counter before that).
extern "C" __global__ void gn_global_flag_published_init_removable(int *count, int *flag, int *out) {
    int t = threadIdx.x;
    if (t == 0) *count = 0;
    __syncthreads();
    if (t == 0) {
        *count = *count + 7;
        __threadfence();
        atomicExch(flag, 1);
    } else if ((t & 31) == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        out[t / 32] = *count;
    }
}
