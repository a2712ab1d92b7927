// expect: race
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// gn_cp_async_wait_group_barrier without the __syncthreads(): cp.async.wait_group completes only
// the waiting thread's own copies, so the read of another warp's element races with its copy.
extern "C" __global__ void sr_cp_async_wait_no_barrier(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&s[t]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(in + t) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    out[t] = s[127 - t];
}
