// expect: global_race
// launch: --grid 2 --block 32 --arg buf:128:zero --arg buf:128:zero
// __threadfence() alone synchronises nothing: block 0 writes and fences, block 1 fences and reads,
// with no flag between them.
extern "C" __global__ void gr_threadfence_without_flag(int *data, int *out) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x;
        __threadfence();
    } else {
        __threadfence();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
