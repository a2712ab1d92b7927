// expect: none
// launch: --grid 1 --block 128 --arg buf:512 --arg buf:512:zero
// Each thread copies its own element into shared memory with cp.async.ca (4 bytes), then
// cp.async.commit_group, cp.async.wait_group 0 and __syncthreads(); then it reads another thread's
// element (race-free: the wait completes the own copy, the barrier orders it before the others).
extern "C" __global__ void gn_cp_async_wait_group_barrier(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&s[t]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(in + t) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    out[t] = s[127 - t];
}
