// expect: race
// launch: --grid 1 --block 64 --arg buf:256:zero
// A loop left by a break placed before its barriers: in the last iteration every thread writes
// s[t] and breaks, and the read of the neighbour's slot after the loop has no barrier before it.
extern "C" __global__ void sr_loop_break_before_barrier(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int v = t;
    for (int k = 0; k < 4; ++k) {
        s[t] = v + k;
        if (k == 3) break;
        __syncthreads();
        v = s[(t + 1) % 64];
        __syncthreads();
    }
    out[t] = s[(t + 1) % 64];
}
