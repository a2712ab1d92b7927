// expect: none
// launch: --grid 1 --block 64 --arg buf:128:zero --arg buf:4:zero --arg buf:256:zero
// The twin of gr_volatile_flag_warps: __threadfence() between the data and the flag on the
// writer's side and between the flag and the data on the reader's: a release and an acquire
// through the volatile flag order the data (race-free).
extern "C" __global__ void gn_volatile_flag_warps_fence(int *data, volatile int *flag, int *out) {
    int t = threadIdx.x;
    if (t < 32) {
        data[t] = t * 5 + 1;
        __syncwarp();
        if (t == 0) {
            __threadfence();
            *flag = 1;
        }
    } else {
        while (*flag == 0) {
        }
        __threadfence();
        out[t] = data[t - 32];
    }
}
