// expect: global_race
// launch: --grid 2 --block 64 --arg buf:256:zero --arg buf:4:zero --arg buf:256:zero
// gn_fence_barrier_volatile_flag with each producer's fence a fence.acq_rel.gpu made before the
// barrier, and thread 0's flag after it: an acq_rel fence is not in the Fence-SC order, and no
// release pattern of thread 0 follows the other threads' writes, so they race with the reads.
// Thread 0's own write is ordered (its fence, then its flag).
extern "C" __global__ void gr_fence_acq_rel_before_barrier(int *data, volatile int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = t * 11; // <-
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        __syncthreads();
        if (t == 0) *flag = 1;
    } else {
        if (t == 0)
            while (*flag == 0) {
            }
        __threadfence();
        __syncthreads();
        out[t] = data[t]; // <-
    }
}
