// expect: none
// launch: --grid 1 --block 96 --arg buf:4:zero --arg i32:42
// Look-alike of sr_fence_by_other_thread: the data is written by lane 0 and the fence and flag
// are lane 1's, after a __syncwarp() that orders the write before the fence; thread 64 waits for
// the flag and reads the data, ordered after the write.
extern "C" __global__ void gn_fence_by_other_lane_syncwarp_shared(int *out, int v) {
    __shared__ int data, flag;
    int t = threadIdx.x;
    if (t == 0) flag = 0;
    __syncthreads();
    if (t == 0) data = v;
    __syncwarp();
    if (t == 1) {
        __threadfence_block();
        atomicExch(&flag, 1);
    }
    if (t == 64) {
        while (atomicAdd(&flag, 0) == 0) {
        }
        *out = data;
    }
}
