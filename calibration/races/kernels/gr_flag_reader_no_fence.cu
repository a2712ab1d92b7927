// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:4:zero --arg buf:128:zero
// Message passing between blocks with the writer's side right (data, __threadfence(), flag) and the
// reader's side missing its fence: a volatile read of the flag acquires nothing, so the data reads
// are not ordered after the writes.
extern "C" __global__ void gr_flag_reader_no_fence(int *data, volatile int *flag, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x + 1;
        __threadfence();
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
