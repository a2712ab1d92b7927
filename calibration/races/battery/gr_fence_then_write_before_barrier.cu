// expect: global_race
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// As gn_fence_barrier_volatile_flag, but each producer writes a second array after its fence (and
// before the barrier): no fence of its own follows that write, so it is not ordered before the
// reader's loads. check also names the fenced write (`<+`, ordered by the memory model): a barrier
// orders a block's fenced accesses for a later release only when every thread's were fenced.
extern "C" __global__ void gr_fence_then_write_before_barrier(int *data, int *more, volatile int *flag,
                                                              int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t * 11; // <+
        __threadfence();
        more[t] = t * 13; // <-
        __syncthreads();
        if (t == 0) *flag = 1;
    } else {
        if (t == 0)
            while (*flag == 0) {
            }
        __threadfence();
        __syncthreads();
        out[t] = data[t] + more[t]; // <-
    }
}
