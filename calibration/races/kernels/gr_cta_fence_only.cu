// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// The producer fences at block scope only (__threadfence_block): the consumer in another block
// is not ordered after the data.
extern "C" __global__ void gr_cta_fence_only(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 9;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence_block();
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            while (*flag == 0) {
            }
            __threadfence();
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
