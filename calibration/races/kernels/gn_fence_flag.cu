// expect: none
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// Producer: data, __threadfence(), flag; consumer: flag, __threadfence(), data.
extern "C" __global__ void gn_fence_flag(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
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
