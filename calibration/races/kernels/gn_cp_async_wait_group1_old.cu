// expect: none
// launch: --grid 1 --block 64 --arg buf:512 --arg buf:256:zero
// sr_cp_async_wait_group1_stale reading only the older group's destination after
// cp.async.wait_group 1 and the barrier: that group is complete (race-free); the newer group is
// waited for by its own threads before the kernel ends.
extern "C" __global__ void gn_cp_async_wait_group1_old(const int *in, int *out) {
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
    out[t] = a[63 - t];
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[t] += b[t];
}
