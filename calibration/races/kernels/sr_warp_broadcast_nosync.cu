// expect: race
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// Lane 0 of each warp stores a value into its warp's shared slot; the other lanes read it with
// no __syncwarp() between (warp-synchronous code that relies on lock-step execution).
extern "C" __global__ void sr_warp_broadcast_nosync(const int *in, int *out) {
    __shared__ int slot[2];
    int t = threadIdx.x, w = t / 32;
    if ((t & 31) == 0) slot[w] = in[t] * 2;
    out[t] = slot[w] + t;
}
