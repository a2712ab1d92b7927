// expect: none
// launch: --grid 1 --block 64 --arg buf:256:zero
// The race-free twin of sr_loop_late_wrap: a barrier between the read of the neighbour's slot and
// the write of the thread's own, and one after the write.
extern "C" __global__ void gn_loop_late_wrap_sync(int *out) {
    __shared__ int ring[64];
    int t = threadIdx.x;
    ring[t] = t;
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < 12; k++) {
        int v = ring[(t + 1) % 64];
        __syncthreads();
        ring[t] = v + k;
        __syncthreads();
        acc += v;
    }
    out[t] = acc;
}
