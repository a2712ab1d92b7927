// expect: none
// launch: --grid 1 --block 128 --arg buf:4:zero --arg buf:4:zero
// One block counts in global memory with atomicAdd, a barrier, then thread 0 reads the counter
// with a plain load: the barrier orders the atomics before it.
extern "C" __global__ void gn_atomic_then_barrier_plain(int *count, int *out) {
    atomicAdd(count, 1);
    __syncthreads();
    if (threadIdx.x == 0) *out = *count;
}
