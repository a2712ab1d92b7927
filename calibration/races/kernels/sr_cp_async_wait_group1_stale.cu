// expect: race
// launch: --grid 1 --block 64 --arg buf:512 --arg buf:256:zero
// Two commit groups of 16-byte cp.async copies per thread; cp.async.wait_group 1 leaves the newest
// group in flight, then a barrier and reads of the second group's destination by another
// thread: the read races with the copy still in flight.
extern "C" __global__ void sr_cp_async_wait_group1_stale(const int *in, int *out) {
    __shared__ __align__(16) int a[64], b[64];
    int t = threadIdx.x;
    if (t < 16) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(&a[t * 4])), "l"(in + t * 4) : "memory");
        asm volatile("cp.async.commit_group;" ::: "memory");
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(&b[t * 4])), "l"(in + 64 + t * 4) : "memory");
        asm volatile("cp.async.commit_group;" ::: "memory");
        asm volatile("cp.async.wait_group 1;" ::: "memory");
    }
    __syncthreads();
    out[t] = a[63 - t] + b[63 - t];
    asm volatile("cp.async.wait_all;" ::: "memory");
}
