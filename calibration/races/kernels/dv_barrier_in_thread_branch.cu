// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero
// A barrier only threads below 16 reach.
extern "C" __global__ void dv_barrier_in_thread_branch(int *a) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 16) {
        __syncthreads();
        a[t] = s[t + 16];
    }
}
