// expect: divergent_barrier
// launch: --grid 1 --block 96 --arg buf:384:zero
// A while loop counting down from the warp index, a barrier in its body: warp 0 never reaches it,
// warp 1 once, warp 2 twice.
extern "C" __global__ void dv_while_warp_countdown(int *out) {
    int t = threadIdx.x;
    int k = t / 32;
    int acc = 0;
    while (k-- > 0) {
        acc += k;
        __syncthreads(); // <-
    }
    out[t] = acc;
}
