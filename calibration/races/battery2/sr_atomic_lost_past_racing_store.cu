// expect: race
// launch: --grid 1 --block 96 --arg buf:4:zero
// Thread 0 adds to a shared counter by atomicAdd; thread 32 stores to it (a race with that atomic)
// and adds, then publishes a flag; thread 64 waits for the flag and reads the counter: ordered
// after thread 32's store and atomic, not after thread 0's atomicAdd, with which it races too.
// Before, the store took thread 0's atomic's place and thread 32's atomic hid the store: only
// the first race (lines 17 and 20) was reported, not the read's at line 28.
extern "C" __global__ void sr_atomic_lost_past_racing_store(int *out) {
    __shared__ int count, flag;
    int t = threadIdx.x;
    if (t == 0) {
        count = 0;
        flag = 0;
    }
    __syncthreads();
    if (t == 0) {
        atomicAdd(&count, 1); // <-
    }
    if (t == 32) {
        count = 5; // <-
        atomicAdd(&count, 2);
        __threadfence_block();
        atomicExch(&flag, 1);
    }
    if (t == 64) {
        while (atomicAdd(&flag, 0) == 0) {
        }
        *out = count; // <-
    }
}
