// expect: none
// launch: --grid 4 --block 64 --arg buf:4096 --arg buf:256:zero
// Vector atomics of sm_90: every thread adds a float4 into one of 16 accumulators with
// atomicAdd(float4 *, float4) (one 16-byte atomic); nothing else touches them.
extern "C" __global__ void gn_float4_vector_atomic_add(const float4 *in, float4 *acc) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&acc[i & 15], in[i]);
}
