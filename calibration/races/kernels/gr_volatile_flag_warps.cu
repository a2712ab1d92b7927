// expect: global_race
// launch: --grid 1 --block 64 --arg buf:128:zero --arg buf:4:zero --arg buf:256:zero
// Two warps of one block hand data over through global memory: warp 0 writes data[], then lane 0
// sets a volatile flag; warp 1 spins on the flag and reads data[]. No fence on either side: the
// volatile flag is a relaxed access, the data plain, so nothing orders the data (race). The twin
// gn_volatile_flag_warps_fence puts __threadfence() on both sides.
extern "C" __global__ void gr_volatile_flag_warps(int *data, volatile int *flag, int *out) {
    int t = threadIdx.x;
    if (t < 32) {
        data[t] = t * 5 + 1;
        __syncwarp();
        if (t == 0) *flag = 1;
    } else {
        while (*flag == 0) {
        }
        out[t] = data[t - 32];
    }
}
