// expect: none
// launch: --grid 1 --block 32 --arg buf:128:zero
// The twin of sr_syncwarp_exited: lanes 16-31 write s[lane], run __syncwarp() and return; lanes
// 0-15 run __syncwarp() and read s[lane+16]. Every lane executes a __syncwarp() of the full mask,
// one synchronisation (sm_70 and later): the writes come before the reads (race-free).
extern "C" __global__ void gn_syncwarp_exited(int *out) {
    __shared__ int s[32];
    int l = threadIdx.x;
    if (l >= 16) {
        s[l] = l * 3;
        __syncwarp();
        return;
    }
    __syncwarp();
    out[l] = s[l + 16];
}
