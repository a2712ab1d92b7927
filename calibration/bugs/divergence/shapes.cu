// More branch shapes for the divergence document (launched 64 blocks x 64 threads like mathKernel1/2).

// No branch in the source: what ncu counts here comes from the machine code alone (EXIT and the like).
__global__ void straightKernel(float* c)
{
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    c[tid] = 1.0f;
}

// mathKernel1's shape without the `%` (so no division routine appears in the machine code).
__global__ void parityAndKernel(float* c)
{
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    float a, b;
    a = b = 0.0f;
    if ((threadIdx.x & 1) == 0) {
        a = 100.0f;
    } else {
        b = 200.0f;
    }
    c[tid] = a + b;
}

// An if without else taken by a quarter of the lanes.
__global__ void ifOnlyKernel(float* c)
{
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    float a = 1.0f;
    if ((threadIdx.x & 3) == 0) {
        a = 2.0f;
    }
    c[tid] = a;
}

// A loop whose trip count differs per lane (0..3).
__global__ void loopKernel(float* c)
{
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < (int)(threadIdx.x & 3); ++k) {
        acc += (float)k;
    }
    c[tid] = acc;
}
