// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// Block 0 writes data and then a volatile flag; block 1 waits for the flag and reads the data.
// Nothing orders the data: no fence, plain (not release/acquire) accesses.
extern "C" __global__ void gr_flag_nofence(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        if (threadIdx.x == 0) *flag = 1;
    } else {
        if (threadIdx.x == 0)
            while (*flag == 0) {
            }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
