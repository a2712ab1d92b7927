// expect: none
// launch: --grid 1 --block 64 --arg buf:256 --arg buf:256:zero
// sr_syncwarp_other_warp reading t ^ 16: a lane of the same warp, which __syncwarp() orders.
extern "C" __global__ void gn_syncwarp_xor16(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t] * 3;
    __syncwarp();
    out[t] = s[t ^ 16];
}
