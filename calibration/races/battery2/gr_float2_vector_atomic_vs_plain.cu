// expect: global_race
// launch: --grid 2 --block 32 --arg buf:256 --arg buf:8:zero --arg buf:8:zero
// Block 0 adds float2s into one accumulator with the sm_90 vector atomicAdd(float2 *, float2);
// block 1's thread 0 reads its y component with a plain load.
extern "C" __global__ void gr_float2_vector_atomic_vs_plain(const float2 *in, float2 *acc, float *out) {
    if (blockIdx.x == 0)
        atomicAdd(acc, in[threadIdx.x]); // <-
    else if (threadIdx.x == 0)
        *out = acc->y; // <-
}
