// expect: divergent_barrier
// launch: --grid 1 --block 128 --arg buf:512:zero
// A barrier inside an if on a per-warp shared flag: warps 0 and 2 take it, warps 1 and 3 do not.
extern "C" __global__ void dv_per_warp_flag(int *out) {
    __shared__ int take[4];
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t < 4) take[t] = (t % 2 == 0);
    s[t] = t;
    __syncthreads();
    if (take[t / 32]) {
        s[t] += 1;
        __syncthreads();
    }
    out[t] = s[t];
}
