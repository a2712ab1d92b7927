// expect: global_race
// launch: --grid 2 --block 32 --arg buf:4:zero --arg buf:4:zero --arg buf:4:zero
// gr_fence_by_other_thread within one warp: lane 0 writes the data, lane 1 fences and sets the
// flag, with no __syncwarp() between. Lanes of one warp are threads: lane 1's fence does not
// order lane 0's write, and the consumer in block 1 races with it.
extern "C" __global__ void gr_fence_by_other_lane(int *data, int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        if (t == 0) *data = 42; // <-
        if (t == 1) {
            __threadfence();
            atomicExch(flag, 1);
        }
    } else if (t == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        *out = *data; // <-
    }
}
