// expect: none
// launch: --grid 1 --block 128 --arg buf:16:zero --arg buf:4:zero
// Look-alike of gn_shared_cas_lock_fenced whose first barrier is truly removable: thread 0
// initialises the counter, adds to it after the barrier and publishes it by a fence and an atomic
// store of a flag the host zeroed; lane 0 of each other warp waits for the flag (an atomic read:
// it acquires) before it reads the counter. Each reader waits for a value written after both of
// thread 0's writes, so it is ordered after them in every schedule, with or without the barrier
// (no thread but thread 0 touches the counter before that). The lock's barrier is needed: its
// lock word is the synchronising location itself, which another warp may reach first.
extern "C" __global__ void gn_flag_published_init_removable(int *out, int *flag) {
    __shared__ int count;
    int t = threadIdx.x;
    if (t == 0) count = 0;
    __syncthreads();
    if (t == 0) {
        count = count + 7;
        __threadfence_block();
        atomicExch(flag, 1);
    } else if ((t & 31) == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        out[t / 32] = count;
    }
}
