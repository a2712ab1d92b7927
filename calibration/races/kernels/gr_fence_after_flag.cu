// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// The writer's fence is on the wrong side of the flag: flag, __threadfence(), data. The reader
// (flag, fence, data) may see the flag before the data.
extern "C" __global__ void gr_fence_after_flag(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) *flag = 1;
        __threadfence();
        data[threadIdx.x] = threadIdx.x + 1;
    } else {
        if (threadIdx.x == 0)
            while (*flag == 0) {
            }
        __threadfence();
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
