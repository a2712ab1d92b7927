// expect: none
// launch: --grid 1 --block 32 --arg buf:128 --arg buf:128:zero
// sr_warp_scan_lockstep with __syncwarp() between each step's reads and writes.
extern "C" __global__ void gn_warp_scan_syncwarp(const int *in, int *out) {
    __shared__ int s[32];
    int l = threadIdx.x;
    s[l] = in[l];
    __syncwarp();
    for (int d = 1; d < 32; d *= 2) {
        int v = l >= d ? s[l - d] : 0;
        __syncwarp();
        s[l] += v;
        __syncwarp();
    }
    out[l] = s[l];
}
