// expect: divergent_barrier
// launch: --grid 1 --block 64 --arg buf:256:zero
// A barrier in a loop whose trip count depends on the thread.
extern "C" __global__ void dv_loop_bound_tid(int *a) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 0;
    for (int k = 0; k < t % 3; k++) {
        s[t] += k;
        __syncthreads();
    }
    a[t] = s[t];
}
