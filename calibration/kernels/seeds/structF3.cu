// Seed 001 (bank conflicts of structs): struct {float x, y, z} shared[32]; each thread writes, then reads,
// the whole struct at shared[tid]. Stride 3 words is odd, so no conflict; each field is its own 32-bit access.
// Launch: grid 1x1x1, block 32x1x1.
struct F3 {
    float x, y, z;
};

extern "C" __global__ void structF3(float *out)
{
    __shared__ struct F3 shared[32];
    unsigned int tid = threadIdx.x;
    struct F3 v = {(float)tid, 2.0f * tid, 3.0f * tid};
    shared[tid] = v;
    __syncthreads();
    struct F3 data = shared[tid];
    out[tid] = data.x + data.y + data.z;
}

#ifdef WARPSCOPE_HOST
#include "../harness.h"
int main()
{
    DevBuf<float> out(32);
    structF3<<<1, 32>>>(out.d);
    launched("structF3");
    std::vector<float> want(32);
    for (int t = 0; t < 32; t++) want[t] = 6.0f * t;
    return expect_equal("structF3", out.get(), want);
}
#endif
