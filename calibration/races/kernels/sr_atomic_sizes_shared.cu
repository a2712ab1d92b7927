// expect: race
// launch: --grid 1 --block 64 --arg buf:8:zero
// A shared 64-bit counter: warp 0 adds to it with 64-bit atomicAdd, warp 1 to its low half with
// 32-bit atomicAdd, between the same two barriers. The 8-byte and 4-byte atomics overlap only in
// part: not morally strong, so they race (gr_atomic64_vs_atomic32 in shared memory).
extern "C" __global__ void sr_atomic_sizes_shared(unsigned long long *out) {
    __shared__ unsigned long long c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    if (threadIdx.x < 32)
        atomicAdd(&c, 1ull << 32);
    else
        atomicAdd((unsigned *)&c, 1u);
    __syncthreads();
    if (threadIdx.x == 0) *out = c;
}
