// expect: race
// launch: --grid 1 --block 32 --arg buf:128 --arg buf:128:zero
// A warp-synchronous inclusive scan in shared memory without __syncwarp(): correct only if the 32
// lanes run in lock step (read s[l - d] before any lane writes s[l]); under independent thread
// scheduling (sm_70+) a lane's read and another lane's write of one slot are unordered.
extern "C" __global__ void sr_warp_scan_lockstep(const int *in, int *out) {
    volatile __shared__ int s[32];
    int l = threadIdx.x;
    s[l] = in[l];
    for (int d = 1; d < 32; d *= 2) {
        int v = l >= d ? s[l - d] : 0;
        s[l] += v;
    }
    out[l] = s[l];
}
