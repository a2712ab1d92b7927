// expect: divergent_barrier
// launch: --grid 1 --block 96 --arg buf:384:zero
// A __syncthreads() inside one case of a `switch` on the warp index: warp 0 waits there, warps 1
// and 2 run other cases that have no barrier (barrier divergence).
extern "C" __global__ void dv_switch_barrier(int *out) {
    __shared__ int s[96];
    int t = threadIdx.x;
    s[t] = t;
    switch (t / 32) {
    case 0:
        __syncthreads();
        out[t] = s[95 - t];
        break;
    case 1:
        out[t] = t * 2;
        break;
    default:
        out[t] = -t;
        break;
    }
}
