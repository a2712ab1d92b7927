// expect: none
// launch: --grid 2 --block 64 --arg buf:512 --arg buf:528:zero
// An inclusive warp scan with __shfl_up_sync, each lane writing its own prefix; lane 31 of each
// warp also writes the warp total into a slot after the scans.
extern "C" __global__ void gn_shfl_up_scan_global(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int v = in[i] & 1023;
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    out[i] = v;
    if (lane == 31) out[blockDim.x * gridDim.x + i / 32] = v;
}
