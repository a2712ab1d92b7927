// expect: none
// launch: --grid 2 --block 32 --arg buf:4:zero --arg buf:4:zero --arg buf:4:zero
// Twin of gr_fence_by_other_lane with __syncwarp() between lane 0's write and lane 1's fence: the
// write happens before the fence (cumulativity), so the consumer that acquires the flag is
// ordered after it.
extern "C" __global__ void gn_fence_by_other_lane_syncwarp(int *data, int *flag, int *out) {
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        if (t == 0) *data = 42;
        __syncwarp();
        if (t == 1) {
            __threadfence();
            atomicExch(flag, 1);
        }
    } else if (t == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        *out = *data;
    }
}
