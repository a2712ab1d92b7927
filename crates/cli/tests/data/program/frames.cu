#include <cstdio>
#include "frame.cuh"

template <int BLOCK>
__global__ void blockSum(const float *in, float *out) {
    __shared__ float part[BLOCK];
    int t = threadIdx.x;
    part[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s) part[t] += part[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = part[0];
}

__global__ void applyGain(Frame f, float *img) {
    __shared__ float rows[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    int i = (blockIdx.y * 32 + y) * f.width + blockIdx.x * 32 + x;
    rows[x][y] = img[i];
    __syncthreads();
    img[i] = shade(f, rows[x][y], x);
}

template __global__ void blockSum<256>(const float *, float *);
template __global__ void blockSum<128>(const float *, float *);

int main() {
    const int n = 1024;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    float h[n];
    for (int i = 0; i < n; ++i) h[i] = 1.0f;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    blockSum<256><<<n / 256, 256>>>(in, out);
    blockSum<128><<<n / 128, 128>>>(in, out);
    float r[8];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    Frame f = {32, 32, {2.0f, 0.5f}, make_float4(1, 0, 0, 0)};
    applyGain<<<1, dim3(32, 32)>>>(f, in);
    cudaMemcpy(h, in, sizeof h, cudaMemcpyDeviceToHost);
    bool ok = r[0] == 128.0f && h[0] == 2.0f + SCALE && h[1] == 0.5f + SCALE;
    printf("%s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? 0 : 1;
}
