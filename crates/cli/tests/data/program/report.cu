// Test program of `warpscope run --report`: a transpose through a 32x32 int tile read down its
// columns (line 13: lane l of a warp reads word 32 l, so every request hits bank 0 with 32 words),
// launched three times the same way; and a kernel whose line 20 runs with 8 of its warp's 32 lanes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void transposeTile(const int *in, int *out) {
    __shared__ int tile[32][32];
    unsigned x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 32 + x];
    __syncthreads();
    out[y * 32 + x] =
        tile[x][y];
}

__global__ void firstEight(int *out) {
    int v = threadIdx.x;
    if (threadIdx.x < 8) {
        out[threadIdx.x] =
            v * 3;
    }
}

int main() {
    int h[1024], *in, *out;
    for (int i = 0; i < 1024; i++) h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    for (int i = 0; i < 3; i++) transposeTile<<<1, dim3(32, 32)>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int ok = h[1] == 32 && h[32] == 1;
    firstEight<<<1, 32>>>(out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    ok &= h[7] == 21 && h[8] == 256;
    printf(ok ? "Test PASSED\n" : "Test FAILED\n");
    return ok ? 0 : 1;
}
