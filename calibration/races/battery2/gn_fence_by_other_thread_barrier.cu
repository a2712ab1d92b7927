// expect: none
// launch: --grid 2 --block 64 --arg buf:4:zero --arg buf:4:zero --arg buf:4:zero
// Twin of gr_fence_by_other_thread with a block barrier between thread 0's write and thread 32's
// fence: the barrier orders the write before the fence, whose release then covers it for the
// consumer in block 1.
extern "C" __global__ void gn_fence_by_other_thread_barrier(int *data, int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        if (t == 0) *data = 42;
        __syncthreads();
        if (t == 32) {
            __threadfence();
            atomicExch(flag, 1);
        }
    } else if (t == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        *out = *data;
    }
}
