// expect: global_race
// launch: --grid 4 --block 32 --arg buf:512 --arg buf:8:zero --arg buf:512:zero
// Every thread adds its element to a double with atomicAdd(double *); each block's lane 0 also
// reads the sum with a plain load: a plain access against other blocks' atomics.
extern "C" __global__ void gr_double_atomic_vs_plain_read(const float *in, double *sum, double *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(sum, (double)in[i]); // <-
    if (threadIdx.x == 0) out[blockIdx.x] = *sum; // <-
}
