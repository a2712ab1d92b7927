// expect: none
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// Every thread of block 0 writes its element and makes a __threadfence() before the block barrier;
// thread 0 then sets a volatile flag. Block 1's thread 0 polls it, fences, and a barrier hands the
// data on. __threadfence() is fence.sc: the consumer's fence cannot come before any producer's in
// their SC order (the flag it read follows them all), so each producer fence synchronises with it.
extern "C" __global__ void gn_fence_barrier_volatile_flag(int *data, volatile int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t * 11;
        __threadfence();
        __syncthreads();
        if (t == 0) *flag = 1;
    } else {
        if (t == 0)
            while (*flag == 0) {
            }
        __threadfence();
        __syncthreads();
        out[t] = data[t];
    }
}
