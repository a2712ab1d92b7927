// expect: global_race
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// gn_fence_barrier_volatile_flag without the reader's fence: the volatile poll acquires nothing.
extern "C" __global__ void gr_fence_barrier_no_reader_fence(int *data, volatile int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t * 11; // <-
        __threadfence();
        __syncthreads();
        if (t == 0) *flag = 1;
    } else {
        if (t == 0)
            while (*flag == 0) {
            }
        __syncthreads();
        out[t] = data[t]; // <-
    }
}
