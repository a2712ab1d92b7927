// The GPU's approximate unit (MUFU) over every single-precision input of one binade or period:
// ex2.approx.ftz.f32 on x = k / 2^23 (k < 2^23, [0, 1)), rcp.approx.ftz.f32 and lg2.approx.ftz.f32
// on 1 + k / 2^23 ([1, 2)), rsqrt.approx.ftz.f32 on 1 + k / 2^22 (k < 2^23, [1, 3)) and
// sin.approx.ftz.f32 / cos.approx.ftz.f32 on x = k / 2^23 ([0, 1)). Each table is written as the
// differences of consecutive result bits (u32, wrapping), compressed by the caller (xz): the
// results are smooth, so the tables are small. Run: ./mufu OUTDIR
#include <cstdio>
#include <cstdlib>

template <int F> __device__ float op(float x)
{
    float r;
    if (F == 0) asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == 1) asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == 2) asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == 3) asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == 4) asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    if (F == 5) asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}

template <int F> __global__ void table(unsigned *out, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    float x;
    if (F == 0 || F == 4 || F == 5) x = k * (1.0f / 8388608.0f);
    else if (F == 3) x = 1.0f + k * (1.0f / 4194304.0f);
    else x = 1.0f + k * (1.0f / 8388608.0f);
    out[k] = __float_as_uint(op<F>(x));
}

int main(int argc, char **argv)
{
    const int n = 1 << 23;
    const char *names[6] = {"ex2", "rcp", "lg2", "rsqrt", "sin", "cos"};
    unsigned *d, *h = (unsigned *)malloc(4ull * n);
    cudaMalloc(&d, 4ull * n);
    for (int f = 0; f < 6; ++f) {
        switch (f) {
        case 0: table<0><<<n / 256, 256>>>(d, n); break;
        case 1: table<1><<<n / 256, 256>>>(d, n); break;
        case 2: table<2><<<n / 256, 256>>>(d, n); break;
        case 3: table<3><<<n / 256, 256>>>(d, n); break;
        case 4: table<4><<<n / 256, 256>>>(d, n); break;
        default: table<5><<<n / 256, 256>>>(d, n); break;
        }
        if (cudaMemcpy(h, d, 4ull * n, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
        unsigned prev = 0;
        for (int k = 0; k < n; ++k) { unsigned v = h[k]; h[k] = v - prev; prev = v; }
        char path[512];
        snprintf(path, sizeof path, "%s/%s.delta", argc > 1 ? argv[1] : ".", names[f]);
        FILE *o = fopen(path, "wb");
        fwrite(h, 4, n, o);
        fclose(o);
        printf("%s: %d results\n", names[f], n);
    }
    return 0;
}
