// Seed 001 (bank conflicts of structs): struct {float x, y} shared[32]; each thread writes, then reads,
// the whole struct at shared[tid]. The compiler moves the two floats as one 64-bit access (LDS.64/STS.64):
// 32 lanes x 8 bytes = 256 bytes, two wavefronts, which is the hardware minimum (no conflict).
// Launch: grid 1x1x1, block 32x1x1.
struct F2 {
    float x, y;
};

extern "C" __global__ void structF2(float *out)
{
    __shared__ struct F2 shared[32];
    unsigned int tid = threadIdx.x;
    struct F2 v = {(float)tid, 2.0f * tid};
    shared[tid] = v;
    __syncthreads();
    struct F2 data = shared[tid];
    out[tid] = data.x + data.y;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    DevBuf<float> out(32);
    structF2<<<1, 32>>>(out.d);
    launched("structF2");
    std::vector<float> want(32);
    for (int t = 0; t < 32; t++) want[t] = 3.0f * t;
    return expect_equal("structF2", out.get(), want);
}
#endif
